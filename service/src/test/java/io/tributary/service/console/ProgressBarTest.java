package io.tributary.service.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.schema.Progress;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The bounded run's progress line: what it says for given counts, and the counts it reads off the records. */
class ProgressBarTest {
    @Test
    void theLineSaysFilesRowsRateAndTimeLeft() {
        assertThat(ProgressBar.render(new ProgressBar.Counts(42, 100, 1_234_567, 6_000, "ingest batch 4", false), 120))
                .isEqualTo("[########------------] 42/100 files · 1,234,567 rows · 205,761 rows/s · 0:09 left · ingest batch 4");
        assertThat(ProgressBar.render(new ProgressBar.Counts(0, -1, 0, 0, null, false), 120)).isEqualTo("0 rows · starting");
        assertThat(ProgressBar.render(new ProgressBar.Counts(100, 100, 1_000_000, 4_750, "sink batch 9", false), 120))
                .isEqualTo("[####################] 100/100 files · 1,000,000 rows · 210,526 rows/s · finishing · sink batch 9");
        assertThat(ProgressBar.render(new ProgressBar.Counts(100, 100, 1_000_000, 4_750, "sink batch 9", true), 120))
                .isEqualTo("done [####################] 100/100 files · 1,000,000 rows · 210,526 rows/s in 0:05 · sink batch 9");
        assertThat(ProgressBar.render(new ProgressBar.Counts(1, 3, 10, 3_700_000, "ingest batch 0", false), 120))
                .as("hours").contains("2:03:20 left");
        assertThat(ProgressBar.render(new ProgressBar.Counts(7, -1, 70, 1_000, "ingest batch 2", false), 120))
                .as("files without a plan").startsWith("7 files · 70 rows · 70 rows/s · ingest batch 2");
    }

    @Test
    void theLineFitsTheTerminal() {
        String line = ProgressBar.render(new ProgressBar.Counts(42, 100, 1_234_567, 6_000, "aggregate batch 4", false), 40);
        assertThat(line).hasSize(39).endsWith("…").startsWith("[########------------] 42/100 files");
    }

    private static Progress ingest(long batchId, long rows, long files, long pending, String startedAt) {
        return new Progress("p/ingest", "r", startedAt, batchId, rows, 0, 0, Map.of("triggerExecution", 10L), null, null,
                List.of(new Progress.Source("FileSource[in]", null, Map.of("logOffset", batchId), rows,
                        Map.of("numFiles", files, "numFilesPending", pending))), null);
    }

    @Test
    void filesDoneAndPlannedComeFromTheFirstStagesRecords() {
        ByteArrayOutputStream screen = new ByteArrayOutputStream();
        AtomicLong now = new AtomicLong(1_767_261_600_000L); // 10:00:00
        ProgressBar bar = new ProgressBar(new StatusLine(new PrintStream(screen, true, StandardCharsets.UTF_8)), now::get, 200, false);
        bar.inputStage("p/ingest");
        bar.accept(ingest(0, 1_000, 10, 90, "2026-01-01T10:00:00.000Z"));
        now.addAndGet(2_000);
        bar.accept(new Progress("p/sink", "r", "2026-01-01T10:00:01.000Z", 0, 1_000, 0, 0, Map.of(), null, null, List.of(), null));
        assertThat(bar.counts(false)).isEqualTo(new ProgressBar.Counts(10, 100, 1_000, 2_000, "sink batch 0", false));
        bar.accept(ingest(1, 3_000, 30, 60, "2026-01-01T10:00:02.000Z"));
        assertThat(bar.counts(false)).isEqualTo(new ProgressBar.Counts(40, 100, 4_000, 2_000, "ingest batch 1", false));
        bar.close(true);
        String shown = screen.toString(StandardCharsets.UTF_8);
        assertThat(shown).startsWith("\r0 rows · starting")
                .contains("\r[########------------] 40/100 files · 4,000 rows · 2,000 rows/s · 0:03 left · ingest batch 1")
                .endsWith("\rdone [########------------] 40/100 files · 4,000 rows · 2,000 rows/s in 0:02 · ingest batch 1\n");
    }

    @Test
    void logLinesScrollAboveTheStatusLine() {
        ByteArrayOutputStream screen = new ByteArrayOutputStream();
        StatusLine line = new StatusLine(new PrintStream(screen, true, StandardCharsets.UTF_8));
        PrintStream stderr = new PrintStream(line, true, StandardCharsets.UTF_8);
        line.show("[##--] 1/2 files");
        stderr.print("INFO file in/a.json: 2 rows published\n");
        line.show("[####] 2/2");
        line.finish("done");
        assertThat(screen.toString(StandardCharsets.UTF_8)).isEqualTo(
                "\r[##--] 1/2 files"
                        + "\r                \r" + "INFO file in/a.json: 2 rows published\n" + "[##--] 1/2 files"
                        + "\r[####] 2/2      "
                        + "\rdone      " + "\n");
    }
}
