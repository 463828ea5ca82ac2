package io.tributary.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;

/**
 * Input files as a user places them in a pipeline's folder: written whole elsewhere (under a
 * dot-name, which the source skips) and renamed in. Such a file keeps the modification time of its
 * writing, which is some time before the rename; the file source takes a file that old at the first
 * listing ({@code source.files.fileSettleTime}). A file that a test writes and runs a pipeline on
 * within the same millisecond would look like one still being written instead, and each run would
 * wait out the settle time, so the files placed here are given a modification time {@link #AGE} ago.
 * Tests about files written in place ({@code FilesBeingWrittenTest}) write them in place themselves.
 */
public final class InputFiles {
    /** How long before now a placed file was last written: well past the default fileSettleTime (1 s). */
    public static final Duration AGE = Duration.ofSeconds(10);

    private InputFiles() {
    }

    /** Places {@code content} in {@code folder} as {@code name} (written under a dot-name, renamed in, {@link #AGE} old); its path. */
    public static Path place(Path folder, String name, byte[] content) {
        try {
            Files.createDirectories(folder);
            Path tmp = folder.resolve("." + name + ".tmp");
            Files.write(tmp, content);
            settled(tmp);
            return Files.move(tmp, folder.resolve(name));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@link #place(Path, String, byte[])} of {@code lines}, each ended by a newline. */
    public static Path place(Path folder, String name, String... lines) {
        return place(folder, name, (String.join("\n", lines) + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    /** Gives {@code file} the modification time of one written {@link #AGE} ago, as a file that is done; {@code file}. */
    public static Path settled(Path file) {
        try {
            Files.setLastModifiedTime(file, FileTime.fromMillis(System.currentTimeMillis() - AGE.toMillis()));
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
