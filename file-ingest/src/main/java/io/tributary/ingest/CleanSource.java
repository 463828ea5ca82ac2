package io.tributary.ingest;

import io.tributary.ingest.internal.FileNames;
import io.tributary.ingest.internal.IngestErrors;
import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Locale;

/**
 * What becomes of an input file once the transaction that published it has committed, as
 * Spark's file-source option {@code cleanSource}: {@link Off} (the default: it stays),
 * {@link Archive} (moved under {@code sourceArchiveDir}) or {@link Delete}. Never before the
 * commit: a file is only cleaned once the ingest log holds it, so a crash in between leaves a
 * file that the next start cleans without publishing it again.
 */
public interface CleanSource {
    CleanSource OFF = new Off();
    CleanSource DELETE = new Delete();

    /** The spec's name: {@code off}, {@code archive} or {@code delete}. */
    String name();

    /**
     * Removes {@code file} ({@code relPath} in the input folder) from the input folder.
     *
     * @return what was done, for the log ("archived to ...", "deleted"), or null when nothing was
     */
    String clean(Path file, String relPath) throws IOException;

    /** Moves files under {@code archiveDir}, keeping their path relative to the input folder. */
    static CleanSource archiveTo(Path archiveDir) {
        return new Archive(archiveDir, archiveDir.toString());
    }

    /** Moves files under {@code location}: a local folder, or a folder in object storage ({@code s3a://bucket/archive/}). */
    static CleanSource archiveTo(String location) {
        return io.tributary.storage.Storage.isObjectStore(location) ? new Archive(null, location) : archiveTo(Path.of(location));
    }

    /** As {@link #forName(String, Path)}, the archive folder a path or a URI. */
    static CleanSource forLocation(String name, String archiveLocation) {
        if (archiveLocation != null && io.tributary.storage.Storage.isObjectStore(archiveLocation)
                && "archive".equals(name == null ? null : name.strip().toLowerCase(Locale.ROOT))) {
            return archiveTo(archiveLocation);
        }
        return forName(name, archiveLocation == null ? null : Path.of(archiveLocation));
    }

    /**
     * The policy of the spec's {@code cleanSource} value ({@code off}, {@code archive},
     * {@code delete}, case-insensitive; null is {@code off}); {@code archiveDir} is
     * {@code sourceArchiveDir}, needed by {@code archive} only.
     */
    static CleanSource forName(String name, Path archiveDir) {
        String n = name == null ? "off" : name.strip().toLowerCase(Locale.ROOT);
        return switch (n) {
            case "off" -> OFF;
            case "delete" -> DELETE;
            case "archive" -> {
                if (archiveDir == null) {
                    throw IngestErrors.archiveWithoutDir();
                }
                yield archiveTo(archiveDir);
            }
            default -> throw IngestErrors.unknownCleanSource(name);
        };
    }

    /** Spark's default: ingested files stay where they are. */
    final class Off implements CleanSource {
        private Off() {
        }

        @Override
        public String name() {
            return "off";
        }

        @Override
        public String clean(Path file, String relPath) {
            return null;
        }
    }

    /** Deletes ingested files. */
    final class Delete implements CleanSource {
        private Delete() {
        }

        @Override
        public String name() {
            return "delete";
        }

        @Override
        public String clean(Path file, String relPath) throws IOException {
            return Files.deleteIfExists(file) ? "deleted" : null;
        }
    }

    /**
     * Moves ingested files to {@code dir/relPath}. Spark keeps a file's whole path under the
     * archive folder ({@code /archive/data/in/a.json}); Tributary keeps only its path relative to
     * the input folder ({@code /archive/a.json}). A name already taken in the archive gets a
     * numbered suffix ({@code a.json.1}), except when the file there is this very one, moved by a
     * run that died before it removed the original: the original is then removed.
     */
    final class Archive implements CleanSource {
        private final Path dir;
        private final String location;

        private Archive(Path dir, String location) {
            this.dir = dir;
            this.location = location;
        }

        /** The local archive folder; null for one in object storage. */
        public Path dir() {
            return dir;
        }

        /** The archive folder as given: a path or a URI. */
        public String location() {
            return location;
        }

        /** Spark refuses an archive folder its source could read; Tributary refuses one inside the input folder. */
        void requireOutside(String key, Path inputDir) {
            if (within(dir, inputDir)) {
                throw IngestErrors.archiveInsideInput(key, dir, inputDir);
            }
        }

        private static boolean within(Path child, Path parent) {
            Path c = child.toAbsolutePath().normalize();
            Path p = parent.toAbsolutePath().normalize();
            if (c.startsWith(p)) {
                return true;
            }
            try { // through symbolic links: compare where the deepest existing folders really are
                return real(c).startsWith(real(p));
            } catch (IOException e) {
                return false;
            }
        }

        private static Path real(Path p) throws IOException {
            Path existing = p;
            while (existing != null && !Files.exists(existing)) {
                existing = existing.getParent();
            }
            if (existing == null) {
                return p;
            }
            return existing.toRealPath().resolve(existing.relativize(p));
        }

        @Override
        public String name() {
            return "archive";
        }

        @Override
        public String clean(Path file, String relPath) throws IOException {
            BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
            Path target = FileNames.resolve(dir, relPath); // the name's exact bytes, also when they are not UTF-8
            Files.createDirectories(target.getParent());
            for (int n = 1; ; n++) {
                if (Files.exists(target) && sameFile(target, a)) {
                    Files.delete(file); // moved by a copy that died before it removed the original
                    return "archived to " + target;
                }
                if (!Files.exists(target)) {
                    try {
                        move(file, target);
                        return "archived to " + target;
                    } catch (FileAlreadyExistsException e) {
                        // taken meanwhile: try the next name
                    }
                }
                target = FileNames.resolve(dir, relPath + "." + n);
            }
        }

        private static boolean sameFile(Path target, BasicFileAttributes source) throws IOException {
            BasicFileAttributes t = Files.readAttributes(target, BasicFileAttributes.class);
            return t.size() == source.size() && t.lastModifiedTime().equals(source.lastModifiedTime());
        }

        /** A rename when both folders are on one file system; else a copy (kept whole by a rename) and a delete. */
        private static void move(Path file, Path target) throws IOException {
            try {
                Files.move(file, target, StandardCopyOption.ATOMIC_MOVE);
                return;
            } catch (AtomicMoveNotSupportedException e) {
                // another file system
            }
            Path tmp = FileNames.resolve(target.getParent(), "." + FileNames.of(target) + ".tributary-tmp");
            Files.copy(file, tmp, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.COPY_ATTRIBUTES);
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
            Files.delete(file);
        }
    }
}
