package io.tributary.service.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitOption;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A local folder tree's fingerprint: a SHA-256 over every entry's relative path, type, size, last
 * modification and, where the file system tells them, its inode and change time (which no
 * {@code touch} or copy that keeps times can set back). A file added, removed, renamed, written to
 * or replaced, anywhere below the folder, gives another fingerprint. Symbolic links are followed.
 */
final class FolderPrint {
    /** The fingerprint of a folder that is not there. */
    static final String ABSENT = "absent";

    private FolderPrint() {
    }

    /**
     * The fingerprint of {@code folder}, {@link #ABSENT} if it does not exist, or empty if it could
     * not be read whole (a file that went while it was listed, a link loop, no permission).
     */
    static Optional<String> of(Path folder) {
        if (!Files.exists(folder)) {
            return Optional.of(ABSENT);
        }
        MessageDigest digest = sha256();
        try (Stream<Path> walk = Files.walk(folder, FileVisitOption.FOLLOW_LINKS)) {
            List<Path> entries = walk.sorted().toList();
            for (Path p : entries) {
                digest.update(entry(folder, p).getBytes(StandardCharsets.UTF_8));
            }
        } catch (IOException | UncheckedIOException e) {
            return Optional.empty();
        }
        return Optional.of(HexFormat.of().formatHex(digest.digest()));
    }

    private static String entry(Path root, Path p) throws IOException {
        BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
        StringBuilder s = new StringBuilder(root.relativize(p).toString()).append('\0')
                .append(a.isDirectory() ? 'd' : a.isRegularFile() ? 'f' : 'o').append('\0')
                .append(a.size()).append('\0')
                .append(a.lastModifiedTime().toInstant());
        Map<String, Object> unix = unix(p);
        if (unix != null) {
            s.append('\0').append(unix.get("dev")).append(':').append(unix.get("ino")).append('\0').append(unix.get("ctime"));
        }
        return s.append('\n').toString();
    }

    /** The entry's device, inode and change time, or null where the file system has no unix view. */
    private static Map<String, Object> unix(Path p) throws IOException {
        try {
            return Files.readAttributes(p, "unix:dev,ino,ctime");
        } catch (UnsupportedOperationException | IllegalArgumentException e) {
            return null;
        }
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
