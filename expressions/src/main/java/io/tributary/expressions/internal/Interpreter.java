package io.tributary.expressions.internal;

import java.util.List;

/**
 * Evaluates a {@link Bound} tree by walking it for each row: the reference the compiled form is
 * checked against, and the form for an expression evaluated once.
 */
public final class Interpreter {
    private Interpreter() {
    }

    public static Object eval(Bound node, Object[] row) {
        if (node instanceof Bound.Literal l) {
            return l.value();
        } else if (node instanceof Bound.Column c) {
            return column(c, row);
        } else if (node instanceof Bound.Apply a) {
            return apply(a, row);
        } else if (node instanceof Bound.Logic l) {
            return logic(l, row);
        } else if (node instanceof Bound.Case c) {
            return caseWhen(c, row);
        } else if (node instanceof Bound.Coalesce c) {
            return coalesce(c.args(), row);
        } else if (node instanceof Bound.Try t) {
            try {
                return eval(t.child(), row);
            } catch (Failure | ArithmeticException e) {
                return null;
            }
        } else if (node instanceof Bound.HigherOrder h) {
            Object[] values = new Object[h.args().size()];
            for (int i = 0; i < values.length; i++) {
                values[i] = eval(h.args().get(i), row);
            }
            Compiler.Eval[] bodies = h.lambdas().stream().map(l -> (Compiler.Eval) frame -> eval(l.body(), frame)).toArray(Compiler.Eval[]::new);
            return HigherOrderKernel.run(h, row, values, bodies);
        } else if (node instanceof Bound.Lambda l) {
            return eval(l.body(), row);
        }
        return in((Bound.In) node, row);
    }

    private static Object column(Bound.Column c, Object[] row) {
        Object v = row[c.index()];
        for (int f : c.path()) {
            if (v == null) {
                return null;
            }
            v = ((Object[]) v)[f];
        }
        return v;
    }

    private static Object apply(Bound.Apply a, Object[] row) {
        Object[] args = new Object[a.args().size()];
        for (int i = 0; i < args.length; i++) {
            args[i] = eval(a.args().get(i), row);
            if (args[i] == null && !a.nullTolerant()) {
                return null;
            }
        }
        try {
            return a.kernel().apply(args);
        } catch (Failure f) {
            throw f.at(a.text());
        }
    }

    private static Object logic(Bound.Logic l, Object[] row) {
        Object left = eval(l.left(), row);
        if (left != null && (Boolean) left != l.and()) {
            return left; // false AND ..., true OR ...
        }
        Object right = eval(l.right(), row);
        if (right != null && (Boolean) right != l.and()) {
            return right;
        }
        return left == null || right == null ? null : l.and();
    }

    private static Object caseWhen(Bound.Case c, Object[] row) {
        for (int i = 0; i < c.conditions().size(); i++) {
            if (Boolean.TRUE.equals(eval(c.conditions().get(i), row))) {
                return eval(c.values().get(i), row);
            }
        }
        return c.otherwise() == null ? null : eval(c.otherwise(), row);
    }

    private static Object coalesce(List<Bound> args, Object[] row) {
        for (Bound b : args) {
            Object v = eval(b, row);
            if (v != null) {
                return v;
            }
        }
        return null;
    }

    private static Object in(Bound.In in, Object[] row) {
        Object v = eval(in.value(), row);
        if (v == null) {
            return null;
        }
        boolean sawNull = false;
        for (Bound b : in.list()) {
            Object x = eval(b, row);
            if (x == null) {
                sawNull = true;
            } else if ((Boolean) in.equal().apply2(v, x)) {
                return true;
            }
        }
        return sawNull ? null : false;
    }
}
