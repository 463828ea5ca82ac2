package io.tributary.connect.internal;

import io.tributary.ingest.IngestedFile;
import io.tributary.ingest.InputFiles.InputFile;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A file's source partition ({@code {"file": name}}) and source offset: what the stage's ingest-log
 * record holds of it (size, modification time, SHA-256, rows, bad rows, when), committed by Connect
 * in the transaction that publishes the file's records.
 */
public final class FileOffsets {
    private FileOffsets() {
    }

    public static Map<String, Object> partition(String relPath) {
        return Map.of("file", relPath);
    }

    public static Map<String, Object> offset(IngestedFile f) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("size", f.size());
        o.put("mtime", f.mtimeMs());
        o.put("sha256", f.sha256());
        o.put("rows", f.rows());
        o.put("badRows", f.badRows());
        o.put("ingestedAt", Instant.now().toString());
        return o;
    }

    /** True when the offset was written for the file as it is now (same size and modification time). */
    public static boolean sameFile(Map<String, Object> offset, InputFile f) {
        return offset.get("size") instanceof Number size && offset.get("mtime") instanceof Number mtime
                && size.longValue() == f.size() && mtime.longValue() == f.mtimeMs();
    }
}
