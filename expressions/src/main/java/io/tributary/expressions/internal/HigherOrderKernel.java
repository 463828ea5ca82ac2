package io.tributary.expressions.internal;

/**
 * What a higher-order function computes from its argument values and its lambdas, each lambda called with its
 * parameters' values for one element.
 */
@FunctionalInterface
public interface HigherOrderKernel {
    Object apply(Object[] args, Lambda[] lambdas);

    /** A lambda, ready for one row: its parameters' values in, the body's value out. */
    interface Lambda {
        Object call(Object a);

        Object call(Object a, Object b);

        Object call(Object a, Object b, Object c);
    }

    /** {@code h} over one row: its arguments' values given, its lambdas' bodies evaluated by {@code bodies} over a frame of the row. */
    static Object run(Bound.HigherOrder h, Object[] row, Object[] values, Compiler.Eval[] bodies) {
        for (int i = 0; i < h.strict(); i++) {
            if (values[i] == null) {
                return null;
            }
        }
        Object[] frame = java.util.Arrays.copyOf(row, Math.max(row.length, h.frame()));
        Lambda[] fns = new Lambda[bodies.length];
        for (int i = 0; i < fns.length; i++) {
            fns[i] = bind(frame, h.lambdas().get(i).slots(), bodies[i]);
        }
        try {
            return h.kernel().apply(values, fns);
        } catch (Failure f) {
            throw f.at(h.text());
        }
    }

    private static Lambda bind(Object[] frame, int[] slots, Compiler.Eval body) {
        int first = slots[0];
        int second = slots.length > 1 ? slots[1] : -1;
        int third = slots.length > 2 ? slots[2] : -1;
        return new Lambda() {
            @Override
            public Object call(Object a) {
                frame[first] = a;
                return body.eval(frame);
            }

            @Override
            public Object call(Object a, Object b) {
                frame[first] = a;
                if (second >= 0) {
                    frame[second] = b;
                }
                return body.eval(frame);
            }

            @Override
            public Object call(Object a, Object b, Object c) {
                if (third >= 0) {
                    frame[third] = c;
                }
                return call(a, b);
            }
        };
    }
}
