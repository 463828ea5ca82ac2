package io.tributary.schema;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.util.Base64;
import java.util.List;

/**
 * The key that places an events row ({@link Topics}): the group-by values as a UTF-8 JSON array,
 * each written as {@link RowJson} writes it in a row ({@code ["a"]}, {@code ["a",3]},
 * {@code ["2026-01-01T10:00:00Z"]}), so a group's rows share a partition. Null without group-by.
 * Every stage that writes events (the file ingest, the Delta source) places rows with it; the
 * partition a key gives is Kafka's default partitioner's ({@code kafka-support}'s {@code KeyPartition}).
 */
public final class GroupKey {
    private static final JsonFactory JSON = new JsonFactory();

    private final Schema schema;
    private final int[] columns;

    public GroupKey(Schema schema, List<String> groupBy) {
        this.schema = schema;
        this.columns = groupBy.stream().mapToInt(schema::indexOf).toArray();
    }

    public byte[] key(Object[] row) {
        if (columns.length == 0) {
            return null;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(16 * columns.length);
        try (JsonGenerator g = JSON.createGenerator(out)) {
            g.writeStartArray();
            for (int c : columns) {
                write(g, schema.field(c), row[c]);
            }
            g.writeEndArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    private static void write(JsonGenerator g, Field f, Object v) throws IOException {
        if (v == null) {
            g.writeNull();
            return;
        }
        switch (f.type().kind()) {
            case BYTE, SHORT, INT -> g.writeNumber(((Number) v).intValue());
            case LONG -> g.writeNumber((Long) v);
            case FLOAT, DOUBLE -> {
                double d = ((Number) v).doubleValue();
                if (Double.isNaN(d) || Double.isInfinite(d)) {
                    g.writeString(Double.isNaN(d) ? "NaN" : d > 0 ? "Infinity" : "-Infinity");
                } else {
                    g.writeNumber(d);
                }
            }
            case DECIMAL -> g.writeNumber(((BigDecimal) v).toPlainString());
            case BOOLEAN -> g.writeBoolean((Boolean) v);
            case DATE -> g.writeString(Timestamps.formatDays((Integer) v));
            case TIMESTAMP -> g.writeString(Timestamps.formatMicros((Long) v));
            case TIMESTAMP_NTZ -> g.writeString(Timestamps.formatMicrosNtz((Long) v));
            case BINARY -> g.writeString(Base64.getEncoder().encodeToString((byte[]) v));
            case STRUCT, ARRAY, MAP -> RowJson.writeValue(g, f.type(), v);
            default -> g.writeString(String.valueOf(v));
        }
    }
}
