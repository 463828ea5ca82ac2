package io.tributary.delta.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.delta.kernel.data.FilteredColumnarBatch;
import io.delta.kernel.types.IntegerType;
import io.delta.kernel.types.StructType;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.storage.LogStore;
import io.tributary.delta.KernelEngines;
import io.tributary.delta.RowBatch;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Writers racing for one commit of a local Delta log, each with its own log store as separate processes have: one wins. */
class LocalLogStoreTest {
    private static final int WRITERS = 6;
    private static final int ROUNDS = 150;

    private final Configuration conf = KernelEngines.configuration();

    @TempDir
    Path dir;

    private static org.apache.hadoop.fs.Path hadoop(Path p) {
        return new org.apache.hadoop.fs.Path(p.toUri());
    }

    private static List<String> read(LogStore store, Path file, Configuration conf) throws IOException {
        List<String> lines = new ArrayList<>();
        try (var it = store.read(hadoop(file), conf)) {
            it.forEachRemaining(lines::add);
        }
        return lines;
    }

    @Test
    void ofWritersRacingForOneVersionExactlyOneWinsAndItsCommitIsTheFile() throws Exception {
        Path log = Files.createDirectories(dir.resolve("_delta_log"));
        CyclicBarrier start = new CyclicBarrier(WRITERS);
        ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
        try {
            List<Future<List<Integer>>> won = new ArrayList<>();
            for (int w = 0; w < WRITERS; w++) {
                int writer = w;
                won.add(pool.submit(() -> {
                    List<Integer> versions = new ArrayList<>();
                    for (int v = 0; v < ROUNDS; v++) {
                        start.await();
                        LogStore store = new LocalLogStore(conf); // Kernel makes one per write, as each process has its own
                        try {
                            store.write(hadoop(log.resolve(String.format("%020d.json", v))),
                                    List.of("{\"writer\":" + writer + "}", "{\"version\":" + v + "}").iterator(), false, conf);
                            versions.add(v);
                        } catch (FileAlreadyExistsException lost) {
                            // another writer has this version
                        }
                    }
                    return versions;
                }));
            }
            int[] winners = new int[ROUNDS];
            int[] winner = new int[ROUNDS];
            for (int w = 0; w < WRITERS; w++) {
                for (int v : won.get(w).get()) {
                    winners[v]++;
                    winner[v] = w;
                }
            }
            for (int v = 0; v < ROUNDS; v++) {
                assertThat(winners[v]).as("writers told that version %d is theirs", v).isEqualTo(1);
                assertThat(read(new LocalLogStore(conf), log.resolve(String.format("%020d.json", v)), conf))
                        .containsExactly("{\"writer\":" + winner[v] + "}", "{\"version\":" + v + "}");
            }
        } finally {
            pool.shutdownNow();
        }
        try (var files = Files.list(log)) {
            assertThat(files).as("no temporary file is left").hasSize(ROUNDS);
        }
    }

    @Test
    void anOverwriteReplacesTheFileAndACommitThatExistsIsRefused() throws IOException {
        LogStore store = new LocalLogStore(conf);
        Path last = dir.resolve("a table, with spaces").resolve("_delta_log").resolve("_last_checkpoint"); // the folder is created
        store.write(hadoop(last), List.of("{\"version\":10}").iterator(), true, conf);
        store.write(hadoop(last), List.of("{\"version\":20}").iterator(), true, conf);
        assertThat(Files.readAllLines(last)).containsExactly("{\"version\":20}");

        Path commit = last.resolveSibling(String.format("%020d.json", 0));
        store.write(hadoop(commit), List.of("{\"a\":1}").iterator(), false, conf);
        assertThatThrownBy(() -> store.write(hadoop(commit), List.of("{\"b\":2}").iterator(), false, conf))
                .isInstanceOf(FileAlreadyExistsException.class).hasMessageContaining(commit.getFileName().toString());
        assertThat(read(store, commit, conf)).containsExactly("{\"a\":1}");
    }

    @Test
    void anOverwriteOfAFileSparkWroteLeavesNoStaleChecksum() throws IOException {
        Path last = Files.createDirectories(dir.resolve("_delta_log")).resolve("_last_checkpoint");
        Configuration sparks = new Configuration();
        sparks.setBoolean("fs.file.impl.disable.cache", true);
        try (org.apache.hadoop.fs.LocalFileSystem fs = org.apache.hadoop.fs.FileSystem.getLocal(sparks)) {
            try (var out = fs.create(hadoop(last), true)) { // with its .crc, as Spark writes it
                out.write("{\"version\":10}\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
            }
            new LocalLogStore(conf).write(hadoop(last), List.of("{\"version\":20}").iterator(), true, conf);

            assertThat(last.resolveSibling("._last_checkpoint.crc")).doesNotExist();
            try (var in = fs.open(hadoop(last))) { // Hadoop's checksummed read, as Spark reads it
                assertThat(new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8)).isEqualTo("{\"version\":20}\n");
            }
        }
    }

    /**
     * Kernel writes a checkpoint through a temporary file when the log store says a partial write
     * would show: while it is written, nothing is under the checkpoint's name, so a process killed
     * meanwhile leaves no half checkpoint for readers to fail on.
     */
    @Test
    void whileACheckpointIsWrittenNothingIsUnderItsName() throws Exception {
        Path checkpoint = Files.createDirectories(dir.resolve("_delta_log")).resolve("00000000000000000010.checkpoint.parquet");
        StructType schema = new StructType().add("id", IntegerType.INTEGER);
        Iterator<FilteredColumnarBatch> batches = List.of(new FilteredColumnarBatch(new RowBatch(schema, List.<Object[]>of(new Object[] {1})),
                Optional.empty())).iterator();
        CountDownLatch writing = new CountDownLatch(1);
        CountDownLatch finish = new CountDownLatch(1);
        CloseableIterator<FilteredColumnarBatch> slow = new CloseableIterator<>() {
            @Override
            public boolean hasNext() {
                if (!batches.hasNext()) {
                    writing.countDown(); // the first batch is written: the writer waits for more
                    try {
                        finish.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                return batches.hasNext();
            }

            @Override
            public FilteredColumnarBatch next() {
                return batches.next();
            }

            @Override
            public void close() {
            }
        };
        ExecutorService writer = Executors.newSingleThreadExecutor();
        try {
            Future<?> done = writer.submit(() -> {
                KernelEngines.create().getParquetHandler().writeParquetFileAtomically(checkpoint.toUri().toString(), slow);
                return null;
            });
            assertThat(writing.await(30, TimeUnit.SECONDS)).isTrue();
            assertThat(checkpoint).as("the checkpoint's name while it is written").doesNotExist();
            finish.countDown();
            done.get(30, TimeUnit.SECONDS);
        } finally {
            finish.countDown();
            writer.shutdownNow();
        }
        assertThat(checkpoint).isNotEmptyFile();
    }
}
