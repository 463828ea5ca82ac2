package io.tributary.delta;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.delta.kernel.defaults.engine.DefaultEngine;
import io.delta.kernel.engine.FileSystemClient;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.FileStatus;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Tributary's engine lists a local Delta log exactly as Kernel's default engine does, only cheaper. */
class LocalListingFileSystemClientTest {
    private final FileSystemClient ours = KernelEngines.create().getFileSystemClient();
    private final FileSystemClient kernels = DefaultEngine.create(KernelEngines.configuration()).getFileSystemClient();

    @TempDir
    Path tmp;

    @Test
    void listsTheSameFilesPathsSizesAndTimesAsKernelsDefaultEngine() throws IOException {
        Path log = Files.createDirectories(tmp.resolve("a table, with spaces").resolve("_delta_log"));
        long time = Instant.parse("2026-01-02T03:04:05.678Z").toEpochMilli();
        for (String name : List.of("00000000000000000000.json", "00000000000000000000.crc", "00000000000000000001.json",
                "00000000000000000001.crc", "00000000000000000002.checkpoint.parquet", "00000000000000000002.json",
                "_last_checkpoint")) {
            Files.writeString(log.resolve(name), "x".repeat(name.length()));
            Files.setLastModifiedTime(log.resolve(name), FileTime.fromMillis(time += 1000));
        }
        Files.createDirectories(log.resolve("_staged_commits"));
        String logPath = kernels.resolvePath(log.toString());
        assertThat(logPath).startsWith("file:/");

        for (String from : List.of("00000000000000000000", "00000000000000000001", "00000000000000000002.checkpoint",
                "00000000000000000003", "_", "0")) {
            List<String> expected = list(kernels, logPath + "/" + from);
            assertThat(list(ours, logPath + "/" + from)).as("listFrom %s", from).isEqualTo(expected);
        }
        assertThat(list(ours, logPath + "/00000000000000000001")).first().asString()
                .isEqualTo(logPath + "/00000000000000000001.crc 24 " + (Instant.parse("2026-01-02T03:04:05.678Z").toEpochMilli() + 4000));
    }

    @Test
    void aMissingLogFolderIsFileNotFoundAsWithKernelsEngine() throws IOException {
        String missing = kernels.resolvePath(tmp.resolve("no table").toString()) + "/_delta_log/00000000000000000000";
        assertThatThrownBy(() -> list(kernels, missing)).isInstanceOf(FileNotFoundException.class);
        assertThatThrownBy(() -> list(ours, missing)).isInstanceOf(FileNotFoundException.class);
    }

    private static List<String> list(FileSystemClient client, String from) throws IOException {
        List<String> out = new ArrayList<>();
        try (CloseableIterator<FileStatus> it = client.listFrom(from)) {
            while (it.hasNext()) {
                FileStatus f = it.next();
                out.add(f.getPath() + " " + f.getSize() + " " + f.getModificationTime());
            }
        }
        return out;
    }
}
