package io.tributary.schema;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;

/**
 * A CSV record's values as a row, with the rules of Spark's CSV reader ({@code UnivocityParser}), shared by the CSV file
 * source and {@code from_csv}: as many values as columns, else the record is malformed; a value equal to {@code nullValue}
 * (default: empty) is null; numbers as Java reads them ({@code 1.5}, not {@code " 1"} for an integer), {@code
 * nanValue}/{@code positiveInf}/{@code negativeInf} for FLOAT and DOUBLE, {@code true}/{@code false} in any case, decimals
 * with thousands separators dropped, timestamps and dates by the reader's {@link TimeTexts}.
 */
public final class CsvValues {
    private final Schema schema;
    private final TimeTexts times;
    private final String nullValue;
    private final String nanValue;
    private final String positiveInf;
    private final String negativeInf;

    /**
     * The values of {@code schema}'s columns.
     *
     * @param option a CSV option's value by its lower-case key ({@code nullvalue}, {@code nanvalue}, {@code positiveinf},
     *     {@code negativeinf}), or null when it is not given
     */
    public CsvValues(Schema schema, TimeTexts times, java.util.function.UnaryOperator<String> option) {
        this.schema = schema;
        this.times = times;
        this.nullValue = or(option.apply("nullvalue"), "");
        this.nanValue = or(option.apply("nanvalue"), "NaN");
        this.positiveInf = or(option.apply("positiveinf"), "Inf");
        this.negativeInf = or(option.apply("negativeinf"), "-Inf");
    }

    /** One character of a CSV option: itself, or {@code \t}, {@code \u0000}-style escapes as Spark reads them; null if not one. */
    public static Character optionChar(String v) {
        if (v.length() == 1) {
            return v.charAt(0);
        }
        if (v.equals("\\t")) {
            return '\t';
        }
        if (v.equals("\\u0000") || v.isEmpty()) {
            return '\u0000';
        }
        if (v.length() == 2 && v.charAt(0) == '\\') {
            return v.charAt(1);
        }
        return null;
    }

    private static String or(String value, String otherwise) {
        return value == null ? otherwise : value;
    }

    /**
     * How a VARIANT column's values read from CSV text: made by the reader of one file, which may type each value by the
     * values before it, as Spark's CSV reader does (the expressions module's {@code CsvInputVariants}).
     */
    public interface Variants {
        /** Column {@code column}'s variant of {@code text}; null text is the {@code nullValue} (or no value): a variant null. */
        VariantValue value(int column, String text);
    }

    /** The row of {@code tokens}, one per column. @throws BadRecordException naming the column that does not read */
    public Object[] row(String[] tokens) {
        return row(tokens, null);
    }

    /** As {@link #row(String[])}, the VARIANT columns' values made by {@code variants} (null when the schema has none). */
    public Object[] row(String[] tokens, Variants variants) {
        if (tokens.length != schema.size()) {
            throw CsvErrors.wrongFieldCount(tokens.length, schema.size(), schema.toDdl());
        }
        Object[] row = new Object[tokens.length];
        for (int i = 0; i < tokens.length; i++) {
            if (schema.field(i).type().isVariant()) {
                String t = tokens[i];
                row[i] = java.util.Objects.requireNonNull(variants, "variants").value(i, t == null || t.equals(nullValue) ? null : t);
            } else {
                row[i] = value(i, tokens[i]);
            }
        }
        return row;
    }

    /** Column {@code i}'s value of the text {@code t} (null for no value). @throws BadRecordException naming the column */
    public Object value(int i, String t) {
        Field f = schema.field(i);
        if (t == null || t.equals(nullValue)) {
            if (!f.nullable()) {
                throw CsvErrors.nullInNotNull(f.name());
            }
            return null;
        }
        return value(f, t);
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
                        throw CsvErrors.doesNotFit(f.name(), t, type.ddl());
                    }
                    return d;
                case DATE: {
                    Integer days = times.days(t);
                    if (days != null) {
                        return days;
                    }
                    throw CsvErrors.notADate(f.name(), t, times.expectedDate());
                }
                case TIMESTAMP:
                case TIMESTAMP_NTZ: {
                    boolean withZone = type.kind() == DataType.Kind.TIMESTAMP;
                    Long micros = times.micros(t, withZone);
                    if (micros != null) {
                        return micros;
                    }
                    throw CsvErrors.notATimestamp(f.name(), t, times.expectedTimestamp(withZone));
                }
                case BINARY:
                    return t.getBytes(StandardCharsets.UTF_8);
                default:
                    break;
            }
        } catch (NumberFormatException e) {
            // the message below
        }
        throw CsvErrors.wrongType(f.name(), type.ddl(), t);
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
