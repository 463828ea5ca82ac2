package io.tributary.expressions.internal;

import java.util.List;

/**
 * Compiles a {@link Bound} tree once into nested closures over the row layout: a column is read by
 * its index, a one- or two-argument function calls its kernel without an argument array, a
 * deterministic constant subtree is computed once ({@link Folding#fold}), and no node looks at its
 * kind again per row.
 */
public final class Compiler {
    private Compiler() {
    }

    /** An expression compiled over a row: the row's values in the input schema's order. */
    @FunctionalInterface
    public interface Eval {
        Object eval(Object[] row);
    }

    /**
     * {@code node} compiled. Constants (literals and folded subtrees) are computed once and shared by every row's evaluation,
     * as no function changes its arguments; where the value given may be or hold a constant array, struct, map or bytes
     * ({@link Folding#sharesValue}), each row gets its own copy of it ({@link Folding#perRow}).
     */
    public static Eval compile(Bound node) {
        Eval eval = node(node);
        return Folding.sharesValue(node) ? row -> Folding.perRow(eval.eval(row)) : eval;
    }

    private static Eval node(Bound node) {
        Object[] folded = Folding.fold(node);
        if (folded != null) {
            return literal(folded[0]);
        }
        if (node instanceof Bound.Literal l) {
            return literal(l.value());
        } else if (node instanceof Bound.Column c) {
            return column(c.index(), c.path());
        } else if (node instanceof Bound.Apply a) {
            return apply(a);
        } else if (node instanceof Bound.Logic l) {
            return l.and() ? and(node(l.left()), node(l.right())) : or(node(l.left()), node(l.right()));
        } else if (node instanceof Bound.Case c) {
            return caseWhen(all(c.conditions()), all(c.values()), c.otherwise() == null ? literal(null) : node(c.otherwise()));
        } else if (node instanceof Bound.Coalesce c) {
            return coalesce(all(c.args()));
        } else if (node instanceof Bound.Try t) {
            return tried(node(t.child()));
        }
        if (node instanceof Bound.HigherOrder h) {
            return higherOrder(h);
        } else if (node instanceof Bound.Lambda l) {
            return node(l.body());
        }
        Bound.In in = (Bound.In) node;
        return in(node(in.value()), all(in.list()), in.equal());
    }

    private static Eval tried(Eval child) {
        return row -> {
            try {
                return child.eval(row);
            } catch (Failure | ArithmeticException e) {
                return null;
            }
        };
    }

    private static Eval[] all(List<Bound> nodes) {
        return nodes.stream().map(Compiler::node).toArray(Eval[]::new);
    }

    private static Eval literal(Object value) {
        return row -> value;
    }

    private static Eval column(int index, int[] path) {
        if (path.length == 0) {
            return row -> row[index];
        }
        if (path.length == 1) {
            int f = path[0];
            return row -> {
                Object[] s = (Object[]) row[index];
                return s == null ? null : s[f];
            };
        }
        return row -> {
            Object v = row[index];
            for (int f : path) {
                if (v == null) {
                    return null;
                }
                v = ((Object[]) v)[f];
            }
            return v;
        };
    }

    private static Eval apply(Bound.Apply a) {
        Eval[] args = all(a.args());
        String text = a.text();
        if (a.kernel() instanceof Kernel.Unary k && args.length == 1 && !a.nullTolerant()) {
            Eval x = args[0];
            return row -> {
                Object v = x.eval(row);
                if (v == null) {
                    return null;
                }
                try {
                    return k.apply1(v);
                } catch (Failure f) {
                    throw f.at(text);
                }
            };
        }
        if (a.kernel() instanceof Kernel.Binary k && args.length == 2 && !a.nullTolerant()) {
            Eval x = args[0];
            Eval y = args[1];
            return row -> {
                Object l = x.eval(row);
                if (l == null) {
                    return null;
                }
                Object r = y.eval(row);
                if (r == null) {
                    return null;
                }
                try {
                    return k.apply2(l, r);
                } catch (Failure f) {
                    throw f.at(text);
                }
            };
        }
        if (a.kernel() instanceof Kernel.Unary k && args.length == 1) { // null-tolerant (IS NULL): the null reaches the kernel
            Eval x = args[0];
            return row -> {
                Object v = x.eval(row);
                try {
                    return k.apply1(v);
                } catch (Failure f) {
                    throw f.at(text);
                }
            };
        }
        if (a.kernel() instanceof Kernel.Binary k && args.length == 2) {
            Eval x = args[0];
            Eval y = args[1];
            return row -> {
                Object l = x.eval(row);
                Object r = y.eval(row);
                try {
                    return k.apply2(l, r);
                } catch (Failure f) {
                    throw f.at(text);
                }
            };
        }
        Kernel k = a.kernel();
        boolean tolerant = a.nullTolerant();
        return row -> {
            Object[] values = new Object[args.length];
            for (int i = 0; i < args.length; i++) {
                values[i] = args[i].eval(row);
                if (values[i] == null && !tolerant) {
                    return null;
                }
            }
            try {
                return k.apply(values);
            } catch (Failure f) {
                throw f.at(text);
            }
        };
    }

    private static Eval and(Eval left, Eval right) {
        return row -> {
            Object l = left.eval(row);
            if (Boolean.FALSE.equals(l)) {
                return false;
            }
            Object r = right.eval(row);
            if (Boolean.FALSE.equals(r)) {
                return false;
            }
            return l == null || r == null ? null : true;
        };
    }

    private static Eval or(Eval left, Eval right) {
        return row -> {
            Object l = left.eval(row);
            if (Boolean.TRUE.equals(l)) {
                return true;
            }
            Object r = right.eval(row);
            if (Boolean.TRUE.equals(r)) {
                return true;
            }
            return l == null || r == null ? null : false;
        };
    }

    private static Eval caseWhen(Eval[] conditions, Eval[] values, Eval otherwise) {
        return row -> {
            for (int i = 0; i < conditions.length; i++) {
                if (Boolean.TRUE.equals(conditions[i].eval(row))) {
                    return values[i].eval(row);
                }
            }
            return otherwise.eval(row);
        };
    }

    private static Eval coalesce(Eval[] args) {
        return row -> {
            for (Eval e : args) {
                Object v = e.eval(row);
                if (v != null) {
                    return v;
                }
            }
            return null;
        };
    }

    private static Eval in(Eval value, Eval[] list, Kernel.Binary equal) {
        return row -> {
            Object v = value.eval(row);
            if (v == null) {
                return null;
            }
            boolean sawNull = false;
            for (Eval e : list) {
                Object x = e.eval(row);
                if (x == null) {
                    sawNull = true;
                } else if ((Boolean) equal.apply2(v, x)) {
                    return true;
                }
            }
            return sawNull ? null : false;
        };
    }

    private static Eval higherOrder(Bound.HigherOrder h) {
        Eval[] args = all(h.args());
        Eval[] bodies = h.lambdas().stream().map(l -> node(l.body())).toArray(Eval[]::new);
        return row -> {
            Object[] values = new Object[args.length];
            for (int i = 0; i < args.length; i++) {
                values[i] = args[i].eval(row);
            }
            return HigherOrderKernel.run(h, row, values, bodies);
        };
    }
}
