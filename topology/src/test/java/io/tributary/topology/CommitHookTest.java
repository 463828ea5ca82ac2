package io.tributary.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The processor keeps a batch's open windows in memory and writes them into the windows store
 * (RocksDB and its changelog) before every commit. TopologyTestDriver commits after each input
 * record, so this fails if a commit can leave windows only in memory. (A restart in the middle
 * of a batch is tested on a real broker, where state outlives the process: the driver deletes
 * its state directory on close.)
 */
class CommitHookTest {
    @TempDir
    Path stateDir;

    private static final List<String> ROWS = List.of(
            "{\"id\":1,\"user\":\"a\",\"amt\":5.0,\"ts\":\"2026-01-01T10:01:00Z\"}",
            "{\"id\":2,\"user\":\"b\",\"amt\":7.0,\"ts\":\"2026-01-01T10:05:00Z\"}",
            "{\"id\":3,\"user\":\"a\",\"amt\":1.0,\"ts\":\"2026-01-01T10:24:00Z\"}");

    @Test
    void aCommitInTheMiddleOfABatchPutsItsOpenWindowsInTheStore() {
        try (AggregationDriver driver = AggregationDriver.of(GoldenWindowsTest.goldenSpec(), stateDir)) {
            driver.marker(0, null);
            for (String row : ROWS) {
                driver.row(row);
            }
            assertThat(driver.windowsInStore()).isEqualTo(3);
        }
    }
}
