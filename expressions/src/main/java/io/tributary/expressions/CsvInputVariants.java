package io.tributary.expressions;

import io.tributary.schema.CsvValues;
import io.tributary.schema.TimeTexts;
import io.tributary.schema.VariantValue;
import io.tributary.schema.BadRecordException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Locale;
import org.apache.spark.types.variant.Variant;
import org.apache.spark.types.variant.VariantBuilder;

/**
 * Spark 4.2's CSV reader's VARIANT ({@code UnivocityParser.VariantValueConverter}), for the values of one file: each
 * VARIANT column tries its text as BIGINT, DECIMAL (thousands separators dropped; at most 38 digits), DATE (strictly by the
 * {@code dateFormat}, {@code yyyy-MM-dd} by default), TIMESTAMP, BOOLEAN ({@code true}, {@code false} in any case) and
 * STRING, in that order, from the type its last value took: a column never goes back to an earlier type within the file
 * ({@code 42} after {@code true} is the STRING {@code "42"}). No value (the {@code nullValue}) is a variant null. One
 * instance reads one file.
 */
public final class CsvInputVariants implements CsvValues.Variants {
    /** The types a value is tried as, in Spark's order. */
    private enum Step { LONG, DECIMAL, DATE, TIMESTAMP, BOOLEAN, STRING }

    private static final int MAX_DIGITS = 38;
    private Step[] steps;
    private final TimeTexts dates;
    private final TimeTexts timestamps;

    /**
     * @param columns the schema's column count
     * @param dates reads a DATE strictly by the file's {@code dateFormat} ({@code yyyy-MM-dd} when it has none)
     * @param timestamps reads a TIMESTAMP as the file's other TIMESTAMP values read
     */
    public CsvInputVariants(int columns, TimeTexts dates, TimeTexts timestamps) {
        this.steps = new Step[columns];
        Arrays.fill(steps, Step.LONG);
        this.dates = dates;
        this.timestamps = timestamps;
    }

    @Override
    public VariantValue value(int column, String text) {
        VariantBuilder b = new VariantBuilder(false);
        if (text == null) {
            b.appendNull();
        } else {
            steps[column] = append(b, text, steps[column]);
        }
        Variant v = b.result();
        return new VariantValue(v.getValue(), v.getMetadata());
    }

    /**
     * Spark 4.2's CSV {@code singleVariantColumn} ({@code UnivocityParser.convertToVariant}): the record whole as one variant
     * object whose keys are {@code names} (the header's, or {@code _c0}, {@code _c1} ...), each value typed as a VARIANT
     * column's is; a record with fewer values has fewer keys, one with more leaves the rest out. A value that is
     * {@code nullValue} (or none) is a variant null.
     *
     * @throws BadRecordException when the header names a key twice ({@code VARIANT_DUPLICATE_KEY})
     */
    public VariantValue record(String[] names, String[] tokens, String nullValue) {
        if (steps.length < names.length) {
            int had = steps.length;
            steps = Arrays.copyOf(steps, names.length);
            Arrays.fill(steps, had, names.length, Step.LONG);
        }
        VariantBuilder b = new VariantBuilder(false);
        int start = b.getWritePos();
        ArrayList<VariantBuilder.FieldEntry> fields = new ArrayList<>();
        for (int i = 0; i < Math.min(names.length, tokens.length); i++) {
            fields.add(new VariantBuilder.FieldEntry(names[i], b.addKey(names[i]), b.getWritePos() - start));
            String text = tokens[i];
            if (text == null || text.equals(nullValue)) {
                b.appendNull();
            } else {
                steps[i] = append(b, text, steps[i]);
            }
        }
        try {
            b.finishWritingObject(start, fields);
        } catch (RuntimeException e) { // spark-variant's duplicate key is a Spark class
            throw ExpressionErrors.variantNotBuilt("header", String.valueOf(e.getMessage()));
        }
        Variant v = b.result();
        return new VariantValue(v.getValue(), v.getMetadata());
    }

    /** Appends {@code s} as the first type from {@code from} on that reads it; that type. */
    @SuppressWarnings("fallthrough")
    private Step append(VariantBuilder b, String s, Step from) {
        switch (from) {
            case LONG:
                try {
                    b.appendLong(Long.parseLong(s));
                    return Step.LONG;
                } catch (NumberFormatException e) {
                    // next
                }
            case DECIMAL:
                BigDecimal d = decimal(s);
                if (d != null) {
                    b.appendDecimal(d);
                    return Step.DECIMAL;
                }
            case DATE:
                Integer days = dates.days(s);
                if (days != null) {
                    b.appendDate(days);
                    return Step.DATE;
                }
            case TIMESTAMP:
                Long micros = timestamps.micros(s, true);
                if (micros != null) {
                    b.appendTimestamp(micros);
                    return Step.TIMESTAMP;
                }
            case BOOLEAN:
                String lower = s.toLowerCase(Locale.ROOT);
                if (lower.equals("true") || lower.equals("false")) {
                    b.appendBoolean(lower.equals("true"));
                    return Step.BOOLEAN;
                }
            default:
                b.appendString(s);
                return Step.STRING;
        }
    }

    /** The decimal Spark's reader takes ({@code new BigDecimal} of the text without commas, a negative scale made 0), or null. */
    private static BigDecimal decimal(String s) {
        BigDecimal d;
        try {
            d = new BigDecimal(s.replace(",", ""));
        } catch (NumberFormatException e) {
            return null;
        }
        if (d.scale() < -MAX_DIGITS) {
            return null;
        }
        if (d.scale() < 0) {
            d = d.setScale(0);
        }
        return d.scale() <= MAX_DIGITS && d.precision() <= MAX_DIGITS ? d : null;
    }
}
