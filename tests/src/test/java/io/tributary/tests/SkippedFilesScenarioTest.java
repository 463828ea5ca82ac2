package io.tributary.tests;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import io.tributary.sink.DeltaTables;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * Input a run leaves unread is loud: a file changed after it was ingested, and a file younger than
 * {@code fileMinAge}, are counted in the run's summary line (all a scheduler may read) and said once
 * in the log, however many batches the run takes.
 */
@Tag("integration")
@Timeout(300)
class SkippedFilesScenarioTest {
    static final String SPEC = """
            name: skips
            source:
              files:
                path: in/
                schema: "id INT"
                fileMinAge: 1 hour
                maxFilesPerTrigger: 1
            sink:
              delta:
                path: out/
            trigger: availableNow
            """;

    @TempDir
    Path dir;

    private static void setAge(Path file, Duration age) throws IOException {
        Files.setLastModifiedTime(file, FileTime.fromMillis(System.currentTimeMillis() - age.toMillis()));
    }

    @Test
    void changedAndHeldBackFilesAreInTheSummaryAndLoggedOncePerRun() throws Exception {
        Workspace ws = new Workspace(dir, SPEC);
        Path a = ws.addFile("a.json", "{\"id\": 1}");
        setAge(a, Duration.ofHours(3));
        JsonNode first = ws.tributary("run").assertOk().summary();
        assertThat(first.get("numFilesChangedAfterIngest").asInt()).isZero();
        assertThat(first.get("numFilesHeldBack").asInt()).isZero();

        Files.writeString(a, "{\"id\": 100}\n", StandardOpenOption.APPEND); // rewritten after its ingest
        setAge(a, Duration.ofHours(3));
        setAge(ws.addFile("b.json", "{\"id\": 2}"), Duration.ofHours(2));
        setAge(ws.addFile("c.json", "{\"id\": 3}"), Duration.ofHours(2));
        ws.addFile("young.json", "{\"id\": 4}"); // modified seconds ago: fileMinAge holds it back

        LoggerContext logs = (LoggerContext) LoggerFactory.getILoggerFactory();
        Logger tributary = logs.getLogger("io.tributary");
        ListAppender<ILoggingEvent> seen = new ListAppender<>();
        seen.setContext(logs);
        seen.start();
        tributary.addAppender(seen);
        Workspace.Result run;
        try {
            run = ws.tributary("run").assertOk();
        } finally {
            tributary.detachAppender(seen);
        }

        assertThat(run.progress("skips/ingest")).as("one file per batch, the folder looked at three times").hasSize(2);
        JsonNode summary = run.summary();
        assertThat(summary.get("numInputRows").asInt()).isEqualTo(2);
        assertThat(summary.get("numFilesChangedAfterIngest").asInt()).isEqualTo(1);
        assertThat(summary.get("numFilesHeldBack").asInt()).isEqualTo(1);
        assertThat(run.out().strip().lines().reduce((x, y) -> y).orElseThrow()).as("the summary is the last line").startsWith("{\"summary\"");
        assertThat(DeltaTables.readRows(dir.resolve("out").toString())).hasSize(3);

        List<String> warnings = seen.list.stream().filter(e -> e.getLevel() == Level.WARN).map(ILoggingEvent::getFormattedMessage).toList();
        assertThat(warnings.stream().filter(w -> w.contains("in/a.json") && w.contains("changed after"))).as(String.join("\n", warnings))
                .hasSize(2) // the file, when first seen changed; the run's account at its end
                .anySatisfy(w -> assertThat(w).contains("this run did not read 1 file changed after it was ingested: in/a.json"));
        assertThat(warnings.stream().filter(w -> w.contains("in/young.json"))).as(String.join("\n", warnings)).singleElement()
                .satisfies(w -> assertThat(w).contains("1 file modified less than 1h ago was held back by source.files.fileMinAge"));
    }
}
