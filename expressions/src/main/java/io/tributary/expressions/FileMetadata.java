package io.tributary.expressions;

import io.tributary.schema.DataType;
import io.tributary.schema.Field;
import io.tributary.schema.Schema;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * What a file source tells of the file a row comes from, as Spark's file sources tell it: the hidden column
 * {@code _metadata} ({@code file_path}, {@code file_name}, {@code file_size}, {@code file_block_start},
 * {@code file_block_length}, {@code file_modification_time}) and {@code input_file_name()}. Both are hidden columns
 * at the end of the rows a transform reads ({@link #withHidden}): a select item or a filter reads them, {@code *} does
 * not list them, and the source fills them ({@link #widen}) only when its transform reads them ({@link #mentioned}).
 */
public final class FileMetadata {
    /** The hidden struct column, as Spark names it. */
    public static final String COLUMN = "_metadata";
    /** The hidden column {@code input_file_name()} reads (no user's column can be named so from a schema). */
    public static final String FILE_URI = "input_file_name()";
    /** Spark 4.2's {@code _metadata} of a JSON, CSV or text source: every field NOT NULL. */
    public static final DataType TYPE = DataType.struct(new Schema(List.of(
            new Field("file_path", DataType.STRING, false),
            new Field("file_name", DataType.STRING, false),
            new Field("file_size", DataType.LONG, false),
            new Field("file_block_start", DataType.LONG, false),
            new Field("file_block_length", DataType.LONG, false),
            new Field("file_modification_time", DataType.TIMESTAMP, false))));
    private static final Field METADATA = new Field(COLUMN, TYPE, false);
    private static final Field URI = new Field(FILE_URI, DataType.STRING, false);

    private FileMetadata() {
    }

    /**
     * Whether any of {@code texts} (a filter, select items, a query's parts) may read the file's facts: it names
     * {@code _metadata} or {@code input_file_name}. A text that only mentions them (in a string) costs a row copy, nothing else.
     */
    public static boolean mentioned(List<String> texts) {
        for (String t : texts) {
            String lower = t == null ? "" : t.toLowerCase(Locale.ROOT);
            if (lower.contains(COLUMN) || lower.contains("input_file_name")) {
                return true;
            }
        }
        return false;
    }

    /** {@code input} followed by the hidden columns: {@code _metadata} (unless a column of the input has that name, as in Spark), then the file's URI. */
    public static Schema withHidden(Schema input) {
        List<Field> fields = new ArrayList<>(input.fields());
        if (input.indexOf(COLUMN) < 0) {
            fields.add(METADATA);
        }
        fields.add(URI);
        return new Schema(fields);
    }

    /** Whether {@code f} is one of the hidden columns, which a refusal does not list among the input's. */
    public static boolean isHidden(Field f) {
        return f.equals(METADATA) || f.equals(URI);
    }

    /** How many of the last columns of {@code input} are the hidden ones {@link #withHidden} added: 0, 1 or 2. */
    public static int hidden(Schema input) {
        int n = input.size();
        if (n == 0 || !input.field(n - 1).equals(URI)) {
            return 0;
        }
        return n >= 2 && input.field(n - 2).equals(METADATA) ? 2 : 1;
    }

    /**
     * The values of the hidden columns for a file: {@code uri} its full URI as {@code input_file_name()} gives it
     * ({@code file:///in/b%20c.json}, {@code s3a://bucket/in/a.json}), its {@code size} in bytes and modification time in
     * milliseconds. As Spark 4.2: {@code file_path} is the URI with a local file's empty authority left out
     * ({@code file:/in/b%20c.json}), {@code file_name} its last segment as encoded there ({@code b%20c.json}), and the whole
     * file is one block (Spark's block of a file it does not split: one under its split size, or a compressed one).
     */
    public static Object[] facts(String uri, long size, long modifiedMs) {
        String path = uri.startsWith("file:///") ? "file:" + uri.substring("file://".length()) : uri;
        String name = path.substring(path.lastIndexOf('/') + 1);
        Object[] metadata = {path, name, size, 0L, size, Math.multiplyExact(modifiedMs, 1000L)};
        return new Object[] {metadata, uri};
    }

    /** {@code row} followed by the last {@code hidden} values of {@code facts} (of {@link #facts}). */
    public static Object[] widen(Object[] row, Object[] facts, int hidden) {
        Object[] out = Arrays.copyOf(row, row.length + hidden);
        System.arraycopy(facts, facts.length - hidden, out, row.length, hidden);
        return out;
    }
}
