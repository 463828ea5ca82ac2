package io.tributary.sink.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The key lookup's sorted set of a batch's integral keys answers as a hash set does, whatever the order the
 * table's keys come in: ascending (a file the upsert wrote), descending, or at random (a file another writer wrote).
 */
class KeyProbeTest {
    @Test
    void theSortedSetWalkedByTheFilesKeysFindsExactlyTheBatchsKeysInAnyOrder() {
        Random rnd = new Random(7);
        Set<Long> expected = new HashSet<>();
        KeyProbe.LongSet set = new KeyProbe.LongSet(4);
        for (int i = 0; i < 5_000; i++) {
            long v = rnd.nextInt(40_000) - 20_000L;
            set.add(v);
            expected.add(v);
        }
        set.add(0);
        set.add(Long.MIN_VALUE);
        set.add(Long.MAX_VALUE);
        expected.addAll(Set.of(0L, Long.MIN_VALUE, Long.MAX_VALUE));
        set.sorted();
        List<String> wrong = new ArrayList<>();
        for (long v = -20_010; v <= 20_010; v++) {
            if (set.contains(v) != expected.contains(v)) {
                wrong.add("ascending " + v);
            }
        }
        for (long v = 20_010; v >= -20_010; v -= 3) {
            if (set.contains(v) != expected.contains(v)) {
                wrong.add("descending " + v);
            }
        }
        for (int i = 0; i < 50_000; i++) {
            long v = i % 1000 == 0 ? (i % 2000 == 0 ? Long.MAX_VALUE : Long.MIN_VALUE) : rnd.nextInt(40_100) - 20_050L;
            if (set.contains(v) != expected.contains(v)) {
                wrong.add("at random " + v);
            }
        }
        assertThat(wrong).isEmpty();
    }
}
