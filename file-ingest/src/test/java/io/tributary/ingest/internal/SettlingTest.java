package io.tributary.ingest.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.ingest.IngestConfig;
import io.tributary.ingest.IngestedFile;
import io.tributary.schema.Schema;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where files grow in place, a new file is taken once two looks {@code fileSettleTime} apart saw
 * the same size and modification time: a file still being written, or created empty and filled a
 * moment later, waits; {@code fileMinAge}, when set, decides instead; 0 takes a file at first sight.
 * The looks' times are given, so that the rule is checked without waiting, except where a bounded
 * run waits itself.
 */
@Timeout(60)
class SettlingTest {
    private static final Schema SCHEMA = Schema.parse("id INT");

    @TempDir
    Path dir;

    private BatchPlanner planner(Duration settle, Duration minAge) {
        IngestConfig config = IngestConfig.builder("settling", dir, SCHEMA).fileSettleTime(settle).fileMinAge(minAge).build();
        return new BatchPlanner(config, new FileDiscovery(dir));
    }

    private static java.util.List<String> names(java.util.List<FileStat> files) {
        return files.stream().map(FileStat::relPath).toList();
    }

    @Test
    void aFileStillBeingWrittenIsTakenOnceItHeldStillForTheSettleTime() throws IOException {
        BatchPlanner planner = planner(Duration.ofSeconds(1), Duration.ZERO);
        IngestState state = new IngestState();
        Path a = Files.writeString(dir.resolve("a.json"), "{\"id\": 1}\n");
        BatchPlanner.Plan first = planner.plan(state, 10_000);
        assertThat(first.files()).isEmpty();
        assertThat(names(first.settling())).containsExactly("a.json");
        assertThat(first.takesAll()).isFalse();

        Files.writeString(a, "{\"id\": 2}\n", StandardOpenOption.APPEND); // the writer goes on
        assertThat(names(planner.plan(state, 10_600).settling())).containsExactly("a.json");
        assertThat(names(planner.plan(state, 11_599).settling())).as("999 ms since it last changed").containsExactly("a.json");
        BatchPlanner.Plan settled = planner.plan(state, 11_600);
        assertThat(names(settled.files())).containsExactly("a.json");
        assertThat(settled.files().get(0).size()).isEqualTo(20);
        assertThat(settled.settling()).isEmpty();
    }

    @Test
    void aFileCreatedEmptyAndFilledAMomentLaterWaitsForItsContent() throws IOException {
        BatchPlanner planner = planner(Duration.ofSeconds(1), Duration.ZERO);
        IngestState state = new IngestState();
        Path a = Files.createFile(dir.resolve("a.json"));
        assertThat(planner.plan(state, 0).files()).isEmpty();
        Files.writeString(a, "{\"id\": 1}\n");
        assertThat(planner.plan(state, 1_000).files()).as("it changed since the look before").isEmpty();
        assertThat(planner.plan(state, 2_000).files()).extracting(FileStat::size).containsExactly(10L);
    }

    @Test
    void onALocalDiskAFileLastModifiedTheSettleTimeAgoIsTakenAtTheFirstLook() throws IOException {
        assertThat(new FileDiscovery(dir).sharesOurClock()).as("a temporary folder is on a local file system").isTrue();
        BatchPlanner planner = planner(Duration.ofSeconds(1), Duration.ZERO);
        IngestState state = new IngestState();
        Path fresh = Files.writeString(dir.resolve("b.json"), "{\"id\": 2}\n"); // written in place, its times left as written
        long now = Files.getLastModifiedTime(fresh).toMillis() + 999;
        Path old = Files.writeString(dir.resolve("a.json"), "{\"id\": 1}\n");
        Files.setLastModifiedTime(old, FileTime.fromMillis(now - 1_000));
        BatchPlanner.Plan plan = planner.plan(state, now);
        assertThat(names(plan.files())).containsExactly("a.json");
        assertThat(names(plan.settling())).as("modified 999 ms ago: it may still be written").containsExactly("b.json");
    }

    @Test
    void aFileWrittenAsideAndRenamedInIsTakenAtTheFirstLook() throws Exception {
        BatchPlanner planner = planner(Duration.ofSeconds(1), Duration.ZERO);
        IngestState state = new IngestState();
        Path aside = Files.createDirectories(dir.resolveSibling(dir.getFileName() + "-staging"));
        Path written = Files.writeString(aside.resolve("a.json"), "{\"id\": 1}\n");
        FileTime writtenAt = FileTime.fromMillis(System.currentTimeMillis() - 300); // finished 300 ms ago, within the settle time
        Files.setLastModifiedTime(written, writtenAt);
        Files.move(written, dir.resolve("a.json"), StandardCopyOption.ATOMIC_MOVE);
        Path inPlace = Files.writeString(dir.resolve("b.json"), "{\"id\": 2}\n"); // written where it is listed
        long now = System.currentTimeMillis();
        BatchPlanner.Plan plan = planner.plan(state, now);
        assertThat(names(plan.files())).as("moved in after its last write, %s ms ago", now - writtenAt.toMillis())
                .containsExactly("a.json");
        assertThat(names(plan.settling())).as("written in place just now: it may still grow").containsExactly("b.json");

        Files.writeString(inPlace, "{\"id\": 3}\n", StandardOpenOption.APPEND); // its writer goes on: still not taken
        assertThat(names(planner.plan(state, now + 10).settling())).containsExactly("b.json");
    }

    @Test
    void filesTheLimitsLeaveForLaterStaySettled() throws IOException {
        for (String name : new String[] {"a.json", "b.json", "c.json"}) {
            Files.writeString(dir.resolve(name), "{\"id\": 1}\n"); // written in place: they settle by two looks
        }
        IngestConfig config = IngestConfig.builder("settling", dir, SCHEMA).fileSettleTime(Duration.ofSeconds(1)).maxFilesPerTrigger(1).build();
        BatchPlanner continuous = new BatchPlanner(config, new FileDiscovery(dir));
        IngestState state = new IngestState();
        assertThat(continuous.plan(state, 0).files()).isEmpty();
        BatchPlanner.Plan first = continuous.plan(state, 1_000);
        assertThat(names(first.files())).containsExactly("a.json");
        assertThat(first.leftForLater()).isEqualTo(2);
        state.putFile(new IngestedFile("a.json", 10, 97_000, "sha", 1, 0, 0));
        assertThat(names(continuous.plan(state, 1_001).files())).as("settled before: no second wait").containsExactly("b.json");

        BatchPlanner bounded = new BatchPlanner(config, new FileDiscovery(dir));
        IngestState fresh = new IngestState();
        assertThat(names(bounded.plan(fresh, System.currentTimeMillis(), true).files())).containsExactly("a.json");
        fresh.putFile(new IngestedFile("a.json", 10, 97_000, "sha", 1, 0, 0));
        BatchPlanner.Plan next = bounded.plan(fresh, System.currentTimeMillis(), true);
        assertThat(names(next.files())).containsExactly("b.json");
        assertThat(next.settling()).isEmpty();
    }

    @Test
    void fileMinAgeDecidesAloneAndZeroTakesAFileAtFirstSightAsSpark() throws IOException {
        Path old = Files.writeString(dir.resolve("old.json"), "{\"id\": 1}\n");
        Files.setLastModifiedTime(old, FileTime.fromMillis(System.currentTimeMillis() - Duration.ofHours(2).toMillis()));
        Files.writeString(dir.resolve("young.json"), "{\"id\": 2}\n");
        BatchPlanner.Plan byAge = planner(Duration.ofSeconds(1), Duration.ofHours(1)).plan(new IngestState(), System.currentTimeMillis());
        assertThat(names(byAge.files())).containsExactly("old.json");
        assertThat(names(byAge.heldBack())).containsExactly("young.json");
        assertThat(byAge.settling()).isEmpty();

        BatchPlanner.Plan spark = planner(Duration.ZERO, Duration.ZERO).plan(new IngestState(), 0);
        assertThat(names(spark.files())).containsExactly("old.json", "young.json");
    }

    @Test
    void aBoundedRunLooksAgainOnceAndHoldsBackAFileThatKeepsChanging() throws Exception {
        Files.writeString(dir.resolve("whole.json"), "{\"id\": 1}\n");
        Path growing = dir.resolve("growing.json");
        AtomicBoolean writing = new AtomicBoolean(true);
        CountDownLatch started = new CountDownLatch(1);
        Thread writer = new Thread(() -> {
            try (OutputStream out = Files.newOutputStream(growing)) {
                for (int i = 0; writing.get(); i++) {
                    out.write(("{\"id\": " + i + "}\n").getBytes(StandardCharsets.UTF_8));
                    out.flush();
                    started.countDown();
                    Thread.sleep(5); // a logger's pace: a line every few milliseconds
                }
            } catch (IOException | InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        writer.start();
        try {
            started.await();
            BatchPlanner run = planner(Duration.ofMillis(300), Duration.ZERO);
            BatchPlanner.Plan plan = run.plan(new IngestState(), System.currentTimeMillis(), true);
            assertThat(names(plan.files())).as("written whole: taken after the second look").containsExactly("whole.json");
            assertThat(names(plan.settling())).as("still growing at the second look").containsExactly("growing.json");
        } finally {
            writing.set(false);
            writer.join();
        }
        BatchPlanner nextRun = planner(Duration.ofMillis(300), Duration.ZERO);
        BatchPlanner.Plan plan = nextRun.plan(new IngestState(), System.currentTimeMillis(), true);
        assertThat(names(plan.files())).containsExactly("whole.json", "growing.json");
        assertThat(plan.files().get(1).size()).isEqualTo(Files.size(growing));
        assertThat(plan.settling()).isEmpty();
    }
}
