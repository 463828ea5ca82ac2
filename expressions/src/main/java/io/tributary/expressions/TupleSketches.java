package io.tributary.expressions;

import io.tributary.schema.DataType;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import org.apache.datasketches.common.Family;
import org.apache.datasketches.memory.Memory;
import org.apache.datasketches.tuple.AnotB;
import org.apache.datasketches.tuple.Intersection;
import org.apache.datasketches.tuple.Sketch;
import org.apache.datasketches.tuple.Sketches;
import org.apache.datasketches.tuple.Summary;
import org.apache.datasketches.tuple.SummarySetOperations;
import org.apache.datasketches.tuple.TupleSketchIterator;
import org.apache.datasketches.tuple.Union;
import org.apache.datasketches.tuple.UpdatableSketch;
import org.apache.datasketches.tuple.UpdatableSketchBuilder;
import org.apache.datasketches.tuple.adouble.DoubleSummary;
import org.apache.datasketches.tuple.adouble.DoubleSummaryDeserializer;
import org.apache.datasketches.tuple.adouble.DoubleSummaryFactory;
import org.apache.datasketches.tuple.adouble.DoubleSummarySetOperations;
import org.apache.datasketches.tuple.aninteger.IntegerSummary;
import org.apache.datasketches.tuple.aninteger.IntegerSummaryDeserializer;
import org.apache.datasketches.tuple.aninteger.IntegerSummaryFactory;
import org.apache.datasketches.tuple.aninteger.IntegerSummarySetOperations;

/**
 * Spark's tuple sketches (Apache DataSketches' tuple package, in the version Spark 4.2 ships: a Theta sketch whose entries each
 * carry a DOUBLE or an INT summary), the one place that reaches the library for them: the buffers of {@code tuple_sketch_agg_*},
 * {@code tuple_union_agg_*} and {@code tuple_intersection_agg_*}, fed and merged as Spark's TupleSketchAgg*, TupleUnionAgg* and
 * TupleIntersectionAgg* feed and merge them, and the scalars ({@code tuple_sketch_estimate_*}, {@code tuple_sketch_summary_*},
 * {@code tuple_sketch_theta_*}, {@code tuple_union_*}, {@code tuple_intersection_*}, {@code tuple_difference_*} and their
 * {@code _theta_} forms). A sketch leaves as Spark writes it, compact ({@code toByteArray()}). Bytes that are no tuple sketch fail
 * with Spark's error class.
 */
public final class TupleSketches {
    /** Spark's default lgNomEntries (its bounds are the Theta sketches', 4 to 26). */
    public static final int DEFAULT_LG_NOM = 12;

    /** The two kinds of summary, named as the functions' suffixes. */
    public enum Kind {
        DOUBLE, INTEGER;

        /** The suffix of the functions over this kind: {@code double}, {@code integer}. */
        public String suffix() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** How summaries of one key combine: Spark's modes, {@code sum} by default. */
    public enum Mode {
        SUM, MIN, MAX, ALWAYSONE;

        /** The mode as Spark writes it. */
        public String text() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** Spark's TupleSummaryMode.fromString: any case; else TUPLE_INVALID_SKETCH_MODE. */
        public static Mode parse(String text, String function) {
            for (Mode m : values()) {
                if (m.text().equals(text.toLowerCase(Locale.ROOT))) {
                    return m;
                }
            }
            throw ExpressionErrors.tupleInvalidMode(function, text);
        }

        DoubleSummary.Mode forDouble() {
            return DoubleSummary.Mode.values()[ordinal()];
        }

        IntegerSummary.Mode forInteger() {
            return IntegerSummary.Mode.values()[ordinal()];
        }
    }

    private TupleSketches() {
    }

    /**
     * The type tuple_sketch_agg reads a key of {@code type} as, after the cast Spark's analyzer adds (AnsiTypeCoercion picks the
     * first of the key types, ARRAY&lt;INT&gt;, ARRAY&lt;BIGINT&gt;, BINARY, DOUBLE, FLOAT, INT, BIGINT, STRING, the value can be
     * cast to implicitly): the type itself for those; DOUBLE for TINYINT, SMALLINT and DECIMAL; STRING for DATE, TIMESTAMP,
     * TIMESTAMP_NTZ and BOOLEAN; ARRAY&lt;INT&gt; for an array of other numbers. Null where Spark refuses the key (a struct, a map,
     * an array of text ...).
     */
    public static DataType keyType(DataType type) {
        return switch (type.kind()) {
            case INT, LONG, FLOAT, DOUBLE, STRING, BINARY -> type;
            case BYTE, SHORT, DECIMAL -> DataType.DOUBLE;
            case DATE, TIMESTAMP, TIMESTAMP_NTZ, BOOLEAN -> DataType.STRING;
            case ARRAY -> type.element() == null ? null : switch (type.element().kind()) {
                case INT, LONG -> type;
                case BYTE, SHORT, FLOAT, DOUBLE, DECIMAL -> DataType.array(DataType.INT);
                default -> null;
            };
            default -> null;
        };
    }

    /**
     * The type tuple_sketch_agg of {@code kind} reads a summary of {@code type} as, after Spark's implicit cast: DOUBLE (FLOAT
     * kept) for a number or text for {@code _double}; INT for a number or text for {@code _integer}. Null where Spark refuses it.
     */
    public static DataType summaryType(Kind kind, DataType type) {
        return switch (type.kind()) {
            case FLOAT -> kind == Kind.DOUBLE ? type : DataType.INT;
            case BYTE, SHORT, INT, LONG, DOUBLE, DECIMAL, STRING -> kind == Kind.DOUBLE ? DataType.DOUBLE : DataType.INT;
            default -> null;
        };
    }

    /** An empty update sketch of {@code lgNom} whose summaries combine by {@code mode}, as tuple_sketch_agg's buffer starts. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public static UpdatableSketch<Object, ?> newSketch(Kind kind, int lgNom, Mode mode) {
        UpdatableSketchBuilder builder = kind == Kind.DOUBLE ? new UpdatableSketchBuilder<>(new DoubleSummaryFactory(mode.forDouble()))
                : new UpdatableSketchBuilder<>(new IntegerSummaryFactory(mode.forInteger()));
        return (UpdatableSketch<Object, ?>) builder.setNominalEntries(1 << lgNom).build();
    }

    /**
     * The key {@code value} of {@code type} as the sketch hashes it, as TupleSketchAgg.update passes it: an integer as a long, a
     * FLOAT or a number Spark casts as a double, text as its UTF-8 bytes (null for empty text, which Spark skips), an array as an
     * int[] or long[] (a null element as 0).
     */
    public static Object key(Object value, DataType type) {
        return switch (type.kind()) {
            case INT, LONG -> ((Number) value).longValue();
            case BYTE, SHORT, FLOAT, DOUBLE, DECIMAL -> ((Number) value).doubleValue();
            case STRING -> ((String) value).isEmpty() ? null : ((String) value).getBytes(StandardCharsets.UTF_8);
            case BINARY -> value;
            case ARRAY -> {
                List<?> list = (List<?>) value;
                if (type.element().kind() == DataType.Kind.INT) {
                    int[] a = new int[list.size()];
                    for (int i = 0; i < a.length; i++) {
                        a[i] = list.get(i) == null ? 0 : ((Number) list.get(i)).intValue();
                    }
                    yield a;
                }
                long[] a = new long[list.size()];
                for (int i = 0; i < a.length; i++) {
                    a[i] = list.get(i) == null ? 0L : ((Number) list.get(i)).longValue();
                }
                yield a;
            }
            default -> throw new IllegalArgumentException("a tuple sketch's key of " + type.ddl());
        };
    }

    /** A summary as the sketch of {@code kind} takes it: a Double, an Integer. */
    public static Object summary(Kind kind, Object value) {
        return kind == Kind.DOUBLE ? (Object) ((Number) value).doubleValue() : (Object) ((Number) value).intValue();
    }

    /** {@code sketch} fed one key (of {@link #key}; null skipped) with its summary (of {@link #summary}). In place. */
    public static void update(UpdatableSketch<Object, ?> sketch, Object key, Object summary) {
        if (key instanceof Long l) {
            sketch.update(l.longValue(), summary);
        } else if (key instanceof Double d) {
            sketch.update(d.doubleValue(), summary);
        } else if (key instanceof byte[] b) {
            sketch.update(b, summary);
        } else if (key instanceof int[] a) {
            sketch.update(a, summary);
        } else if (key instanceof long[] a) {
            sketch.update(a, summary);
        }
    }

    /** The compact form of an empty update sketch, as Spark's merge into a fresh tuple_sketch_agg buffer unions it first. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public static Sketch<Summary> emptyCompact(Kind kind, int lgNom, Mode mode) {
        return (Sketch) ((UpdatableSketch) newSketch(kind, lgNom, mode)).compact();
    }

    /** The bytes Spark writes of a sketch (an update sketch compacted first). */
    public static byte[] bytes(Sketch<?> sketch) {
        return sketch instanceof UpdatableSketch<?, ?> u ? u.compact().toByteArray() : sketch.toByteArray();
    }

    /** Spark's set operations of a kind and mode: the union's and intersection's way to combine two summaries of one key. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static SummarySetOperations<Summary> operations(Kind kind, Mode mode) {
        return kind == Kind.DOUBLE ? (SummarySetOperations) new DoubleSummarySetOperations(mode.forDouble())
                : (SummarySetOperations) new IntegerSummarySetOperations(mode.forInteger(), mode.forInteger());
    }

    /** An empty union of {@code lgNom} and {@code mode}. */
    public static Union<Summary> newUnion(Kind kind, int lgNom, Mode mode) {
        return new Union<>(1 << lgNom, operations(kind, mode));
    }

    /** An empty intersection of {@code mode}. */
    public static Intersection<Summary> newIntersection(Kind kind, Mode mode) {
        return new Intersection<>(operations(kind, mode));
    }

    /**
     * Spark's TupleSketchUtils.heapifySketch: the tuple sketch of {@code kind} in {@code bytes}; TUPLE_INVALID_INPUT_SKETCH_BUFFER for
     * bytes that are none, TUPLE_INVALID_INPUT_SKETCH_BUFFER_FAMILY for a sketch of another family.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public static Sketch<Summary> heapify(Kind kind, byte[] bytes, String function) {
        Memory memory = Memory.wrap(bytes);
        Family family;
        try {
            family = Family.idToFamily(memory.getByte(2) & 0xFF);
        } catch (Exception e) {
            throw ExpressionErrors.tupleInvalidBuffer(function);
        }
        if (family != Family.TUPLE) {
            throw ExpressionErrors.tupleInvalidFamily(function, family.toString());
        }
        try {
            org.apache.datasketches.tuple.SummaryDeserializer deserializer = kind == Kind.DOUBLE ? new DoubleSummaryDeserializer()
                    : new IntegerSummaryDeserializer();
            return (Sketch) Sketches.heapifySketch(memory, deserializer);
        } catch (RuntimeException | Error e) {
            throw ExpressionErrors.tupleInvalidBuffer(function);
        }
    }

    private static String fn(String name, Kind kind) {
        return name + "_" + kind.suffix();
    }

    /** Spark's tuple_sketch_estimate_*: the estimated number of distinct keys. */
    public static double estimate(Kind kind, byte[] sketch) {
        return heapify(kind, sketch, fn("tuple_sketch_estimate", kind)).getEstimate();
    }

    /** Spark's tuple_sketch_theta_*: the sketch's sampling rate, 0 to 1. */
    public static double theta(Kind kind, byte[] sketch) {
        return heapify(kind, sketch, fn("tuple_sketch_theta", kind)).getTheta();
    }

    /**
     * Spark's tuple_sketch_summary_*: the kept entries' summaries combined by {@code mode} in the sketch's order (sum, least, greatest;
     * alwaysone counts them), 0 for none; a Double of a DOUBLE sketch, a Long of an INTEGER one.
     */
    public static Object summaries(Kind kind, byte[] sketch, Mode mode) {
        TupleSketchIterator<Summary> it = heapify(kind, sketch, fn("tuple_sketch_summary", kind)).iterator();
        if (kind == Kind.DOUBLE) {
            double acc = 0;
            boolean any = false;
            while (it.next()) {
                double v = ((DoubleSummary) it.getSummary()).getValue();
                acc = switch (mode) {
                    case SUM -> acc + v;
                    case MIN -> any ? Math.min(acc, v) : v;
                    case MAX -> any ? Math.max(acc, v) : v;
                    case ALWAYSONE -> acc + 1;
                };
                any = true;
            }
            return acc;
        }
        long acc = 0;
        boolean any = false;
        while (it.next()) {
            long v = ((IntegerSummary) it.getSummary()).getValue();
            acc = switch (mode) {
                case SUM -> acc + v;
                case MIN -> any ? Math.min(acc, v) : v;
                case MAX -> any ? Math.max(acc, v) : v;
                case ALWAYSONE -> acc + 1;
            };
            any = true;
        }
        return acc;
    }

    /** The default summary Spark gives a Theta sketch's entries in a set operation with a tuple sketch: the mode's empty summary. */
    private static Summary thetaSummary(Kind kind, Mode mode) {
        return kind == Kind.DOUBLE ? new DoubleSummary(mode.forDouble()) : new IntegerSummary(mode.forInteger());
    }

    /** Spark's tuple_union_* ({@code theta}: tuple_union_theta_*, {@code b} a Theta sketch). */
    public static byte[] union(Kind kind, byte[] a, byte[] b, int lgNom, Mode mode, boolean theta) {
        String function = fn(theta ? "tuple_union_theta" : "tuple_union", kind);
        Union<Summary> union = newUnion(kind, lgNom, mode);
        Sketch<Summary> left = heapify(kind, a, function);
        if (theta) {
            org.apache.datasketches.theta.Sketch right = ThetaSketches.wrap(b, function);
            union.union(left);
            union.union(right, thetaSummary(kind, mode));
        } else {
            Sketch<Summary> right = heapify(kind, b, function);
            union.union(left);
            union.union(right);
        }
        return union.getResult().toByteArray();
    }

    /** Spark's tuple_intersection_* ({@code theta}: tuple_intersection_theta_*, {@code b} a Theta sketch). */
    public static byte[] intersection(Kind kind, byte[] a, byte[] b, Mode mode, boolean theta) {
        String function = fn(theta ? "tuple_intersection_theta" : "tuple_intersection", kind);
        Intersection<Summary> intersection = newIntersection(kind, mode);
        Sketch<Summary> left = heapify(kind, a, function);
        if (theta) {
            org.apache.datasketches.theta.Sketch right = ThetaSketches.wrap(b, function);
            intersection.intersect(left);
            intersection.intersect(right, thetaSummary(kind, mode));
        } else {
            Sketch<Summary> right = heapify(kind, b, function);
            intersection.intersect(left);
            intersection.intersect(right);
        }
        return intersection.getResult().toByteArray();
    }

    /** Spark's tuple_difference_* ({@code theta}: tuple_difference_theta_*, {@code b} a Theta sketch): the keys of a not in b. */
    public static byte[] difference(Kind kind, byte[] a, byte[] b, boolean theta) {
        String function = fn(theta ? "tuple_difference_theta" : "tuple_difference", kind);
        AnotB<Summary> aNotB = new AnotB<>();
        Sketch<Summary> left = heapify(kind, a, function);
        if (theta) {
            org.apache.datasketches.theta.Sketch right = ThetaSketches.wrap(b, function);
            aNotB.setA(left);
            aNotB.notB(right);
        } else {
            Sketch<Summary> right = heapify(kind, b, function);
            aNotB.setA(left);
            aNotB.notB(right);
        }
        return aNotB.getResult(true).toByteArray();
    }
}
