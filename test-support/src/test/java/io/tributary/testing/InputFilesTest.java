package io.tributary.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InputFilesTest {
    @TempDir
    Path dir;

    @Test
    void aPlacedFileIsWholeUnderItsNameAloneAndWasLastWrittenAWhileAgo() throws Exception {
        long before = System.currentTimeMillis();
        Path f = InputFiles.place(dir.resolve("in"), "a.json", "{\"id\": 1}", "{\"id\": 2}");
        assertThat(f).isEqualTo(dir.resolve("in/a.json")).hasContent("{\"id\": 1}\n{\"id\": 2}\n");
        try (Stream<Path> files = Files.list(dir.resolve("in"))) {
            assertThat(files).containsExactly(f);
        }
        long mtime = Files.getLastModifiedTime(f).toMillis();
        assertThat(mtime).isBetween(before - InputFiles.AGE.toMillis(), System.currentTimeMillis() - InputFiles.AGE.toMillis());
    }

    @Test
    void theQuickstartsInputIsCopiedAsFilesDoneAWhileAgo() throws Exception {
        Path spec = Specs.copyQuickstartExample(dir.resolve("quickstart"));
        try (Stream<Path> files = Files.list(spec.resolveSibling("in"))) {
            assertThat(files).isNotEmpty().allSatisfy(f -> assertThat(Files.getLastModifiedTime(f).toMillis())
                    .isLessThanOrEqualTo(System.currentTimeMillis() - InputFiles.AGE.toMillis()));
        }
    }
}
