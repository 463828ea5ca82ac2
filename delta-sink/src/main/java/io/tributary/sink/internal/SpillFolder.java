package io.tributary.sink.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * Where an upsert batch spills its keys ({@link SpilledChanges}): a folder per batch under
 * {@code <java.io.tmpdir>/tributary-upsert-spill/}, named after the process, deleted after the batch's commit;
 * the folders of a process that is gone (killed before its commit) are deleted by the next batch that spills.
 */
final class SpillFolder {
    static final String ROOT = "tributary-upsert-spill";
    private static final AtomicLong NEXT = new AtomicLong();

    private SpillFolder() {
    }

    static Path root() {
        return Path.of(System.getProperty("java.io.tmpdir"), ROOT);
    }

    /** A new folder for one batch's runs; first deletes the folders of processes that have ended. */
    static Path create() throws IOException {
        Path root = root();
        Files.createDirectories(root);
        try (Stream<Path> folders = Files.list(root)) {
            folders.filter(SpillFolder::ofEndedProcess).forEach(SpillFolder::delete);
        }
        return Files.createDirectory(root.resolve(ProcessHandle.current().pid() + "-" + NEXT.incrementAndGet()));
    }

    private static boolean ofEndedProcess(Path folder) {
        String name = folder.getFileName().toString();
        int dash = name.indexOf('-');
        try {
            long pid = Long.parseLong(dash < 0 ? name : name.substring(0, dash));
            return pid != ProcessHandle.current().pid() && ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true);
        } catch (NumberFormatException e) {
            return false; // not one of ours
        }
    }

    /** Deletes {@code folder} (null: nothing) and its files; never throws. */
    static void delete(Path folder) {
        if (folder == null || !Files.exists(folder)) {
            return;
        }
        try (Stream<Path> files = Files.walk(folder)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> {
                try {
                    Files.deleteIfExists(f);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException | UncheckedIOException e) {
            // left for the next batch that spills, once this process has ended
        }
    }
}
