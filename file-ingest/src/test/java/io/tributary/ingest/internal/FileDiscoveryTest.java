package io.tributary.ingest.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.schema.TributaryException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileDiscoveryTest {
    @TempDir
    Path tmp;

    private Path write(Path dir, String name, String content, long mtimeMs) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, content);
        Files.setLastModifiedTime(p, FileTime.fromMillis(mtimeMs));
        return p;
    }

    private static List<String> names(List<FileStat> files) {
        return files.stream().map(FileStat::relPath).toList();
    }

    @Test
    void oldestModificationTimeFirstThenName() throws IOException {
        Path in = Files.createDirectory(tmp.resolve("in"));
        write(in, "c.json", "{}", 1_000);
        write(in, "b.json", "{}", 2_000);
        write(in, "a.json", "{}", 2_000);
        write(in, "z.json", "{}", 500);
        assertThat(names(new FileDiscovery(in).list())).containsExactly("z.json", "c.json", "a.json", "b.json");
    }

    @Test
    void dotAndUnderscoreNamesAndFoldersAreIgnored() throws IOException {
        Path in = Files.createDirectory(tmp.resolve("in"));
        write(in, "a.json", "{}", 1_000);
        write(in, ".b.json.tmp", "{}", 1_000);
        write(in, "_SUCCESS", "", 1_000);
        write(in, "_tmp.json", "{}", 1_000);
        Path sub = Files.createDirectory(in.resolve("sub"));
        write(sub, "deep.json", "{}", 1_000);
        assertThat(names(new FileDiscovery(in).list())).containsExactly("a.json");
    }

    @Test
    void symlinkInsideTheFolderIsFollowedOutsideIsNot() throws IOException {
        Path in = Files.createDirectory(tmp.resolve("in"));
        Path outside = Files.createDirectory(tmp.resolve("elsewhere"));
        Path secret = write(outside, "secret.json", "{\"x\":1}", 1_000);
        Path real = write(in, "_real.json", "{\"x\":2}\n", 1_000);
        Files.createSymbolicLink(in.resolve("out-link.json"), secret);
        Files.createSymbolicLink(in.resolve("in-link.json"), real);
        Files.createSymbolicLink(in.resolve("dangling.json"), tmp.resolve("nothing-here"));
        List<FileStat> files = new FileDiscovery(in).list();
        assertThat(names(files)).containsExactly("in-link.json");
        assertThat(files.get(0).size()).isEqualTo(8);
    }

    @Test
    void maxFilesPerTriggerTakesTheFirstN() {
        List<FileStat> files = List.of(stat("a", 10), stat("b", 10), stat("c", 10));
        assertThat(names(FileDiscovery.select(files, 2, Long.MAX_VALUE))).containsExactly("a", "b");
        assertThat(names(FileDiscovery.select(files, Integer.MAX_VALUE, Long.MAX_VALUE))).containsExactly("a", "b", "c");
    }

    @Test
    void maxBytesPerTriggerStopsBeforeTheLimitButTakesAtLeastOneFile() {
        List<FileStat> files = List.of(stat("a", 40), stat("b", 40), stat("c", 40));
        assertThat(names(FileDiscovery.select(files, Integer.MAX_VALUE, 100))).containsExactly("a", "b");
        assertThat(names(FileDiscovery.select(files, Integer.MAX_VALUE, 80))).containsExactly("a", "b");
        assertThat(names(FileDiscovery.select(files, Integer.MAX_VALUE, 10))).containsExactly("a");
        assertThat(names(FileDiscovery.select(files, 1, 1000))).containsExactly("a");
    }

    @Test
    void missingFolderIsAClearError() {
        assertThatThrownBy(() -> new FileDiscovery(tmp.resolve("nope")).list())
                .isInstanceOf(TributaryException.class)
                .hasMessageContaining("does not exist").hasMessageContaining("source.files.path");
    }

    @Test
    void displayNameStartsWithTheFolder() {
        assertThat(new FileDiscovery(tmp.resolve("in")).display("a.json")).isEqualTo("in/a.json");
    }

    private FileStat stat(String name, long size) {
        return new FileStat(name, tmp.resolve(name), size, 0);
    }
}
