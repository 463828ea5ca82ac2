package io.tributary.topology.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Which windows a timestamp falls in, as Spark's window(ts, size, slide) decides. */
class WindowAssignerTest {
    static long[] starts(long size, long slide, long ts) {
        WindowAssigner a = new WindowAssigner(size, slide);
        long[] out = new long[a.maxWindows()];
        return Arrays.copyOf(out, a.assign(ts, out));
    }

    @Test
    void tumblingGivesTheOneWindowHoldingTheTimestamp() {
        assertThat(starts(10, 10, 10)).containsExactly(10);
        assertThat(starts(10, 10, 19)).containsExactly(10);
        assertThat(starts(10, 10, -1)).containsExactly(-10);
    }

    @Test
    void hoppingWithASlideThatDoesNotDivideTheSizeGivesThreeOrFourWindows() {
        assertThat(starts(10, 3, 10)).containsExactly(3, 6, 9);
        assertThat(starts(10, 3, 9)).containsExactly(0, 3, 6, 9);
    }
}
