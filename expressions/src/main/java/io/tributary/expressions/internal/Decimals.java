package io.tributary.expressions.internal;

import io.tributary.schema.DataType;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/** Decimal values at a type's precision and scale, as Spark's {@code Decimal.toPrecision} in ANSI mode. */
final class Decimals {
    private Decimals() {
    }

    /** {@code v} rounded half up to the type's scale; NUMERIC_VALUE_OUT_OF_RANGE when it needs more digits than the type has. */
    static BigDecimal fit(BigDecimal v, DataType type) {
        BigDecimal r = v.setScale(type.scale(), RoundingMode.HALF_UP);
        if (r.precision() - r.scale() > type.precision() - type.scale() && r.signum() != 0) {
            throw Failure.of("NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION",
                    v.toPlainString() + " cannot be represented as " + type.ddl());
        }
        return r;
    }

    /** A quotient computed with enough digits for any result type, then fitted. */
    static BigDecimal divide(BigDecimal a, BigDecimal b, DataType type) {
        if (b.signum() == 0) {
            throw Failure.divideByZero();
        }
        return fit(a.divide(b, new MathContext(a.precision() + b.precision() + type.scale() + 40, RoundingMode.HALF_UP)), type);
    }

    static BigDecimal remainder(BigDecimal a, BigDecimal b, DataType type) {
        if (b.signum() == 0) {
            throw Failure.of("REMAINDER_BY_ZERO", "remainder by zero");
        }
        return fit(a.remainder(b), type);
    }
}
