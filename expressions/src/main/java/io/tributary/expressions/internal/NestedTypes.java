package io.tributary.expressions.internal;

import io.tributary.schema.DataType;
import io.tributary.schema.DataType.Kind;
import io.tributary.schema.Field;
import io.tributary.schema.Schema;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Where two ARRAY or STRUCT types meet, as Spark 4.2's coercion finds it: the same shape, numbers widened at the leaves,
 * a field nullable when it is on either side. A comparison pairs structs' fields by position whatever their names; a
 * CASE, COALESCE or array of structs needs the same names (without case). A MAP meets only an equal MAP.
 */
final class NestedTypes {
    private NestedTypes() {
    }

    /** The type {@code a} and {@code b} meet in, the first's names kept; null when there is none. */
    static DataType common(DataType a, DataType b, boolean namesMatter) {
        if (a.kind() != b.kind()) {
            return null;
        }
        return switch (a.kind()) {
            case ARRAY -> {
                DataType e = leafOrNested(a.element(), b.element(), namesMatter);
                yield e == null ? null : DataType.array(e);
            }
            case STRUCT -> {
                List<Field> x = a.struct().fields();
                List<Field> y = b.struct().fields();
                if (x.size() != y.size()) {
                    yield null;
                }
                List<Field> out = new ArrayList<>();
                for (int i = 0; i < x.size(); i++) {
                    if (namesMatter && !x.get(i).name().toLowerCase(Locale.ROOT).equals(y.get(i).name().toLowerCase(Locale.ROOT))) {
                        yield null;
                    }
                    DataType t = leafOrNested(x.get(i).type(), y.get(i).type(), namesMatter);
                    if (t == null) {
                        yield null;
                    }
                    out.add(new Field(x.get(i).name(), t, x.get(i).nullable() || y.get(i).nullable()));
                }
                yield DataType.struct(new Schema(out));
            }
            default -> a.equals(b) ? a : null;
        };
    }

    private static DataType leafOrNested(DataType a, DataType b, boolean namesMatter) {
        if (a.equals(b) || Types.VOID.equals(b)) {
            return a;
        }
        if (Types.VOID.equals(a)) {
            return b; // a VOID field (struct(1, NULL)) meets any type
        }
        if (a.isNested()) {
            return common(a, b, namesMatter);
        }
        return Types.numeric(a) && Types.numeric(b) ? Types.widerNumeric(a, b) : null;
    }

    /** Whether a value of {@code from} reads as {@code to} without loss: the same shape, its numbers widening. */
    static boolean castable(DataType from, DataType to) {
        if (from.equals(to)) {
            return true;
        }
        if (from.isNested() && from.kind() != to.kind()) {
            return false;
        }
        return switch (from.kind()) {
            case ARRAY -> castable(from.element(), to.element());
            case STRUCT -> {
                List<Field> x = from.struct().fields();
                List<Field> y = to.struct().fields();
                boolean ok = x.size() == y.size();
                for (int i = 0; ok && i < x.size(); i++) {
                    ok = castable(x.get(i).type(), y.get(i).type());
                }
                yield ok;
            }
            case MAP -> false;
            default -> Types.numeric(from) && Types.numeric(to) && Types.widens(from, to);
        };
    }

    /** How a value of {@code from} becomes one of {@code to}, {@link #castable} being true; the value itself when only names or nulls differ. */
    static Kernel.Unary cast(DataType from, DataType to) {
        if (sameLeaves(from, to)) {
            return v -> v;
        }
        if (from.kind() == Kind.ARRAY) {
            Kernel.Unary element = cast(from.element(), to.element());
            return v -> {
                List<?> in = (List<?>) v;
                List<Object> out = new ArrayList<>(in.size());
                for (Object e : in) {
                    out.add(e == null ? null : element.apply1(e));
                }
                return out;
            };
        }
        if (from.kind() == Kind.STRUCT) {
            List<Field> x = from.struct().fields();
            Kernel.Unary[] fields = new Kernel.Unary[x.size()];
            for (int i = 0; i < fields.length; i++) {
                fields[i] = cast(x.get(i).type(), to.struct().field(i).type());
            }
            return v -> {
                Object[] in = (Object[]) v;
                Object[] out = new Object[in.length];
                for (int i = 0; i < in.length; i++) {
                    out[i] = in[i] == null ? null : fields[i].apply1(in[i]);
                }
                return out;
            };
        }
        return Casts.kernel(from, to);
    }

    /** Whether the two types hold the same values, told apart only by field names and nullability. */
    private static boolean sameLeaves(DataType a, DataType b) {
        if (a.kind() != b.kind()) {
            return false;
        }
        return switch (a.kind()) {
            case ARRAY -> sameLeaves(a.element(), b.element());
            case STRUCT -> {
                List<Field> x = a.struct().fields();
                boolean same = x.size() == b.struct().size();
                for (int i = 0; same && i < x.size(); i++) {
                    same = sameLeaves(x.get(i).type(), b.struct().field(i).type());
                }
                yield same;
            }
            default -> a.equals(b);
        };
    }

    /** Whether a value of {@code b} is never null: a literal other than NULL, and what struct, named_struct, array and map make. */
    static boolean nonNull(Bound b) {
        if (b instanceof Bound.Literal l) {
            return l.value() != null;
        }
        return b instanceof Bound.Apply a && switch (a.name().toLowerCase(Locale.ROOT)) {
            case "struct", "named_struct", "array", "map" -> true;
            case "parse_json" -> nonNull(a.args().get(0)); // a text's VARIANT: a JSON null is a VARIANT, not NULL
            case "make_interval" -> a.args().stream().allMatch(NestedTypes::nonNull); // its overflow fails the row
            default -> false;
        };
    }
}
