package io.tributary.sink.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FolderListingTest {
    @TempDir
    java.nio.file.Path dir;

    @Test
    void listsEveryFileInEveryFolderAndNoFolder() throws IOException {
        Files.createDirectories(dir.resolve("_delta_log"));
        Files.createDirectories(dir.resolve("p=1/q=a"));
        Files.createDirectories(dir.resolve("empty"));
        Files.writeString(dir.resolve("a.parquet"), "a");
        Files.writeString(dir.resolve("_delta_log/00000000000000000000.json"), "{}");
        Files.writeString(dir.resolve("p=1/q=a/b.parquet"), "b");

        assertThat(names(dir)).containsExactlyInAnyOrder("a.parquet", "_delta_log/00000000000000000000.json", "p=1/q=a/b.parquet");
    }

    /**
     * Another writer's temporary files come and go while the folder is listed (a commit's
     * {@code .crc} temporary file renamed away): each listing finds the files that stay, and none
     * fails. Hadoop's recursive {@code listFiles} failed here with "ls: cannot access ...".
     */
    @Test
    void filesVanishingWhileListedArePassedOver() throws Exception {
        Files.createDirectories(dir.resolve("_delta_log"));
        Files.createDirectories(dir.resolve("p=1"));
        Files.writeString(dir.resolve("p=1/kept.parquet"), "k");
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger churned = new AtomicInteger();
        Thread writer = new Thread(() -> {
            for (int i = 0; !stop.get(); i++) {
                try {
                    java.nio.file.Path tmp = dir.resolve("_delta_log/.00000000000000000000.crc." + i + ".tmp");
                    java.nio.file.Path sub = dir.resolve("p=1/tmp-" + i);
                    Files.writeString(tmp, "x");
                    Files.createDirectories(sub);
                    Files.writeString(sub.resolve("part.parquet"), "x");
                    Files.delete(tmp);
                    Files.delete(sub.resolve("part.parquet"));
                    Files.delete(sub);
                    churned.incrementAndGet();
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }
        });
        writer.start();
        try {
            int listings = 0;
            while (listings < 200 || churned.get() < 200) {
                assertThat(names(dir)).contains("p=1/kept.parquet");
                listings++;
            }
        } finally {
            stop.set(true);
            writer.join();
        }
    }

    private static Set<String> names(java.nio.file.Path dir) throws IOException {
        FileSystem fs = FileSystem.get(dir.toUri(), new Configuration());
        Path root = fs.makeQualified(new Path(dir.toString()));
        String prefix = root.toString() + "/";
        Set<String> out = new HashSet<>();
        RemoteIterator<FileStatus> it = FolderListing.files(fs, root);
        while (it.hasNext()) {
            out.add(it.next().getPath().toString().substring(prefix.length()));
        }
        return out;
    }
}
