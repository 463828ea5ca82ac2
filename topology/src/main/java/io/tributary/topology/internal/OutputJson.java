package io.tributary.topology.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.tributary.schema.DataType;
import io.tributary.schema.Timestamps;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/** The JSON the topology writes besides result rows: result keys, forwarded markers, late rows. */
final class OutputJson {
    private static final JsonFactory JSON = new JsonFactory();

    private OutputJson() {
    }

    private interface Body {
        void write(JsonGenerator g) throws IOException;
    }

    private static byte[] write(Body body) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(128);
        try (JsonGenerator g = JSON.createGenerator(out)) {
            body.write(g);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** A buffer for {@link #resultKey}, one per processor. */
    static JsonBuffer keyBuffer() {
        return new JsonBuffer(JSON);
    }

    /** The upsert key of a result row: {@code [windowStartMicros, group values...]}, values as RowJson writes them. */
    static byte[] resultKey(JsonBuffer buffer, long windowStart, List<DataType> groupTypes, Object[] groupValues) {
        return buffer.write(g -> {
            g.writeStartArray();
            g.writeNumber(windowStart);
            for (int i = 0; i < groupValues.length; i++) {
                value(g, groupTypes.get(i), groupValues[i]);
            }
            g.writeEndArray();
        });
    }

    /** The marker forwarded to the results topic: the batch, its watermark, the input partition and its counts. */
    static byte[] marker(Marker m, int partition, Map<String, Long> counts) {
        return write(g -> {
            g.writeStartObject();
            g.writeNumberField("batchId", m.batchId());
            if (m.watermarkMs() == null) {
                g.writeNullField("watermarkMs");
            } else {
                g.writeNumberField("watermarkMs", m.watermarkMs());
            }
            g.writeNumberField("partition", partition);
            for (Map.Entry<String, Long> e : counts.entrySet()) {
                g.writeNumberField(e.getKey(), e.getValue());
            }
            g.writeEndObject();
        });
    }

    /** A row dropped as late, with the window it missed and by how much (watermark - event time, ms). */
    static byte[] lateRow(byte[] rowJson, long start, long end, long eventTimeMicros, long watermarkMs,
                          String topic, int partition, long offset) {
        return write(g -> {
            g.writeStartObject();
            g.writeFieldName("row");
            g.writeRawValue(new String(rowJson, StandardCharsets.UTF_8));
            g.writeObjectFieldStart("window");
            g.writeStringField("start", Timestamps.formatMicros(start));
            g.writeStringField("end", Timestamps.formatMicros(end));
            g.writeEndObject();
            g.writeStringField("eventTime", Timestamps.formatMicros(eventTimeMicros));
            g.writeStringField("watermark", Timestamps.formatMicros(watermarkMs * 1000));
            g.writeNumberField("latenessMs", watermarkMs - Math.floorDiv(eventTimeMicros, 1000));
            g.writeStringField("reason", "window ended at or before the watermark");
            g.writeStringField("topic", topic);
            g.writeNumberField("partition", partition);
            g.writeNumberField("offset", offset);
            g.writeEndObject();
        });
    }

    private static void value(JsonGenerator g, DataType type, Object v) throws IOException {
        if (v == null) {
            g.writeNull();
            return;
        }
        switch (type.kind()) {
            case BYTE, SHORT, INT -> g.writeNumber(((Number) v).intValue());
            case LONG -> g.writeNumber((Long) v);
            case FLOAT, DOUBLE -> {
                double d = ((Number) v).doubleValue();
                if (Double.isNaN(d) || Double.isInfinite(d)) {
                    g.writeString(Double.isNaN(d) ? "NaN" : d > 0 ? "Infinity" : "-Infinity");
                } else {
                    g.writeNumber(d == 0.0 ? 0.0 : d);
                }
            }
            case DECIMAL -> g.writeNumber((BigDecimal) v);
            case STRING -> g.writeString((String) v);
            case BOOLEAN -> g.writeBoolean((Boolean) v);
            case DATE -> g.writeString(Timestamps.formatDays((Integer) v));
            case TIMESTAMP -> g.writeString(Timestamps.formatMicros((Long) v));
            case TIMESTAMP_NTZ -> g.writeString(Timestamps.formatMicrosNtz((Long) v));
            case BINARY -> g.writeString(Base64.getEncoder().encodeToString((byte[]) v));
            default -> throw new IllegalArgumentException("cannot write " + type.ddl() + " in a key");
        }
    }
}
