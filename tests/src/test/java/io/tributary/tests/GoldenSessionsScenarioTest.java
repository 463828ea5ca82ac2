package io.tributary.tests;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.schema.Timestamps;
import io.tributary.sink.DeltaTables;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Spark's session windows (golden/sessions/append-file-batches), run file by file through the whole pipeline
 * on a real broker with three partitions, one process per run: sessions that merge within a batch, across
 * batches and across runs (the state of the open ones restored at each start), late rows dropped; after each
 * run the aggregate table must hold exactly the rows Spark's table held.
 */
@Tag("integration")
@Tag("scenarios")
@Timeout(300)
class GoldenSessionsScenarioTest {
    static final String SPEC = """
            name: sessions
            source:
              files:
                path: in/
                format: json
                schema: "id INT, user STRING, amt DOUBLE, ts TIMESTAMP"
                maxFilesPerTrigger: 1
            aggregate:
              eventTime: ts
              watermark: 5 minutes
              session: 10 minutes
              groupBy: [user]
              select: { t: sum(amt), n: count(*), hi: max(amt) }
            outputMode: append
            sink:
              delta:
                path: agg/
            topic:
              partitions: 3
            trigger: availableNow
            """;

    @TempDir
    Path dir;

    @Test
    void threeRunsLeaveSparksSessionsAfterEachRun() throws IOException {
        Workspace ws = new Workspace(dir, SPEC);
        List<List<String>> runs = List.of(List.of("r1a.json", "r1b.json"), List.of("r2.json"), List.of("r3.json"));
        int run = 0;
        for (List<String> files : runs) {
            run++;
            for (String f : files) {
                ws.addFileInOrder(f, golden("input/" + f).strip().split("\n")); // file order = Spark's: oldest first
            }
            ws.tributary("run").assertOk();
            List<String> expected = Golden.windowRows("sessions/append-file-batches/after-run" + run + ".txt");
            assertThat(table(dir.resolve("agg").toString())).as("after run %d", run).containsExactlyInAnyOrderElementsOf(expected);
        }
    }

    /** The table as the golden files print it: {@code {start, end}|user|t|n|hi}. */
    static List<String> table(String path) {
        List<String> rows = new ArrayList<>();
        if (!DeltaTables.exists(path)) {
            return rows;
        }
        for (Object[] r : DeltaTables.readRows(path)) {
            Object[] w = (Object[]) r[0];
            rows.add("{" + ts((Long) w[0]) + ", " + ts((Long) w[1]) + "}|" + r[1] + "|" + r[2] + "|" + r[3] + "|" + r[4]);
        }
        return rows;
    }

    private static String ts(long micros) {
        return Timestamps.formatMicros(micros).replace('T', ' ').replace("Z", "");
    }

    static String golden(String resource) throws IOException {
        return Golden.read("sessions/" + resource);
    }
}
