package io.tributary.topology.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.tributary.schema.Timestamps;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;

/** The JSON the topology writes besides result rows: forwarded markers, late rows. */
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
    static byte[] lateRow(String rowJson, long start, long end, long eventTimeMicros, long watermarkMs,
                          String topic, int partition, long offset) {
        return write(g -> {
            g.writeStartObject();
            g.writeFieldName("row");
            g.writeRawValue(rowJson);
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
}
