package io.tributary.ingest.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.ingest.BadRecord;
import io.tributary.ingest.IngestConfig;
import io.tributary.schema.Schema;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReadAheadTest {
    private static final Schema SCHEMA = Schema.parse("id INT, user STRING, amt DOUBLE, ts TIMESTAMP");

    @TempDir
    Path tmp;

    private IngestConfig config(Path in) {
        return IngestConfig.builder("p", in, SCHEMA).eventTime("ts").rowsPerRecord(2).build();
    }

    private static void write(Path in, String name, long mtimeMs, String... lines) throws IOException {
        Path p = in.resolve(name);
        Files.write(p, List.of(lines));
        Files.setLastModifiedTime(p, FileTime.fromMillis(mtimeMs));
    }

    private static String row(int id, String user) {
        return "{\"id\": " + id + ", \"user\": \"" + user + "\", \"amt\": " + id + ".5, \"ts\": \"2026-01-01T10:0" + id % 10 + ":00Z\"}";
    }

    private Path input() throws IOException {
        Path in = Files.createDirectory(tmp.resolve("in"));
        write(in, "a.json", 1_000, row(1, "a"), row(2, "b"), "{not json", row(3, "c"));
        write(in, "b.json", 2_000, row(4, "a"), row(5, "d"), row(6, "e"), row(7, "f"), row(8, "g"));
        return in;
    }

    private static FileStat stat(Path in, String name) {
        return FileDiscovery.restat(new FileStat(name, in.resolve(name), 0, 0));
    }

    /** What reading the file directly gives, as the records the ingest would send. */
    private static List<String> direct(IngestConfig config, FileStat f, int partitions) throws IOException {
        List<String> out = new ArrayList<>();
        new FilePublisher(config, null, null).read(f, partitions, collect(out));
        return out;
    }

    private static FilePublisher.Out collect(List<String> out) {
        return new FilePublisher.Out() {
            @Override
            public void event(int partition, Long timestampMs, byte[] value) {
                out.add(partition + "@" + timestampMs + ":" + new String(value, java.nio.charset.StandardCharsets.UTF_8));
            }

            @Override
            public void deadLetter(BadRecord record) {
                out.add("bad " + record.file() + ":" + record.line() + " " + record.text());
            }
        };
    }

    private static List<String> replayed(ReadAhead.Prepared p) {
        List<String> out = new ArrayList<>();
        p.replay(collect(out));
        return out;
    }

    /** A read-ahead that has read every file it could. */
    private static ReadAhead started(IngestConfig config, int partitions, long maxBytes) throws InterruptedException {
        ReadAhead ahead = ReadAhead.start(config, partitions, maxBytes);
        assertThat(ahead.finished(10_000)).isTrue();
        return ahead;
    }

    @Test
    void givesWhatReadingTheFileGives() throws Exception {
        Path in = input();
        IngestConfig config = config(in);
        try (ReadAhead ahead = started(config, 2, 1 << 20)) {
            for (String name : List.of("a.json", "b.json")) {
                FileStat f = stat(in, name);
                List<String> expected = new ArrayList<>();
                FileResult result = new FilePublisher(config, null, null).read(f, 2, collect(expected));
                ReadAhead.Prepared p = ahead.take(f, 2);
                assertThat(p).as(name).isNotNull();
                assertThat(p.result()).isEqualTo(result);
                assertThat(replayed(p)).containsExactlyElementsOf(expected);
            }
            assertThat(ahead.take(stat(in, "a.json"), 2)).as("a file is taken once").isNull();
        }
    }

    @Test
    void rowsPackedInBinaryAreReplayedOnlyToAPublisherThatPacksThemSo() throws Exception {
        Path in = input();
        IngestConfig binary = IngestConfig.builder("p", in, SCHEMA).eventTime("ts").rowsPerRecord(2).binaryRows(true).build();
        FilePublisher json = new FilePublisher(config(in), null, null);
        FilePublisher packed = new FilePublisher(binary, null, null);
        assertThat(json.rowsHeader()).isNull();
        assertThat(new String(packed.rowsHeader(), java.nio.charset.StandardCharsets.UTF_8)).startsWith("id INT, user STRING");
        try (ReadAhead ahead = started(binary, 1, 1 << 20)) {
            assertThat(ahead.take(stat(in, "a.json"), 1, json.rowsHeader())).as("packed in binary, asked for JSON").isNull();
            assertThat(ahead.take(stat(in, "b.json"), 1, packed.rowsHeader())).isNotNull();
        }
    }

    @Test
    void keepsBadLinesForTheDeadLetterTopic() throws Exception {
        Path in = input();
        try (ReadAhead ahead = started(config(in), 1, 1 << 20)) {
            ReadAhead.Prepared p = ahead.take(stat(in, "a.json"), 1);
            assertThat(replayed(p)).hasSize(3).contains("bad a.json:3 {not json"); // 2 packs of rows (2 + 1), 1 bad line
            assertThat(p.result().rows()).isEqualTo(3);
            assertThat(p.result().badRows()).isEqualTo(1);
            assertThat(p.result().deadLettered()).isEqualTo(1);
        }
    }

    @Test
    void aFileChangedSinceOrReadForOtherPartitionsIsLeftToTheIngest() throws Exception {
        Path in = input();
        try (ReadAhead ahead = started(config(in), 2, 1 << 20)) {
            Files.writeString(in.resolve("a.json"), row(9, "z") + "\n", StandardOpenOption.APPEND);
            assertThat(ahead.take(stat(in, "a.json"), 2)).as("changed since it was read").isNull();
            assertThat(ahead.take(stat(in, "b.json"), 3)).as("read for 2 partitions, asked for 3").isNull();
        }
    }

    @Test
    void forgetsTheFilesTheIngestLogHolds() throws Exception {
        Path in = input();
        try (ReadAhead ahead = started(config(in), 1, 1 << 20)) {
            ahead.forget(Set.of("a.json"));
            assertThat(ahead.take(stat(in, "a.json"), 1)).isNull();
            assertThat(ahead.take(stat(in, "b.json"), 1)).isNotNull();
        }
    }

    @Test
    void forgetsTheFilesOlderThanTheFilesTheIngestForgot() throws Exception {
        Path in = input();
        try (ReadAhead ahead = started(config(in), 1, 1 << 20)) {
            ahead.forgetIf(f -> f.mtimeMs() < 1_500); // a.json: maxFileAge's line passed it, the ingest never takes it
            assertThat(ahead.take(stat(in, "a.json"), 1)).isNull();
            assertThat(ahead.take(stat(in, "b.json"), 1)).isNotNull();
        }
    }

    @Test
    void passesOverFilesBiggerThanAQuarterOfItsMemory() throws Exception {
        Path in = input();
        long small = Files.size(in.resolve("a.json"));
        assertThat(Files.size(in.resolve("b.json"))).isGreaterThan(small);
        try (ReadAhead ahead = started(config(in), 1, 4 * small)) {
            assertThat(ahead.take(stat(in, "a.json"), 1)).isNotNull();
            assertThat(ahead.take(stat(in, "b.json"), 1)).isNull();
        }
    }

    @Test
    void holdsNoMoreThanItsMemoryUntilTheIngestTakes() throws Exception {
        Path in = Files.createDirectory(tmp.resolve("in"));
        for (int i = 0; i < 8; i++) {
            write(in, "f" + i + ".json", 1_000 + i, row(i, "u" + i), row(i + 1, "v" + i));
        }
        long size = Files.size(in.resolve("f0.json"));
        try (ReadAhead ahead = ReadAhead.start(config(in), 1, 4 * size)) {
            assertThat(ahead.finished(500)).as("waits for room once it holds 4 files' rows").isFalse();
            assertThat(ahead.isRead("f7.json")).isFalse();
            for (int i = 0; i < 8; i++) {
                FileStat f = stat(in, "f" + i + ".json");
                await(f.relPath() + " read ahead").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(5))
                        .until(() -> ahead.isRead(f.relPath()));
                assertThat(ahead.take(f, 1)).as(f.relPath()).isNotNull();
            }
            assertThat(ahead.finished(10_000)).isTrue();
        }
    }
}
