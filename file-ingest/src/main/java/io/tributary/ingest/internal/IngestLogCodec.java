package io.tributary.ingest.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tributary.ingest.BadRecord;
import io.tributary.ingest.IngestedFile;
import io.tributary.schema.Printable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The JSON values of the ingest-log topic (a file record, keyed by its path, and the
 * {@value IngestState#STATE_KEY} record), of watermark markers and of dead-letter records.
 */
public final class IngestLogCodec {
    private static final ObjectMapper JSON = new ObjectMapper();

    private IngestLogCodec() {
    }

    /** The key of the state record, or of a dead-letter record (its file's printable name). */
    public static byte[] key(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The key of a file's record: the name's exact bytes ({@link FileNames#bytes}), UTF-8 for a
     * name that is text, as ingest logs always held it; a file's identity, also for compaction.
     */
    public static byte[] fileKey(String path) {
        return FileNames.bytes(path);
    }

    /** The name a file record's key holds ({@link #fileKey}). */
    public static String pathOfKey(byte[] key) {
        return FileNames.fromBytes(key);
    }

    /**
     * A file's record. Its {@code path} is the name, printable ({@link Printable#escape}) when it
     * is not UTF-8 text; the exact name is the record's key.
     */
    public static byte[] file(IngestedFile f, String ingestedAt) {
        ObjectNode n = JSON.createObjectNode();
        n.put("path", FileNames.hasRawBytes(f.path()) ? Printable.escape(f.path()) : f.path());
        n.put("size", f.size());
        n.put("mtime", f.mtimeMs());
        n.put("sha256", f.sha256());
        n.put("rows", f.rows());
        n.put("badRows", f.badRows());
        n.put("batchId", f.batchId());
        n.put("ingestedAt", ingestedAt);
        if (f.etag() != null) {
            n.put("etag", f.etag());
        }
        return bytes(n);
    }

    /** A file's record, named by its key ({@link #fileKey}). */
    public static IngestedFile parseFile(byte[] key, byte[] value) {
        JsonNode n = tree(value);
        return new IngestedFile(pathOfKey(key), n.path("size").asLong(), n.path("mtime").asLong(),
                n.path("sha256").asText(), n.path("rows").asLong(), n.path("badRows").asLong(), n.path("batchId").asLong(),
                n.hasNonNull("etag") ? n.get("etag").asText() : null);
    }

    public static byte[] state(long nextBatchId, Long maxEventTimeMs, long watermarkMs) {
        return state(nextBatchId, maxEventTimeMs, watermarkMs, null);
    }

    /** The state record; {@code rowsPublished}, the rows the ingest published in all its batches (what LIMIT counts), or null. */
    public static byte[] state(long nextBatchId, Long maxEventTimeMs, long watermarkMs, Long rowsPublished) {
        ObjectNode n = JSON.createObjectNode();
        if (rowsPublished != null) {
            n.put("rowsPublished", rowsPublished);
        }
        n.put("nextBatchId", nextBatchId);
        if (maxEventTimeMs == null) {
            n.putNull("maxEventTimeMs");
        } else {
            n.put("maxEventTimeMs", maxEventTimeMs);
        }
        n.put("watermarkMs", watermarkMs);
        return bytes(n);
    }

    /** The schema record: the schema the ingest reads with from batch {@code batchId} on, and why. */
    public static byte[] schema(String ddl, String how, long batchId) {
        ObjectNode n = JSON.createObjectNode();
        n.put("schema", ddl);
        n.put("how", how);
        n.put("batchId", batchId);
        return bytes(n);
    }

    /** The DDL of a schema record. */
    public static String schemaDdl(byte[] value) {
        return tree(value).path("schema").asText(null);
    }

    public static void applyState(byte[] value, IngestState into) {
        JsonNode n = tree(value);
        JsonNode max = n.path("maxEventTimeMs");
        into.setBatch(n.path("nextBatchId").asLong(), max.isNumber() ? max.asLong() : null, n.path("watermarkMs").asLong());
        into.setRowsPublished(n.path("rowsPublished").isNumber() ? n.get("rowsPublished").asLong() : null);
    }

    /** A watermark marker's value ({@link io.tributary.schema.Topics#watermarkMarker}). */
    public static byte[] marker(long batchId, Long watermarkMs, boolean followedByMarker) {
        return io.tributary.schema.Topics.watermarkMarker(batchId, watermarkMs, followedByMarker);
    }

    public static byte[] deadLetter(String pipeline, long batchId, BadRecord bad) {
        ObjectNode n = JSON.createObjectNode();
        n.put("pipeline", pipeline);
        n.put("file", bad.file());
        n.put("line", bad.line());
        if (bad.field() == null) {
            n.putNull("field");
        } else {
            n.put("field", bad.field());
        }
        n.put("reason", bad.reason());
        n.put("text", bad.text());
        n.put("textTruncated", bad.textTruncated());
        n.put("batchId", batchId);
        return bytes(n);
    }

    private static byte[] bytes(ObjectNode n) {
        try {
            return JSON.writeValueAsBytes(n);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static JsonNode tree(byte[] value) {
        try {
            return JSON.readTree(value);
        } catch (IOException e) {
            throw new UncheckedIOException("unreadable ingest-log record: " + new String(value, StandardCharsets.UTF_8), e);
        }
    }
}
