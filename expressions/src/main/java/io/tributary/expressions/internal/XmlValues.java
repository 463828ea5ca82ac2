package io.tributary.expressions.internal;

import io.tributary.schema.DataType;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.text.ParsePosition;
import java.util.Locale;

/**
 * An XML text value as Spark's XML reader converts it ({@code StaxXmlParser.convertTo}): spaces around it trimmed (unless
 * {@code ignoreSurroundingSpaces} is false), the {@code nullValue} text null, numbers by Java's parsers (a leading {@code +}
 * allowed), booleans {@code true}, {@code false}, {@code 1}, {@code 0} in any case, decimals rounded half up to the scale,
 * dates and timestamps by the options' patterns or Spark's default forms. A text that does not convert throws {@link
 * Bad}, which fails the field.
 */
final class XmlValues {
    /** A value that does not convert to its type: the field is null (PERMISSIVE) or the row fails (FAILFAST). */
    static final class Bad extends RuntimeException {
        final String condition;

        Bad(String condition, String message) {
            super(message, null, false, false);
            this.condition = condition;
        }
    }

    private final XmlOptions options;
    private final XmlVariants variants;

    XmlValues(XmlOptions options) {
        this.options = options;
        this.variants = new XmlVariants(options);
    }

    /** The value of {@code text} as {@code type}: null for the nullValue text. */
    Object convert(String text, DataType type) {
        String value = text != null && options.ignoreSurroundingSpaces() ? text.strip() : text;
        if (value == null || value.equals(options.nullValue())) {
            return null;
        }
        try {
            return switch (type.kind()) {
                case STRING -> value;
                case BYTE -> Byte.parseByte(value);
                case SHORT -> Short.parseShort(value);
                case INT -> value.startsWith("-") ? -Integer.parseInt(value.substring(1)) : Integer.parseInt(unsigned(value));
                case LONG -> value.startsWith("-") ? -Long.parseLong(value.substring(1)) : Long.parseLong(unsigned(value));
                case FLOAT -> Float.parseFloat(value);
                case DOUBLE -> Double.parseDouble(value);
                case BOOLEAN -> bool(value);
                case DECIMAL -> decimal(value, type, options.locale());
                case DATE -> time(options.times().days(value), value, type);
                case TIMESTAMP -> time(options.times().micros(value, true), value, type);
                case TIMESTAMP_NTZ -> time(options.times().micros(value, false), value, type);
                case BINARY -> {
                    if (!type.isVariant()) {
                        throw new Bad("MALFORMED_RECORD_IN_PARSING.WITHOUT_SUGGESTION", "from_xml does not read " + Types.name(type));
                    }
                    yield variants.value(value);
                }
                default -> throw new Bad("MALFORMED_RECORD_IN_PARSING.WITHOUT_SUGGESTION", "from_xml does not read " + Types.name(type));
            };
        } catch (NumberFormatException | ArithmeticException e) {
            throw new Bad("MALFORMED_RECORD_IN_PARSING.WITHOUT_SUGGESTION", "'" + value + "' is not a " + Types.name(type));
        }
    }

    /**
     * The text after a leading {@code +}: Spark reads a sign and the digits apart, and negates what the digits give, so the
     * smallest INT and BIGINT do not read.
     */
    private static String unsigned(String value) {
        return value.startsWith("+") ? value.substring(1) : value;
    }

    private static Boolean bool(String value) {
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "true", "1" -> Boolean.TRUE;
            case "false", "0" -> Boolean.FALSE;
            default -> throw new Bad("_LEGACY_ERROR_TEMP_3245", "'" + value + "' is not a BOOLEAN"); // Spark's class for it
        };
    }

    private static BigDecimal decimal(String value, DataType type, Locale locale) {
        BigDecimal d = parseDecimal(value, locale).setScale(type.scale(), RoundingMode.HALF_UP);
        if (d.precision() > type.precision()) {
            throw new Bad("MALFORMED_RECORD_IN_PARSING.WITHOUT_SUGGESTION", "'" + value + "' does not fit " + Types.name(type));
        }
        return d;
    }

    /**
     * A decimal text as Spark's {@code ExprUtils.getDecimalParser} reads it: in {@code en-US} Java's form with commas dropped
     * ({@code 1,234.5}), in another locale by its separators ({@code 1.234,5} in {@code de-DE}), the whole text or
     * CANNOT_PARSE_DECIMAL.
     */
    static BigDecimal parseDecimal(String value, Locale locale) {
        if (locale.equals(Locale.US)) {
            return new BigDecimal(value.replace(",", ""));
        }
        DecimalFormat format = new DecimalFormat("", new DecimalFormatSymbols(locale));
        format.setParseBigDecimal(true);
        ParsePosition at = new ParsePosition(0);
        Number n = format.parse(value, at);
        if (n == null || at.getIndex() != value.length() || at.getErrorIndex() != -1) {
            throw new Bad("CANNOT_PARSE_DECIMAL", "'" + value + "' is not a decimal number in the locale " + locale.toLanguageTag());
        }
        return (BigDecimal) n;
    }

    private Object time(Object parsed, String value, DataType type) {
        if (parsed == null) {
            boolean defaultForm = switch (type.kind()) {
                case DATE -> false; // read by a pattern, yyyy-MM-dd by default
                case TIMESTAMP -> options.get("timestampformat") == null;
                default -> options.get("timestampntzformat") == null;
            };
            throw new Bad(defaultForm ? "CAST_INVALID_INPUT" : "MALFORMED_RECORD_IN_PARSING.WITHOUT_SUGGESTION", "'" + value + "' is not a "
                    + Types.name(type));
        }
        return parsed;
    }
}
