package io.tributary.schema;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Debezium's encodings of dates, timestamps and decimals, undone where the JSON converter's schema
 * wrapper names them: a DATE column whose field is {@code io.debezium.time.Date} (or Connect's
 * {@code Date}) is a number of days; a TIMESTAMP or TIMESTAMP_NTZ column whose field is
 * {@code io.debezium.time.Timestamp} (or Connect's {@code Timestamp}), {@code MicroTimestamp} or
 * {@code NanoTimestamp} a number of milli-, micro- or nanoseconds since the epoch; a DECIMAL column
 * whose field is Connect's {@code Decimal} the base64 of its unscaled value, at the scale the field's
 * parameters give. Those columns are read as the numbers or bytes they are and turned into the
 * column's value; every other column by the JSON rules (a VARIANT as the events' {@link JsonVariants} reads it). Without the wrapper (or a wrapper naming no
 * such type) nothing changes.
 */
final class DebeziumTypes {
    /** The most wrappers whose readers are kept (a stream has one per table version). */
    private static final int CACHED = 16;

    private enum Encoding { DAYS, MILLIS, MICROS, NANOS, DECIMAL }

    /** The readers of the rows of one wrapper's schema: {@code after}'s, and {@code before}'s (every column nullable). */
    record Readers(JsonRowReader after, JsonRowReader before, Encoding[] encodings, int[] scales) {
        /** The row {@code image} as read by these readers, its encoded columns decoded into {@code data}'s types. */
        Object[] decode(Object[] image, Schema data, String imageName) {
            if (encodings == null || image == null) {
                return image;
            }
            for (int i = 0; i < image.length; i++) {
                if (encodings[i] != null && image[i] != null) {
                    image[i] = decode(encodings[i], scales[i], image[i], data.field(i), imageName);
                }
            }
            return image;
        }

        private static Object decode(Encoding e, int scale, Object v, Field f, String imageName) {
            try {
                return switch (e) {
                    case DAYS -> v;
                    case MILLIS -> Math.multiplyExact((Long) v, 1000L);
                    case MICROS -> v;
                    case NANOS -> Math.floorDiv((Long) v, 1000L);
                    case DECIMAL -> {
                        BigDecimal d = new BigDecimal(new BigInteger((byte[]) v), scale).setScale(f.type().scale(), RoundingMode.HALF_UP);
                        if (d.precision() - d.scale() > f.type().precision() - f.type().scale()) {
                            throw DebeziumErrors.decodedDoesNotFit(imageName + "." + f.name(), d.toPlainString(), f.type().ddl());
                        }
                        yield d;
                    }
                };
            } catch (ArithmeticException | NumberFormatException ex) {
                throw DebeziumErrors.decodedOutOfRange(imageName + "." + f.name(), String.valueOf(v));
            }
        }
    }

    private final Schema data;
    private final TimeTexts times;
    private final JsonVariants variants;
    private final Readers plain;
    private final Map<String, Readers> cache = new LinkedHashMap<>(CACHED, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Readers> eldest) {
            return size() > CACHED;
        }
    };

    DebeziumTypes(Schema data, TimeTexts times, JsonVariants variants) {
        this.data = data;
        this.times = times;
        this.variants = variants;
        this.plain = readers(data, null, null);
    }

    /** The readers without the wrapper: every column by the JSON rules. */
    Readers plain() {
        return plain;
    }

    /** The readers of the rows under the wrapper's {@code schema}. */
    Readers of(JsonNode schema) {
        Encoding[] encodings = new Encoding[data.size()];
        int[] scales = new int[data.size()];
        boolean any = false;
        for (JsonNode envelopeField : schema.path("fields")) {
            String image = envelopeField.path("field").asText();
            if (!image.equals("after") && !image.equals("before")) {
                continue;
            }
            for (JsonNode column : envelopeField.path("fields")) {
                int i = data.fieldIndex(column.path("field").asText());
                Encoding e = i < 0 ? null : encoding(data.field(i).type(), column.path("name").asText(""));
                if (e != null) {
                    encodings[i] = e;
                    scales[i] = column.path("parameters").path("scale").asInt(0);
                    any = true;
                }
            }
        }
        if (!any) {
            return plain;
        }
        StringBuilder key = new StringBuilder();
        for (int i = 0; i < encodings.length; i++) {
            key.append(encodings[i]).append('/').append(scales[i]).append(',');
        }
        return cache.computeIfAbsent(key.toString(), k -> readers(data, encodings, scales));
    }

    private static Encoding encoding(DataType type, String name) {
        return switch (type.kind()) {
            case DATE -> name.equals("io.debezium.time.Date") || name.equals("org.apache.kafka.connect.data.Date") ? Encoding.DAYS : null;
            case TIMESTAMP, TIMESTAMP_NTZ -> switch (name) {
                case "io.debezium.time.Timestamp", "org.apache.kafka.connect.data.Timestamp" -> Encoding.MILLIS;
                case "io.debezium.time.MicroTimestamp" -> Encoding.MICROS;
                case "io.debezium.time.NanoTimestamp" -> Encoding.NANOS;
                default -> null;
            };
            case DECIMAL -> name.equals("org.apache.kafka.connect.data.Decimal") ? Encoding.DECIMAL : null;
            default -> null;
        };
    }

    private Readers readers(Schema data, Encoding[] encodings, int[] scales) {
        List<Field> read = new ArrayList<>();
        List<Field> nullable = new ArrayList<>();
        for (int i = 0; i < data.size(); i++) {
            Field f = data.field(i);
            DataType t = encodings == null || encodings[i] == null ? f.type()
                    : switch (encodings[i]) {
                        case DAYS -> DataType.INT;
                        case DECIMAL -> DataType.BINARY;
                        default -> DataType.LONG;
                    };
            read.add(new Field(f.name(), t, f.nullable()));
            nullable.add(new Field(f.name(), t, true)); // a delete's before may hold only the keys
        }
        return new Readers(new JsonRowReader(new Schema(read), times, variants), new JsonRowReader(new Schema(nullable), times, variants),
                encodings, scales);
    }
}
