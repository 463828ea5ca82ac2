package io.tributary.connect;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * A local Delta table's folder as a test watches it while writers commit: the latest version, and the data files in the folder
 * that no commit added (a batch's files written, its commit not yet, or never: a writer killed in between). Reads the log's
 * JSON commits itself, so that it can be polled every few milliseconds.
 */
final class TableLog {
    private static final ObjectMapper JSON = new ObjectMapper();

    final Path table;
    /** Per commit read once a later one was there, the paths it added; the latest is read at each look (it may be being written). */
    private final TreeMap<Long, Set<String>> added = new TreeMap<>();

    TableLog(Path table) {
        this.table = table;
    }

    /** The latest version of the table; -1 before its first commit. */
    long version() {
        return commits().stream().mapToLong(TableLog::versionOf).max().orElse(-1);
    }

    /** The data files (relative paths) in the table's folder that no commit added. */
    Set<String> uncommitted() {
        Set<String> all = committed();
        Set<String> out = new HashSet<>();
        try (Stream<Path> files = Files.walk(table)) {
            files.filter(p -> !table.relativize(p).startsWith("_delta_log"))
                    .filter(p -> p.getFileName().toString().endsWith(".parquet") && !p.getFileName().toString().startsWith("."))
                    .map(p -> table.relativize(p).toString().replace('\\', '/'))
                    .filter(p -> !all.contains(p))
                    .forEach(out::add);
        } catch (NoSuchFileException | UncheckedIOException e) {
            // no table yet, or a file deleted while listed (a dropped batch's): the next look sees
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    /** The data files (relative paths) the table's commits added. */
    Set<String> committed() {
        List<Path> commits = commits();
        long latest = commits.stream().mapToLong(TableLog::versionOf).max().orElse(-1);
        Set<String> all = new HashSet<>();
        for (Path c : commits) {
            long v = versionOf(c);
            if (v == latest) {
                all.addAll(addsOf(c));
            } else {
                all.addAll(added.computeIfAbsent(v, x -> addsOf(c)));
            }
        }
        return all;
    }

    /** Reads every commit again at the next look. */
    void forget() {
        added.clear();
    }

    private List<Path> commits() {
        try (Stream<Path> s = Files.list(table.resolve("_delta_log"))) {
            return s.filter(p -> p.getFileName().toString().matches("\\d{20}\\.json")).toList();
        } catch (NoSuchFileException e) {
            return List.of();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static long versionOf(Path commit) {
        return Long.parseLong(commit.getFileName().toString().substring(0, 20));
    }

    private static Set<String> addsOf(Path commit) {
        Set<String> out = new HashSet<>();
        try {
            for (String line : Files.readAllLines(commit)) {
                JsonNode add = line.isBlank() ? null : JSON.readTree(line).get("add");
                if (add != null) {
                    out.add(URLDecoder.decode(add.path("path").asText(), StandardCharsets.UTF_8));
                }
            }
        } catch (IOException e) {
            // a commit read while written: read again at the next look (it is the latest)
        }
        return out;
    }
}
