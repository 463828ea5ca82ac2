package io.tributary.ingest;

import static io.tributary.ingest.IngestKit.readCommitted;
import static io.tributary.ingest.IngestKit.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.tributary.broker.BrokerExtension;
import io.tributary.schema.Progress;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Arrays;
import java.util.List;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Compressed files that cannot be decoded (cut short, damaged, not of their codec): the batch stops
 * with one line naming the file, the codec and where it broke, and publishes nothing; with Spark's
 * {@code ignoreCorruptFiles}, the rows before the break are published, the rest skipped, and the file
 * counted, named in the progress and never read again. A compressed file of 0 bytes has no rows, as in Spark.
 */
@Tag("integration")
@Timeout(180)
class CorruptFilesTest {
    static final Schema SCHEMA = Schema.parse("id INT");

    @TempDir
    static Path tmp;
    @RegisterExtension
    static final BrokerExtension KAFKA = new BrokerExtension();

    private static byte[] gzip(int lines) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (OutputStream out = new GZIPOutputStream(bytes)) {
            for (int i = 0; i < lines; i++) {
                out.write(("{\"id\": " + i + "}\n").getBytes(StandardCharsets.UTF_8));
            }
        }
        return bytes.toByteArray();
    }

    /** The whole lines a gzip reader gets from {@code cut} before it breaks off. */
    private static int linesBeforeTheBreak(byte[] cut) {
        int n = 0;
        byte[] buf = new byte[8192];
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(cut))) {
            int r;
            while ((r = in.read(buf)) >= 0) {
                for (int i = 0; i < r; i++) {
                    if (buf[i] == '\n') {
                        n++;
                    }
                }
            }
        } catch (IOException e) {
            return n; // the break
        }
        throw new AssertionError("the cut file read whole");
    }

    private static void write(Path dir, String name, byte[] content, long mtimeMs) throws IOException {
        Files.createDirectories(dir);
        Path p = dir.resolve(name);
        Files.write(p, content);
        Files.setLastModifiedTime(p, FileTime.fromMillis(mtimeMs));
    }

    @Test
    void aTruncatedGzipStopsTheBatchNamingTheFileTheCodecAndWhereItBroke() throws Exception {
        IngestConfig config = IngestConfig.builder(IngestKit.uniquePipeline("cut"), tmp.resolve("cut/in"), SCHEMA).build();
        IngestKit.createTopics(KAFKA.broker(), config, 1);
        byte[] whole = gzip(20_000);
        byte[] cut = Arrays.copyOf(whole, whole.length / 2);
        write(config.inputDir(), "a.json", "{\"id\": -1}\n".getBytes(StandardCharsets.UTF_8), 1_000);
        write(config.inputDir(), "b.json.gz", cut, 2_000);
        try (FileIngest ingest = new FileIngest(config, IngestKit.props(KAFKA.broker()))) {
            TributaryException e = catchThrowableOfType(TributaryException.class, ingest::runBatch);
            assertThat(e).isNotNull();
            assertThat(e.getMessage()).doesNotContain("\n")
                    .startsWith("file in/b.json.gz: the gzip data is cut short or damaged after line " + linesBeforeTheBreak(cut)
                            + " (decoding failed at byte ")
                    .contains(" of " + cut.length + "): Unexpected end of ZLIB input stream")
                    .contains("set source.files.ignoreCorruptFiles: true")
                    .doesNotContain("permissions");
        }
        assertThat(readCommitted(KAFKA.broker(), config.eventsTopic())).as("nothing of the batch").isEmpty();
    }

    @Test
    void ignoreCorruptFilesKeepsTheRowsBeforeTheBreakCountsTheFileAndNeverReadsItAgain() throws Exception {
        Path dir = tmp.resolve("ignore/in");
        IngestConfig config = IngestConfig.builder(IngestKit.uniquePipeline("ignore"), dir, SCHEMA).ignoreCorruptFiles(true).build();
        IngestKit.createTopics(KAFKA.broker(), config, 1);
        byte[] whole = gzip(20_000);
        byte[] cut = Arrays.copyOf(whole, whole.length / 2);
        int kept = linesBeforeTheBreak(cut);
        write(dir, "a.json", "{\"id\": -1}\n".getBytes(StandardCharsets.UTF_8), 1_000);
        write(dir, "b.json.gz", cut, 2_000);
        write(dir, "c.json.zst", "not zstandard at all\n".getBytes(StandardCharsets.UTF_8), 3_000);
        write(dir, "d.json.bz2", "BZh9 but no bzip2 blocks follow".getBytes(StandardCharsets.UTF_8), 4_000);
        write(dir, "e.json.gz", new byte[0], 5_000); // empty: no rows, no error
        write(dir, "f.json", "{\"id\": -2}\n".getBytes(StandardCharsets.UTF_8), 6_000);
        try (FileIngest ingest = new FileIngest(config, IngestKit.props(KAFKA.broker()))) {
            Progress p = ingest.runBatch().orElseThrow();
            assertThat(p.numInputRows()).isEqualTo(kept + 2);
            assertThat(p.sources().get(0).metrics()).containsEntry("numFilesCorrupt", 3L)
                    .containsEntry("corruptFiles", List.of("b.json.gz", "c.json.zst", "d.json.bz2"))
                    .containsEntry("numFiles", 6L);
            assertThat(ingest.runBatch()).as("a corrupt file is not read again").isEmpty();
            SkippedFiles skipped = ingest.endRun();
            assertThat(skipped.corrupt()).containsExactly("in/b.json.gz", "in/c.json.zst", "in/d.json.bz2");
        }
        try (FileIngest ingest = new FileIngest(config, IngestKit.props(KAFKA.broker()))) {
            assertThat(ingest.runBatch()).as("nor by the next run").isEmpty();
        }
        List<String> rows = readCommitted(KAFKA.broker(), config.eventsTopic()).stream().map(r -> text(r.value())).toList();
        assertThat(rows).hasSize(kept + 2).startsWith("{\"id\":-1}", "{\"id\":0}", "{\"id\":1}")
                .endsWith("{\"id\":" + (kept - 1) + "}", "{\"id\":-2}");
    }

    @Test
    void anEmptyCompressedFileHasNoRowsAsInSpark() throws Exception {
        Path dir = tmp.resolve("empty/in");
        IngestConfig config = IngestConfig.builder(IngestKit.uniquePipeline("empty"), dir, SCHEMA).build();
        IngestKit.createTopics(KAFKA.broker(), config, 1);
        write(dir, "a.json.gz", new byte[0], 1_000);
        write(dir, "b.json.zst", new byte[0], 2_000);
        write(dir, "c.json", "{\"id\": 1}\n".getBytes(StandardCharsets.UTF_8), 3_000);
        try (FileIngest ingest = new FileIngest(config, IngestKit.props(KAFKA.broker()))) {
            Progress p = ingest.runBatch().orElseThrow();
            assertThat(p.numInputRows()).isEqualTo(1);
            assertThat(p.sources().get(0).metrics()).containsEntry("numFiles", 3L).containsEntry("numFilesCorrupt", 0L);
        }
    }
}
