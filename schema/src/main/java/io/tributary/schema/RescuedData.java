package io.tributary.schema;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Auto Loader's rescued data ({@code schemaEvolution: rescue}), as every JSON source writes it: one
 * STRING column, {@value #COLUMN}, holding what a record had beside its schema (top-level fields the
 * schema lacks, values their column cannot take) as one JSON object, each field with its exact JSON
 * text, followed by where the record came from: {@code "_file_path"} for a file,
 * {@code "_topic"}, {@code "_partition"}, {@code "_offset"} for a Kafka record.
 */
public final class RescuedData {
    /** The column's name (Auto Loader's). */
    public static final String COLUMN = "_rescued_data";

    private RescuedData() {
    }

    /** {@code schema} with the {@value #COLUMN} column (nullable STRING) at the end, unless it has one. */
    public static Schema withColumn(Schema schema) {
        if (schema.indexOf(COLUMN) >= 0) {
            return schema;
        }
        List<Field> fields = new ArrayList<>(schema.fields());
        fields.add(new Field(COLUMN, DataType.STRING, true));
        return new Schema(fields);
    }

    /**
     * The column's value: {@code fields} (name to exact JSON text) then {@code where} (name to a
     * text, written as a JSON string, or a number), in their orders.
     */
    public static String json(Map<String, String> fields, Map<String, ?> where) {
        StringBuilder b = new StringBuilder("{");
        fields.forEach((k, v) -> b.append(quote(k)).append(':').append(v).append(','));
        where.forEach((k, v) -> b.append(quote(k)).append(':').append(v instanceof Number ? v.toString() : quote(String.valueOf(v)))
                .append(','));
        if (b.length() > 1) {
            b.setLength(b.length() - 1);
        }
        return b.append('}').toString();
    }

    private static String quote(String s) {
        return '"' + new String(JsonStringEncoder.getInstance().quoteAsString(s)) + '"';
    }
}
