package io.tributary.sink.internal;

import io.tributary.delta.RemoteFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Where {@link DirectParquetFiles} puts the data files it writes: in place in a local table's
 * folder, or, for a table on object storage (or any other file system), first in a local
 * temporary file that is uploaded whole once it is complete. Either way a file is in the table's
 * folder before the commit that names it, and a file no commit names (a batch that failed, or a
 * process that died before its commit) is an orphan no reader sees, which VACUUM deletes.
 */
final class DataFileTargets {
    private DataFileTargets() {
    }

    /** The folder of a table's data files, as the Parquet writer sees it. */
    interface Target {
        /** The local file to write {@code name} into. */
        Path local(String name) throws IOException;

        /** Makes the complete local file {@code written} the table's {@code name}; its modification time. */
        long publish(Path written, String name) throws IOException;

        /** Deletes what was written of these files, the unfinished local one ({@code unfinished}, or null) included; never throws. */
        void discard(Path unfinished, List<String> published);

        /** Releases local leftovers after the last file. */
        void finish();
    }

    /** Files written in place in the local folder {@code dir}. */
    static Target local(Path dir) throws IOException {
        Files.createDirectories(dir);
        return new Target() {
            @Override
            public Path local(String name) {
                return dir.resolve(name);
            }

            @Override
            public long publish(Path written, String name) throws IOException {
                return Files.getLastModifiedTime(written).toMillis();
            }

            @Override
            public void discard(Path unfinished, List<String> published) {
                try {
                    if (unfinished != null) {
                        Files.deleteIfExists(unfinished);
                    }
                    for (String name : published) {
                        Files.deleteIfExists(dir.resolve(name));
                    }
                } catch (IOException e) {
                    // an orphan file: no version names it, VACUUM deletes it
                }
            }

            @Override
            public void finish() {
            }
        };
    }

    /** Files written to a local temporary folder, each uploaded to {@code folder} when complete. */
    static Target upload(RemoteFiles folder) {
        return new Target() {
            private Path temp;

            @Override
            public Path local(String name) throws IOException {
                if (temp == null) {
                    temp = Files.createTempDirectory("tributary-parquet-");
                }
                return temp.resolve(name);
            }

            @Override
            public long publish(Path written, String name) throws IOException {
                folder.upload(written, name);
                Files.delete(written);
                return System.currentTimeMillis();
            }

            @Override
            public void discard(Path unfinished, List<String> published) {
                for (String name : published) {
                    try {
                        folder.delete(name);
                    } catch (IOException | RuntimeException e) {
                        // an orphan object: no version names it, VACUUM deletes it
                    }
                }
                finish();
            }

            @Override
            public void finish() {
                if (temp == null) {
                    return;
                }
                try (var files = Files.list(temp)) {
                    for (Path f : files.toList()) {
                        Files.deleteIfExists(f);
                    }
                    Files.deleteIfExists(temp);
                } catch (IOException e) {
                    temp.toFile().deleteOnExit();
                }
                temp = null;
            }
        };
    }
}
