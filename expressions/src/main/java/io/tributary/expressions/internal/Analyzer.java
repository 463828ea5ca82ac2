package io.tributary.expressions.internal;

import io.tributary.expressions.ExpressionErrors;
import io.tributary.expressions.FileMetadata;
import io.tributary.schema.DataType;
import io.tributary.schema.DataType.Kind;
import io.tributary.schema.Field;
import io.tributary.schema.Schema;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Resolves a parsed expression against the input schema: columns by name (case-insensitively, as
 * Spark by default), functions through the {@link FunctionRegistry}, types by Spark 4.2's ANSI rules
 * with implicit casts made explicit. Refuses what Spark refuses at analysis, naming the expression,
 * the position and the fix.
 */
public final class Analyzer {
    private final Schema input;
    private final String source;
    /** The parameters of the lambdas being resolved, by lower-case name, each a column of its frame slot. */
    private final Map<String, Bound.Column> lambdaScope = new HashMap<>();
    /** The start of the batch a transform runs, for {@code current_timestamp()} and its cousins; null outside a transform. */
    private final BatchClock clock;
    private int nextSlot;

    public Analyzer(Schema input, String source) {
        this(input, source, null);
    }

    public Analyzer(Schema input, String source, BatchClock clock) {
        this.input = input;
        this.source = source;
        this.clock = clock;
        this.nextSlot = input.size();
    }

    /** A call being resolved: what its resolver needs to build typed nodes and to refuse the arguments. */
    public final class Call {
        private final Node.Call node;

        Call(Node.Call node) {
            this.node = node;
        }

        public String name() {
            return node.name();
        }

        public String text() {
            return node.text();
        }

        /** A null-intolerant application of {@code kernel}. */
        public Bound apply(List<Bound> args, DataType type, Kernel kernel) {
            return new Bound.Apply(node.name(), args, kernel, false, type, node.text());
        }

        /** An application of {@code kernel} that sees null arguments. */
        public Bound applyTolerant(List<Bound> args, DataType type, Kernel kernel) {
            return new Bound.Apply(node.name(), args, kernel, true, type, node.text());
        }

        /** {@code arg} cast to {@code type} whatever the types: for the operand types the operators' rules chose. */
        public Bound castTo(Bound arg, DataType type) {
            if (arg.type() == null || arg.type().equals(type)) {
                return implicit(arg, type, node);
            }
            return new Bound.Apply("cast", List.of(arg), Casts.kernel(arg.type(), type), false, type, arg.text());
        }

        /** {@code arg} as {@code type}, by an implicit cast where Spark makes one; a type error where it does not. */
        public Bound as(Bound arg, DataType type) {
            return implicit(arg, type, node);
        }

        /**
         * Argument {@code index}, which must be a lambda of {@code minParams} to {@code types.size()} parameters, resolved with
         * its parameters of {@code types}; a type error naming the function when it is no lambda or takes other parameters.
         */
        public Bound.Lambda lambda(int index, List<DataType> types, int minParams) {
            if (!(node.args().get(index) instanceof Node.Lambda l)) {
                throw typeError("argument " + (index + 1) + " of " + name() + " must be a lambda function such as x -> x + 1, and '"
                        + node.args().get(index).text() + "' is not one");
            }
            int n = l.params().size();
            if (n < minParams || n > types.size()) {
                String expected = minParams == types.size() ? Integer.toString(minParams) : minParams + " or " + types.size();
                throw typeError("the lambda function '" + l.text() + "' of " + name() + " takes " + expected + " parameters, not " + n);
            }
            return Analyzer.this.lambda(l, types.subList(0, n));
        }

        /** A higher-order function's node: its value arguments, the first {@code strict} null in null out, and its lambdas. */
        public Bound higherOrder(List<Bound> args, int strict, List<Bound.Lambda> lambdas, DataType type, HigherOrderKernel kernel) {
            return new Bound.HigherOrder(node.name(), args, strict, lambdas, nextSlot, kernel, type, node.text());
        }

        /** The clock of the transform the call runs in, whose batches restart the random functions; null outside a transform. */
        public BatchClock clock() {
            return clock;
        }

        /** A refusal of {@code what} in this call, as Spark 4.2 refuses a TIME by default (UNSUPPORTED_TIME_TYPE). */
        public RuntimeException unsupportedTime(String what) {
            return ExpressionErrors.unsupportedTime(source, node.position(), node.text(), what);
        }

        public RuntimeException typeError(String reason) {
            return ExpressionErrors.typeMismatch(source, node.position(), node.text(), reason);
        }
    }

    public Bound resolve(Node node) {
        if (node instanceof Node.Literal l) {
            return new Bound.Literal(l.value(), l.type(), l.text());
        } else if (node instanceof Node.Column c) {
            return column(c);
        } else if (node instanceof Node.Call c) {
            return call(c);
        } else if (node instanceof Node.Cast c) {
            return cast(c);
        } else if (node instanceof Node.Case c) {
            return caseWhen(c);
        } else if (node instanceof Node.Lambda l) {
            throw ExpressionErrors.typeMismatch(source, l.position(), l.text(), "a lambda function is an argument of a higher-order function"
                    + " (transform, filter, exists, forall, aggregate ...) only");
        }
        Node.Field f = (Node.Field) node;
        return field(resolve(f.child()), f.name(), f);
    }

    private Bound.Lambda lambda(Node.Lambda l, List<DataType> types) {
        Map<String, Bound.Column> outer = new HashMap<>(lambdaScope);
        List<String> names = l.params().stream().map(p -> p.toLowerCase(Locale.ROOT)).toList();
        int[] slots = new int[types.size()];
        for (int i = 0; i < slots.length; i++) {
            if (names.indexOf(names.get(i)) != i) {
                throw ExpressionErrors.typeMismatch(source, l.position(), l.text(), "the lambda function names its parameter '"
                        + l.params().get(i) + "' twice");
            }
            slots[i] = nextSlot++;
            lambdaScope.put(names.get(i), new Bound.Column(slots[i], new int[0], types.get(i), l.params().get(i)));
        }
        try {
            return new Bound.Lambda(slots, resolve(l.body()), l.text());
        } finally {
            lambdaScope.clear();
            lambdaScope.putAll(outer);
        }
    }

    private Bound column(Node.Column c) {
        Bound.Column variable = lambdaScope.get(c.names().get(0).toLowerCase(Locale.ROOT));
        if (variable != null) {
            Bound b = variable;
            for (int i = 1; i < c.names().size(); i++) {
                b = field(b, c.names().get(i), c);
            }
            return b;
        }
        int index = input.indexOf(c.names().get(0));
        if (index < 0 && c.names().size() == 1 && BatchTimeFunctions.isKeyword(c.names().get(0))) {
            return BatchTimeFunctions.resolve(new Node.Call(c.names().get(0), List.of(), c.text(), c.position()), clock, source, this::resolve);
        }
        if (index < 0 && c.names().size() == 1 && SessionFunctions.isKeyword(c.names().get(0))) {
            return call(new Node.Call(c.names().get(0), List.of(), c.text(), c.position()));
        }
        if (index < 0 && c.names().get(0).equalsIgnoreCase(FileMetadata.COLUMN)) {
            throw ExpressionErrors.noFileMetadata(source, c.position(), FileMetadata.COLUMN);
        }
        if (index < 0) {
            throw ExpressionErrors.unknownColumn(source, c.position(), c.names().get(0),
                    input.fields().stream().filter(f -> !FileMetadata.isHidden(f)).map(Field::name).toList());
        }
        Field f = input.field(index);
        Bound b = new Bound.Column(index, new int[0], f.type(), c.names().get(0));
        for (int i = 1; i < c.names().size(); i++) {
            b = field(b, c.names().get(i), c);
        }
        return b;
    }

    /** Spark's {@code input_file_name()}: the hidden column of the row's file's URI, which only a file source gives. */
    private Bound inputFileName(Node.Call c) {
        if (!c.args().isEmpty()) {
            throw ExpressionErrors.wrongArity(source, c.position(), c.name(), "0", c.args().size(), "input_file_name() → STRING");
        }
        int index = input.indexOf(FileMetadata.FILE_URI);
        if (index < 0) {
            throw ExpressionErrors.noFileMetadata(source, c.position(), "input_file_name()");
        }
        return new Bound.Column(index, new int[0], DataType.STRING, c.text());
    }

    private Bound field(Bound base, String name, Node at) {
        if (Types.is(base.type(), Kind.ARRAY) && Types.is(base.type().element(), Kind.STRUCT)) {
            return arrayField(base, name, at);
        }
        if (!Types.is(base.type(), Kind.STRUCT)) {
            throw ExpressionErrors.typeMismatch(source, at.position(), at.text(),
                    "'" + base.text() + "' is " + Types.name(base.type()) + ", not a STRUCT, so it has no field '" + name + "'");
        }
        Schema struct = base.type().struct();
        int i = StructFunctions.fieldIndex(source, at.position(), name, base.text(), struct);
        DataType type = Types.VOID.equals(struct.field(i).type()) ? null : struct.field(i).type(); // a VOID field reads as NULL
        String text = base.text() + "." + name;
        if (base instanceof Bound.Column c) {
            int[] path = java.util.Arrays.copyOf(c.path(), c.path().length + 1);
            path[path.length - 1] = i;
            return new Bound.Column(c.index(), path, type, text);
        }
        int fi = i;
        return new Bound.Apply("." + name, List.of(base), (Kernel.Unary) v -> ((Object[]) v)[fi], false, type, text);
    }

    /** {@code a.f} of an array of structs: the array of each element's field f, as Spark's {@code GetArrayStructFields}. */
    private Bound arrayField(Bound base, String name, Node at) {
        Schema struct = base.type().element().struct();
        int i = StructFunctions.fieldIndex(source, at.position(), name, base.text(), struct);
        return new Bound.Apply("." + name, List.of(base), (Kernel.Unary) v -> {
            List<Object> out = new ArrayList<>();
            for (Object e : (List<?>) v) {
                out.add(e == null ? null : ((Object[]) e)[i]);
            }
            return out;
        }, false, DataType.array(struct.field(i).type()), base.text() + "." + name);
    }

    private Bound call(Node.Call c) {
        if (c.name().equalsIgnoreCase("input_file_name")) {
            return inputFileName(c);
        }
        if (BatchTimeFunctions.isBatchTime(c.name())) {
            return BatchTimeFunctions.resolve(c, clock, source, this::resolve);
        }
        FunctionDef def = FunctionRegistry.get(c.name());
        if (def == null && Generator.isGenerator(c.name())) {
            throw ExpressionErrors.generatorNested(source, c.position(), c.text(), source);
        }
        if (def == null) {
            throw ExpressionErrors.unknownFunction(source, c.position(), c.name());
        }
        int n = c.args().size();
        if (n < def.minArgs() || (def.maxArgs() >= 0 && n > def.maxArgs())) {
            throw ExpressionErrors.wrongArity(source, c.position(), c.name(), def.arity(), n, def.signature());
        }
        List<Bound> args = new ArrayList<>(n);
        boolean lambdas = false;
        for (Node a : c.args()) {
            lambdas |= a instanceof Node.Lambda;
            args.add(a instanceof Node.Lambda ? null : resolve(a));
        }
        if (lambdas && !HigherOrderFunctions.takesLambdas(def.name())) {
            throw ExpressionErrors.typeMismatch(source, c.position(), c.text(), def.name() + " takes no lambda function");
        }
        return def.resolver().resolve(new Call(c), args);
    }

    private Bound cast(Node.Cast c) {
        Bound child = resolve(c.child());
        if (Times.holdsTime(c.to()) && !c.to().equals(child.type())) {
            throw ExpressionErrors.unsupportedTime(source, c.position(), c.text(), "a cast to " + Types.name(c.to()));
        }
        if (!Casts.canCast(child.type(), c.to())) {
            throw ExpressionErrors.typeMismatch(source, c.position(), c.text(),
                    "cannot cast " + Types.name(child.type()) + " to " + c.to().ddl());
        }
        Kernel.Unary k = c.tryCast() && Variants.isVariant(child.type()) ? VariantCasts.tryKernel(c.to()) : Casts.kernel(child.type(), c.to());
        if (c.tryCast()) {
            Kernel.Unary strict = k;
            k = v -> {
                try {
                    return strict.apply1(v);
                } catch (Failure f) {
                    return null;
                }
            };
        }
        return new Bound.Apply("cast", List.of(child), k, false, c.to(), c.text());
    }

    private Bound caseWhen(Node.Case c) {
        List<Bound> conditions = new ArrayList<>();
        for (Node n : c.conditions()) {
            Bound b = resolve(n);
            if (!Types.is(b.type(), Kind.BOOLEAN)) {
                throw ExpressionErrors.typeMismatch(source, n.position(), n.text(),
                        "a WHEN condition must be BOOLEAN, and '" + n.text() + "' is " + Types.name(b.type()));
            }
            conditions.add(b);
        }
        List<Bound> values = new ArrayList<>();
        for (Node n : c.values()) {
            values.add(resolve(n));
        }
        Bound otherwise = c.otherwise() == null ? null : resolve(c.otherwise());
        List<Bound> all = new ArrayList<>(values);
        if (otherwise != null) {
            all.add(otherwise);
        }
        DataType type = commonType(all, c);
        List<Bound> cast = values.stream().map(v -> implicit(v, type, c)).toList();
        return new Bound.Case(conditions, cast, otherwise == null ? null : implicit(otherwise, type, c), type, c.text());
    }

    /** The type all of {@code args} meet in; a type error naming them when there is none. */
    DataType commonType(List<Bound> args, Node at) {
        DataType type = null;
        for (Bound b : args) {
            DataType next = Types.common(type, b.type());
            if (next == null && b.type() != null) {
                throw ExpressionErrors.typeMismatch(source, at.position(), at.text(),
                        "the values have no common type: " + String.join(", ", args.stream().map(a -> a.text() + " " + Types.name(a.type())).toList()));
            }
            type = next;
        }
        return type;
    }

    Bound implicit(Bound b, DataType to, Node at) {
        if (to == null || to.equals(b.type())) {
            return b;
        }
        if (Times.isTime(to)) {
            throw ExpressionErrors.unsupportedTime(source, at.position(), at.text(), "'" + b.text() + "' is " + Types.name(b.type())
                    + " where " + Types.name(to) + " is expected, and only a TIME of that precision is one");
        }
        if (b.type() == null && b instanceof Bound.Literal) {
            return new Bound.Literal(null, to, b.text());
        }
        if (b.type() == null) { // NULL's type, whose value is null unless it fails the row (raise_error)
            return new Bound.Apply("cast", List.of(b), (Kernel.Unary) v -> v, false, to, b.text());
        }
        if (Types.voidFits(b.type(), to)) {
            return new Bound.Apply("cast", List.of(b), (Kernel.Unary) v -> v, false, to, b.text());
        }
        if (b.type().isNested() && NestedTypes.castable(b.type(), to)) {
            return new Bound.Apply("cast", List.of(b), NestedTypes.cast(b.type(), to), false, to, b.text());
        }
        if (Times.isTime(b.type()) && !implicitlyCastable(b.type(), to)) {
            throw ExpressionErrors.unsupportedTime(source, at.position(), at.text(), "'" + b.text() + "' is " + Types.name(b.type())
                    + " where " + Types.name(to) + " is expected");
        }
        if (!implicitlyCastable(b.type(), to)) {
            throw ExpressionErrors.typeMismatch(source, at.position(), at.text(),
                    "'" + b.text() + "' is " + Types.name(b.type()) + " where " + to.ddl() + " is expected; cast it: CAST(" + b.text() + " AS " + to.ddl() + ")");
        }
        Kernel.Unary kernel = Intervals.isInterval(to) ? v -> v : Casts.kernel(b.type(), to);
        return new Bound.Apply("cast", List.of(b), kernel, false, to, b.text());
    }

    /** Spark's ANSI implicit casts: numbers widen, text reads as anything atomic, anything atomic reads as text, a date as a timestamp. */
    private static boolean isDatetime(DataType t) {
        return t.kind() == Kind.DATE || t.kind() == Kind.TIMESTAMP || t.kind() == Kind.TIMESTAMP_NTZ;
    }

    static boolean implicitlyCastable(DataType from, DataType to) {
        if (Variants.isVariant(from) || Variants.isVariant(to)) { // a VARIANT reads as text (upper, concat), text as a VARIANT (coalesce)
            return Variants.isVariant(from) ? Types.is(to, Kind.STRING) : Types.is(from, Kind.STRING);
        }
        if (CalendarIntervals.isCalendar(from) || CalendarIntervals.isCalendar(to)) { // an INTERVAL reads as text (concat), nothing as one
            return CalendarIntervals.isCalendar(from) && Types.is(to, Kind.STRING);
        }
        if (Intervals.isInterval(from) && Types.is(to, Kind.STRING)) {
            return true;
        }
        if (Intervals.isInterval(from) || Intervals.isInterval(to)) {
            return to.equals(Intervals.common(from, to));
        }
        if (Types.numeric(from) && Types.numeric(to)) { // Spark's Cast.canANSIStoreAssign: any number to any other, narrowing too
            return true;
        }
        if (isDatetime(from) && isDatetime(to)) { // Spark's Cast.canANSIStoreAssign: any DATE, TIMESTAMP or TIMESTAMP_NTZ to another
            return true;
        }
        if (from.kind() == Kind.STRING) {
            return !to.isNested();
        }
        if (to.kind() == Kind.STRING) {
            return !from.isNested() && from.kind() != Kind.BINARY;
        }
        if (from.kind() == Kind.DATE) {
            return to.kind() == Kind.TIMESTAMP || to.kind() == Kind.TIMESTAMP_NTZ;
        }
        if (from.kind() == Kind.TIMESTAMP && to.kind() == Kind.DATE) {
            return true;
        }
        return false;
    }
}
