package io.tributary.expressions.internal;

import io.tributary.schema.DataType;
import io.tributary.schema.DataType.Kind;
import io.tributary.schema.Field;
import java.util.List;
import java.util.function.Predicate;

/**
 * Spark 4.2's ANSI type rules: numeric precedence, the decimal a whole number widens to, the wider
 * of two types ({@code findWiderTypeForTwo}) and the decimal results of arithmetic
 * ({@code DecimalPrecision}, with {@code allowPrecisionLoss}). A null type is the type of NULL (Spark's VOID); inside an
 * array or a map ({@code array(NULL)}: {@code ARRAY<VOID>}) it is the marker {@link #VOID}, as a table cannot hold it.
 */
public final class Types {
    static final int MAX_PRECISION = 38;
    /** VOID as an array's element or a map's value: a BINARY of precision -1, which no column has. */
    static final DataType VOID = new DataType(Kind.BINARY, -1, 0, null, null);

    private Types() {
    }

    public static String name(DataType t) {
        if (t == null || t.equals(VOID)) {
            return "VOID";
        }
        if (Variants.isVariant(t)) {
            return "VARIANT";
        }
        if (Intervals.isInterval(t)) {
            return Intervals.name(t);
        }
        if (CalendarIntervals.isCalendar(t)) {
            return "INTERVAL";
        }
        if (Times.isTime(t)) {
            return Times.name(t);
        }
        return switch (t.kind()) {
            case ARRAY -> "ARRAY<" + name(t.element()) + ">";
            case MAP -> "MAP<" + name(t.keyType()) + ", " + name(t.valueType()) + ">";
            case STRUCT -> {
                StringBuilder sb = new StringBuilder("STRUCT<");
                for (io.tributary.schema.Field f : t.struct().fields()) {
                    sb.append(sb.length() > "STRUCT<".length() ? ", " : "").append(io.tributary.schema.Schema.quote(f.name())).append(": ")
                            .append(name(f.type())).append(f.nullable() ? "" : " NOT NULL");
                }
                yield sb.append('>').toString();
            }
            default -> t.ddl();
        };
    }

    /** Whether {@code t} is VOID or holds it (an array or map of VOID, a struct with a VOID field): a table cannot hold it. */
    public static boolean holdsVoid(DataType t) {
        return holds(t, x -> x == null || x.equals(VOID));
    }

    /** Whether {@code t} is or holds a struct that names a field twice ({@code from_csv(text, 'a INT, a INT')}'s), which no table holds. */
    public static boolean holdsRepeatedNames(DataType t) {
        return holds(t, x -> x != null && x.kind() == Kind.STRUCT && x.struct() != null && x.struct().repeatsAName());
    }

    /**
     * Whether {@code t} or a type it holds at any depth (an array's element, a map's key or value, a struct's field) is one
     * {@code p} accepts; {@code p} is asked about a null type (NULL's) too.
     */
    static boolean holds(DataType t, Predicate<DataType> p) {
        if (p.test(t)) {
            return true;
        }
        if (t == null) {
            return false;
        }
        return switch (t.kind()) {
            case ARRAY -> holds(t.element(), p);
            case MAP -> holds(t.keyType(), p) || holds(t.element(), p);
            case STRUCT -> t.struct() != null && t.struct().fields().stream().anyMatch(f -> holds(f.type(), p));
            default -> false;
        };
    }

    /** {@code ARRAY<element>}, with a null element type (NULL's) as {@code ARRAY<VOID>}. */
    static DataType arrayOf(DataType element) {
        return DataType.array(element == null ? VOID : element);
    }

    /** {@code MAP<STRING, value>}, with a null value type (NULL's) as {@code MAP<STRING, VOID>}. */
    static DataType mapOf(DataType value) {
        return DataType.map(value == null ? VOID : value);
    }

    /** {@code MAP<key, value>}, with a null value type (NULL's) as VOID; a null key type as STRING. */
    static DataType mapOf(DataType key, DataType value) {
        return DataType.map(key == null ? DataType.STRING : key, value == null ? VOID : value);
    }

    /** An array's element type or a map's value type, null for VOID. */
    static DataType element(DataType nested) {
        DataType e = nested.element();
        return VOID.equals(e) ? null : e;
    }

    /**
     * Whether values of {@code from} are values of {@code to} as they are: {@code from} is {@code to} with VOID in some places
     * ({@code ARRAY<VOID>} is an {@code ARRAY<INT>} whose elements are all null), so the cast between them changes nothing.
     */
    static boolean voidFits(DataType from, DataType to) {
        if (from == null || from.equals(VOID) || from.equals(to)) {
            return true;
        }
        if (to == null || from.kind() != to.kind() || Intervals.isInterval(from) || Intervals.isInterval(to) || Times.isTime(from) || Times.isTime(to)) {
            return false;
        }
        if (from.kind() == Kind.STRUCT) { // a struct with a VOID field (struct(1, NULL)) fits one of that field's type
            List<Field> x = from.struct().fields();
            List<Field> y = to.struct().fields();
            return holdsVoid(from) && x.size() == y.size() && java.util.stream.IntStream.range(0, x.size())
                    .allMatch(i -> x.get(i).name().equalsIgnoreCase(y.get(i).name()) && voidFits(x.get(i).type(), y.get(i).type()));
        }
        return (from.kind() == Kind.ARRAY || from.kind() == Kind.MAP && voidFits(from.keyType(), to.keyType()))
                && voidFits(from.element(), to.element());
    }

    static boolean integral(DataType t) {
        return t != null && !Intervals.isInterval(t) && !Times.isTime(t) && switch (t.kind()) {
            case BYTE, SHORT, INT, LONG -> true;
            default -> false;
        };
    }

    static boolean fractional(DataType t) {
        return t != null && (t.kind() == Kind.FLOAT || t.kind() == Kind.DOUBLE);
    }

    static boolean numeric(DataType t) {
        return integral(t) || fractional(t) || isDecimal(t);
    }

    static boolean isDecimal(DataType t) {
        return t != null && t.kind() == Kind.DECIMAL;
    }

    static boolean is(DataType t, Kind k) {
        return t != null && t.kind() == k && !Intervals.isInterval(t) && !t.equals(VOID) && !Variants.isVariant(t) && !CalendarIntervals.isCalendar(t) && !Times.isTime(t);
    }

    private static int rank(DataType t) {
        return switch (t.kind()) {
            case BYTE -> 1;
            case SHORT -> 2;
            case INT -> 3;
            case LONG -> 4;
            case FLOAT -> 6;
            case DOUBLE -> 7;
            default -> 5; // DECIMAL
        };
    }

    /** Whether every value of numeric type {@code from} is one of {@code to} (Spark's ANSI implicit numeric casts). */
    static boolean widens(DataType from, DataType to) {
        if (from.equals(to) || to.kind() == Kind.DOUBLE) {
            return true;
        }
        if (to.kind() == Kind.FLOAT) {
            return !is(from, Kind.DOUBLE);
        }
        if (fractional(from)) {
            return false;
        }
        if (isDecimal(to)) {
            DataType d = decimalOf(from);
            return d.scale() <= to.scale() && d.precision() - d.scale() <= to.precision() - to.scale();
        }
        return !isDecimal(from) && rank(from) <= rank(to);
    }

    /** The decimal a whole number type widens to: TINYINT (3,0), SMALLINT (5,0), INT (10,0), BIGINT (20,0). */
    static DataType decimalOf(DataType t) {
        return switch (t.kind()) {
            case BYTE -> DataType.decimal(3, 0);
            case SHORT -> DataType.decimal(5, 0);
            case INT -> DataType.decimal(10, 0);
            case LONG -> DataType.decimal(20, 0);
            default -> t;
        };
    }

    /** The wider of two numeric types; a decimal and a whole number give a decimal holding both, a FLOAT and any other a DOUBLE. */
    static DataType widerNumeric(DataType a, DataType b) {
        if (a.equals(b)) {
            return a;
        }
        if (is(a, Kind.DOUBLE) || is(b, Kind.DOUBLE) || (fractional(a) && isDecimal(b)) || (isDecimal(a) && fractional(b))) {
            return DataType.DOUBLE;
        }
        if (fractional(a) || fractional(b)) {
            return DataType.DOUBLE; // ANSI's least common type skips FLOAT: a FLOAT meets a whole number as DOUBLE
        }
        if (isDecimal(a) || isDecimal(b)) {
            return widerDecimal(decimalOf(a), decimalOf(b));
        }
        return rank(a) >= rank(b) ? a : b;
    }

    /**
     * Spark's {@code widerDecimalType}: the scale of either and the whole digits of either, and past 38 digits
     * ({@code boundedPreferIntegralDigits}) the whole digits kept and the scale cut: DECIMAL(38,0) and DECIMAL(1,1) meet as
     * DECIMAL(38,0), DECIMAL(38,37) and INT as DECIMAL(38,28).
     */
    static DataType widerDecimal(DataType a, DataType b) {
        int scale = Math.max(a.scale(), b.scale());
        int range = Math.max(a.precision() - a.scale(), b.precision() - b.scale());
        if (range + scale <= MAX_PRECISION) {
            return DataType.decimal(range + scale, scale);
        }
        return DataType.decimal(MAX_PRECISION, Math.max(0, scale - (range + scale - MAX_PRECISION)));
    }

    /** A decimal type cut to 38 digits, as Spark's {@code DecimalType.bounded}. */
    static DataType bounded(int precision, int scale) {
        return DataType.decimal(Math.min(precision, MAX_PRECISION), Math.min(scale, MAX_PRECISION));
    }

    /** Spark's {@code adjustPrecisionScale}: past 38 digits, the scale gives way down to 6 to keep the whole digits. */
    static DataType adjusted(int precision, int scale) {
        if (precision <= MAX_PRECISION) {
            return DataType.decimal(precision, scale);
        }
        int intDigits = precision - scale;
        int minScale = Math.min(scale, 6);
        return DataType.decimal(MAX_PRECISION, Math.max(MAX_PRECISION - intDigits, minScale));
    }

    /**
     * The type two values meet in (comparison, CASE, COALESCE, IN, the arithmetic operands), or null if
     * there is none: numbers widen, a string meets a whole number as BIGINT, a fraction as DOUBLE, a
     * date, timestamp or boolean as that type; a date and a timestamp as TIMESTAMP; NULL meets anything.
     */
    static DataType common(DataType a, DataType b) {
        if (a == null) {
            return b;
        }
        if (b == null || a.equals(b) || b.equals(VOID)) {
            return a;
        }
        if (a.equals(VOID)) {
            return b;
        }
        if ((voidFits(a, b) || voidFits(b, a)) && !is(a, Kind.STRUCT)) { // structs meet field by field (NestedTypes), nullability merged
            return voidFits(a, b) ? b : a;
        }
        if (a.isNested() || b.isNested()) {
            return NestedTypes.common(a, b, true);
        }
        if (CalendarIntervals.isCalendar(a) || CalendarIntervals.isCalendar(b)) {
            return null;
        }
        if (Intervals.isInterval(a) || Intervals.isInterval(b)) {
            return Intervals.common(a, b);
        }
        if (Times.isTime(a) || Times.isTime(b)) {
            return null; // a TIME meets only a TIME of its precision (equal types, above)
        }
        if (numeric(a) && numeric(b)) {
            return widerNumeric(a, b);
        }
        if (is(a, Kind.STRING)) {
            return stringWith(b);
        }
        if (is(b, Kind.STRING)) {
            return stringWith(a);
        }
        if (datetime(a) && datetime(b)) { // Spark's findWiderDateTimeType: a TIMESTAMP wins, else a TIMESTAMP_NTZ over a DATE
            return is(a, Kind.TIMESTAMP) || is(b, Kind.TIMESTAMP) ? DataType.TIMESTAMP : DataType.TIMESTAMP_NTZ;
        }
        return null;
    }

    /**
     * Spark's {@code TypeCoercion.findTightestCommonType}, by which array_contains, array_position and array_remove widen the
     * array or the value: one type; a whole number and a DECIMAL that holds it; two other numbers as the later of TINYINT,
     * SMALLINT, INT, BIGINT, FLOAT, DOUBLE; two datetimes as {@link #common}; null for any other pair.
     */
    static DataType tightest(DataType a, DataType b) {
        if (a.equals(b)) {
            return a;
        }
        if (integral(a) && isDecimal(b) || isDecimal(a) && integral(b)) {
            DataType d = isDecimal(a) ? a : b;
            DataType w = decimalOf(isDecimal(a) ? b : a);
            return d.precision() - d.scale() >= w.precision() && d.scale() >= 0 ? d : null;
        }
        if (numeric(a) && numeric(b) && !isDecimal(a) && !isDecimal(b)) {
            return rank(a) >= rank(b) ? a : b;
        }
        return datetime(a) && datetime(b) || a.isNested() && b.isNested() ? common(a, b) : null; // nested: field by field
    }

    private static boolean datetime(DataType t) {
        return is(t, Kind.DATE) || is(t, Kind.TIMESTAMP) || is(t, Kind.TIMESTAMP_NTZ);
    }

    private static DataType stringWith(DataType other) {
        if (integral(other)) {
            return DataType.LONG;
        }
        if (numeric(other)) {
            return DataType.DOUBLE;
        }
        return switch (other.kind()) {
            case DATE, TIMESTAMP, TIMESTAMP_NTZ, BOOLEAN, BINARY -> other;
            default -> null;
        };
    }
}
