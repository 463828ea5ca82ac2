package io.tributary.service.bench;

import io.tributary.storage.ObjectLocation;
import io.tributary.storage.ObjectStore;
import io.tributary.storage.Storage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The bench against object storage, from its {@code --set} settings: an input path in object
 * storage gets the generated files uploaded once; a table path there becomes one table per run
 * below it (a cold start each time); {@code storage.*} settings reach the server.
 */
public final class BenchStorage {
    private static final String INPUT = "source.files.path";
    private static final String TABLE = "sink.delta.path";

    private final String input;
    private final String tables;
    private final Storage storage;
    /** Names this bench's tables below the prefix, apart from those of earlier benches. */
    private final String benchId = "bench-" + System.currentTimeMillis();

    private BenchStorage(String input, String tables, Storage storage) {
        this.input = input;
        this.tables = tables;
        this.storage = storage;
    }

    public static BenchStorage of(List<String> settings) {
        Map<String, String> storage = new LinkedHashMap<>();
        String input = null;
        String tables = null;
        for (String s : settings) {
            int eq = s.indexOf('=');
            if (eq < 0) {
                continue;
            }
            String k = s.substring(0, eq).strip();
            String v = s.substring(eq + 1).strip();
            if (k.startsWith("storage.")) {
                storage.put(k.substring("storage.".length()), v);
            } else if (k.equals(INPUT) && Storage.isObjectStore(v)) {
                input = v;
            } else if (k.equals(TABLE) && Storage.isObjectStore(v)) {
                tables = v;
            }
        }
        return new BenchStorage(input, tables, Storage.of(storage));
    }

    /** The input folder in object storage, or null when the input is local. */
    public String input() {
        return input;
    }

    /** Uploads the files of {@code folder} under the input location. */
    public void upload(Path folder) throws IOException {
        ObjectStore store = ObjectStore.of(storage);
        ObjectLocation target = ObjectLocation.parse(input);
        try (Stream<Path> files = Files.list(folder)) {
            for (Path f : files.sorted().toList()) {
                store.put(target.child(f.getFileName().toString()), f);
            }
        }
    }

    /**
     * The run's {@code --set} settings: a new table below the tables' prefix ({@code bench-<ms>/<run>/},
     * so that a later bench with the same prefix starts from new tables too), and an empty input
     * prefix for the empty-folder run.
     */
    public List<String> settingsFor(List<String> settings, String run, boolean emptyInput) {
        List<String> out = new ArrayList<>();
        for (String s : settings) {
            if (tables != null && s.strip().startsWith(TABLE + "=")) {
                out.add(TABLE + "=" + ObjectLocation.parse(tables).child(benchId).child(run) + "/");
            } else if (input != null && emptyInput && s.strip().startsWith(INPUT + "=")) {
                out.add(INPUT + "=" + ObjectLocation.parse(input) + "-empty/");
            } else {
                out.add(s);
            }
        }
        return out;
    }
}
