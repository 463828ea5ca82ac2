package io.tributary.expressions.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.tributary.schema.DataType;
import io.tributary.schema.Schema;
import java.io.IOException;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A value as Spark's {@code to_json} writes it (its JacksonGenerator with the default options): a struct's null fields
 * left out, nulls kept in arrays and maps, timestamps as {@code yyyy-MM-dd'T'HH:mm:ss.SSSXXX} in the session time zone
 * (UTC), dates as {@code yyyy-MM-dd}, NaN and infinities as Jackson writes them.
 */
final class JsonWriter {
    private static final JsonFactory JSON = new JsonFactory();
    private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSXXX", Locale.US);

    private JsonWriter() {
    }

    static String write(DataType type, Object value) throws IOException {
        StringWriter out = new StringWriter();
        try (JsonGenerator g = JSON.createGenerator(out)) {
            value(g, type, value);
        }
        return out.toString();
    }

    private static void value(JsonGenerator g, DataType type, Object v) throws IOException {
        if (v == null) {
            g.writeNull();
            return;
        }
        if (Variants.isVariant(type)) {
            g.writeRawValue(Variants.json(v));
            return;
        }
        if (CalendarIntervals.isCalendar(type)) {
            g.writeString(v.toString());
            return;
        }
        if (Times.isTime(type)) {
            g.writeString(Times.format((Long) v));
            return;
        }
        switch (type.kind()) {
            case BYTE, SHORT, INT -> g.writeNumber(((Number) v).intValue());
            case LONG -> g.writeNumber((Long) v);
            case FLOAT -> g.writeNumber((Float) v);
            case DOUBLE -> g.writeNumber((Double) v);
            case DECIMAL -> g.writeNumber((BigDecimal) v);
            case STRING -> g.writeString((String) v);
            case BOOLEAN -> g.writeBoolean((Boolean) v);
            case DATE -> g.writeString(Dates.format((Integer) v));
            case TIMESTAMP -> g.writeString(TIMESTAMP.format(Dates.instant((Long) v).atZone(java.time.ZoneOffset.UTC)));
            case TIMESTAMP_NTZ -> g.writeString(Dates.dateTime((Long) v).format(DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS", Locale.US)));
            case BINARY -> g.writeString(Base64.getEncoder().encodeToString((byte[]) v));
            case STRUCT -> {
                Schema fields = type.struct();
                Object[] row = (Object[]) v;
                g.writeStartObject();
                for (int i = 0; i < row.length; i++) {
                    if (row[i] != null) {
                        g.writeFieldName(fields.field(i).name());
                        value(g, fields.field(i).type(), row[i]);
                    }
                }
                g.writeEndObject();
            }
            case ARRAY -> {
                g.writeStartArray();
                for (Object e : (List<?>) v) {
                    value(g, type.element(), e);
                }
                g.writeEndArray();
            }
            case MAP -> {
                g.writeStartObject();
                for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
                    g.writeFieldName(Casts.toText(e.getKey(), type.keyType()));
                    value(g, type.valueType(), e.getValue());
                }
                g.writeEndObject();
            }
        }
    }
}
