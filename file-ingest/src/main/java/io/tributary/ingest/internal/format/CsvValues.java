package io.tributary.ingest.internal.format;

import io.tributary.ingest.FileFormat;
import io.tributary.schema.DataType;
import io.tributary.schema.Field;
import io.tributary.schema.Schema;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;

/**
 * A CSV record's values as a row, with the rules of Spark's CSV reader ({@code UnivocityParser}):
 * as many values as columns, else the record is malformed; a value equal to {@code nullValue}
 * (default: empty) is null; numbers as Java reads them ({@code 1.5}, not {@code " 1"} for an
 * integer), {@code nanValue}/{@code positiveInf}/{@code negativeInf} for FLOAT and DOUBLE,
 * {@code true}/{@code false} in any case, decimals with thousands separators dropped, timestamps
 * and dates by {@link TimeFormats}.
 */
final class CsvValues {
    private final Schema schema;
    private final TimeFormats times;
    private final String nullValue;
    private final String nanValue;
    private final String positiveInf;
    private final String negativeInf;

    CsvValues(Schema schema, FileFormat format, TimeFormats times) {
        this.schema = schema;
        this.times = times;
        this.nullValue = format.option("nullvalue", "");
        this.nanValue = format.option("nanvalue", "NaN");
        this.positiveInf = format.option("positiveinf", "Inf");
        this.negativeInf = format.option("negativeinf", "-Inf");
    }

    Object[] row(String[] tokens) {
        if (tokens.length != schema.size()) {
            throw FormatErrors.wrongFieldCount(tokens.length, schema.size(), schema.toDdl());
        }
        Object[] row = new Object[tokens.length];
        for (int i = 0; i < tokens.length; i++) {
            Field f = schema.field(i);
            String t = tokens[i];
            if (t == null || t.equals(nullValue)) {
                if (!f.nullable()) {
                    throw FormatErrors.nullInNotNull(f.name());
                }
                continue;
            }
            row[i] = value(f, t);
        }
        return row;
    }

    private Object value(Field f, String t) {
        DataType type = f.type();
        try {
            switch (type.kind()) {
                case STRING:
                    return t;
                case BYTE:
                    return Byte.parseByte(t);
                case SHORT:
                    return Short.parseShort(t);
                case INT:
                    return Integer.parseInt(t);
                case LONG:
                    return Long.parseLong(t);
                case FLOAT: {
                    Double special = special(t);
                    return special != null ? (Object) special.floatValue() : (Object) Float.parseFloat(t);
                }
                case DOUBLE: {
                    Double special = special(t);
                    return special != null ? special : Double.parseDouble(t);
                }
                case BOOLEAN:
                    if (t.equalsIgnoreCase("true") || t.equalsIgnoreCase("false")) {
                        return t.equalsIgnoreCase("true");
                    }
                    break;
                case DECIMAL:
                    BigDecimal d = new BigDecimal(t.replace(",", "")).setScale(type.scale(), RoundingMode.HALF_UP);
                    if (d.precision() - d.scale() > type.precision() - type.scale()) {
                        throw FormatErrors.doesNotFit(f.name(), t, type.ddl());
                    }
                    return d;
                case DATE: {
                    Integer days = times.days(t);
                    if (days != null) {
                        return days;
                    }
                    throw FormatErrors.notADate(f.name(), t, times.expectedDate());
                }
                case TIMESTAMP:
                case TIMESTAMP_NTZ: {
                    boolean withZone = type.kind() == DataType.Kind.TIMESTAMP;
                    Long micros = times.micros(t, withZone);
                    if (micros != null) {
                        return micros;
                    }
                    throw FormatErrors.notATimestamp(f.name(), t, times.expectedTimestamp(withZone));
                }
                case BINARY:
                    return t.getBytes(StandardCharsets.UTF_8);
                default:
                    break;
            }
        } catch (NumberFormatException e) {
            // the message below
        }
        throw FormatErrors.wrongType(f.name(), type.ddl(), t);
    }

    /** NaN or an infinity when {@code t} is the option's text for it, else null. */
    private Double special(String t) {
        if (t.equals(nanValue)) {
            return Double.NaN;
        }
        if (t.equals(positiveInf)) {
            return Double.POSITIVE_INFINITY;
        }
        if (t.equals(negativeInf)) {
            return Double.NEGATIVE_INFINITY;
        }
        return null;
    }
}
