package io.tributary.ingest.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.schema.Printable;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file's name is its bytes: two Latin-1 names that the platform decodes to the same text
 * ({@code caf\uFFFD.json}) are two files. The files are made by their bytes (a {@code file:} URI
 * with percent-escapes is the JDK's byte-level way to name a file), whatever {@code sun.jnu.encoding} is.
 */
class FileNamesTest {
    @TempDir
    Path tmp;

    /** A file of {@code dir} named by the bytes {@code percentEncoded} spells, e.g. {@code caf%E9.json}. */
    static Path byBytes(Path dir, String percentEncoded, String content) throws IOException {
        Files.createDirectories(dir);
        Path p = Path.of(URI.create(dir.toAbsolutePath().toUri() + percentEncoded));
        Files.writeString(p, content);
        return p;
    }

    @Test
    @EnabledOnOs(OS.LINUX) // names that are not UTF-8: Linux file systems take any bytes
    void twoLatin1NamesThatDecodeAlikeAreTwoFiles() throws IOException {
        Path in = tmp.resolve("in");
        Path e9 = byBytes(in, "caf%E9.json", "{\"id\": 1}\n");
        Path e8 = byBytes(in, "caf%E8.json", "{\"id\": 2}\n");
        assertThat(e9.getFileName().toString()).as("what the JDK makes of the name").isEqualTo(e8.getFileName().toString());

        List<FileStat> files = new FileDiscovery(in).list();
        assertThat(files).extracting(FileStat::relPath).doesNotHaveDuplicates().hasSize(2);
        for (FileStat f : files) {
            String expected = Files.readString(f.path()).contains("1") ? "636166e92e6a736f6e" : "636166e82e6a736f6e";
            assertThat(HexFormat.of().formatHex(FileNames.bytes(f.relPath()))).isEqualTo(expected);
            assertThat(FileNames.fromBytes(FileNames.bytes(f.relPath()))).isEqualTo(f.relPath());
            assertThat(Files.isSameFile(FileNames.resolve(in, f.relPath()), f.path())).isTrue();
            assertThat(FileNames.lossyName(f.path(), f.relPath())).isEqualTo("caf\uFFFD.json");
        }
        assertThat(files).extracting(f -> new FileDiscovery(in).display(f.relPath()))
                .containsExactlyInAnyOrder("in/caf\\xE9.json", "in/caf\\xE8.json");
    }

    @Test
    @EnabledOnOs(OS.LINUX)
    void aNameThatIsUtf8StaysItsTextAndIsNotTheLatin1One() throws IOException {
        Path in = tmp.resolve("in");
        byBytes(in, "caf%C3%A9.json", "{}");           // café.json in UTF-8
        byBytes(in, "caf%E9.json", "{}");              // café.json in Latin-1
        byBytes(in, "caf%EF%BF%BD.json", "{}");        // a real U+FFFD, what the Latin-1 name decodes to
        List<String> names = new FileDiscovery(in).list().stream().map(FileStat::relPath).toList();
        assertThat(names).hasSize(3).contains("café.json", "caf\uFFFD.json").doesNotHaveDuplicates();
        assertThat(names.stream().filter(FileNames::hasRawBytes)).singleElement()
                .satisfies(n -> assertThat(Printable.escape(n)).isEqualTo("caf\\xE9.json"));
        assertThat(FileNames.bytes("café.json")).isEqualTo("café.json".getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void bytesRoundTripAndOnlyBytesThatAreNotUtf8AreKeptAside() {
        byte[][] names = {
            "a.json".getBytes(StandardCharsets.UTF_8),
            "日本語 😀.json".getBytes(StandardCharsets.UTF_8),
            {'c', 'a', 'f', (byte) 0xE9, '.', 'j'},
            {(byte) 0xED, (byte) 0xB2, (byte) 0x80}, // an encoded surrogate is not UTF-8
            {(byte) 0xF0, (byte) 0x9F, (byte) 0x98}, // a cut 4-byte sequence
            {(byte) 0xFF, 'x', (byte) 0xC3, (byte) 0xA9, (byte) 0x80},
        };
        for (byte[] b : names) {
            assertThat(FileNames.bytes(FileNames.fromBytes(b))).isEqualTo(b);
        }
        assertThat(FileNames.fromBytes(names[1])).isEqualTo("日本語 😀.json");
        assertThat(FileNames.hasRawBytes(FileNames.fromBytes(names[1]))).isFalse();
        assertThat(Printable.escape(FileNames.fromBytes(names[5]))).isEqualTo("\\xFFxé\\x80");
    }
}
