package io.tributary.service;

import io.tributary.service.internal.StorageChecks;
import io.tributary.storage.Storage;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * The storage settings of a command that takes a table path rather than a spec: the environment's
 * {@code TRIBUTARY_STORAGE_*} variables ({@code TRIBUTARY_STORAGE_FS_S3A_ENDPOINT} is
 * {@code fs.s3a.endpoint}), then {@code --storage key=value}.
 */
final class StorageOptions {
    @Option(names = "--storage", paramLabel = "KEY=VALUE",
            description = "a setting of the table's file system, as the spec's storage: map, e.g. --storage fs.s3a.endpoint=http://127.0.0.1:9000 (repeatable)")
    Map<String, String> settings = new LinkedHashMap<>();

    Storage storage() {
        Map<String, String> all = new LinkedHashMap<>();
        System.getenv().forEach((k, v) -> {
            if (k.startsWith("TRIBUTARY_STORAGE_")) {
                all.put(k.substring("TRIBUTARY_STORAGE_".length()).toLowerCase(Locale.ROOT).replace('_', '.'), v);
            }
        });
        all.putAll(settings);
        return Storage.of(all);
    }

    /** The storage of {@code table}, checked first when it is in object storage (one line naming the table and the cause). */
    Storage forTable(String table) {
        Storage s = storage();
        StorageChecks.require(table, "table", s);
        return s;
    }
}
