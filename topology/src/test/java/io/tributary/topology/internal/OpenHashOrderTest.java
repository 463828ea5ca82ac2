package io.tributary.topology.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Spark's {@code Decimal} hashes as its Scala {@code BigDecimal}: the hash here is Scala's own, on the Scala library Spark runs. */
class OpenHashOrderTest {
    @Test
    void decimalHashIsScalasBigDecimalHash() {
        List<BigDecimal> values = new ArrayList<>(List.of(new BigDecimal("0.00"), new BigDecimal("2.00"), new BigDecimal("-1.5"),
                new BigDecimal("0.10"), new BigDecimal("123.45"), new BigDecimal("99999999.99"), new BigDecimal("2147483648"),
                new BigDecimal("-9223372036854775808"), new BigDecimal("9223372036854775808"),
                new BigDecimal("99999999999999999999999999999999999999"), new BigDecimal("0.333333333333333333"),
                new BigDecimal("12345678901234567890.123456789012345678"), new BigDecimal("1E+3"), new BigDecimal("0.5000")));
        Random random = new Random(11);
        for (int i = 0; i < 2000; i++) {
            int scale = random.nextInt(19);
            BigDecimal v = new BigDecimal(new BigInteger(1 + random.nextInt(126), random), scale);
            values.add(random.nextBoolean() ? v : v.negate());
            values.add(BigDecimal.valueOf(random.nextInt(2000) - 1000, random.nextInt(4)));
        }
        for (BigDecimal v : values) {
            assertThat(OpenHashOrder.decimalHash(v)).as("%s", v).isEqualTo(new scala.math.BigDecimal(v).hashCode());
        }
    }
}
