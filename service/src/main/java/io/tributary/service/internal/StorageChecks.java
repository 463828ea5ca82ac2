package io.tributary.service.internal;

import io.tributary.service.spec.PipelineSpec;
import io.tributary.service.spec.Settings;
import io.tributary.storage.ObjectLocation;
import io.tributary.storage.ObjectStore;
import io.tributary.storage.Storage;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Checks at start, before the broker starts or anything is written, that every path of the spec
 * in object storage can be reached: the endpoint answers, the credentials are accepted, the
 * bucket exists. A failure is one line naming the key's path and the cause.
 */
public final class StorageChecks {
    private StorageChecks() {
    }

    public static void require(PipelineSpec spec) {
        Map<String, String> what = new LinkedHashMap<>();
        what.put(Settings.FILES_PATH, "input folder");
        what.put(Settings.ARCHIVE_DIR, "archive folder (sourceArchiveDir)");
        what.put(Settings.DELTA_PATH, "source table");
        what.put(Settings.SINK_PATH, "delta table");
        what.forEach((key, name) -> {
            String location = spec.has(key) ? spec.location(key) : null;
            if (location != null && Storage.isObjectStore(location)) {
                require(location, name, spec.storage());
            }
        });
    }

    /** Checks one location (a no-op for a local path). */
    public static void require(String location, String what, Storage storage) {
        if (Storage.isObjectStore(location)) {
            ObjectStore.of(storage).requireReachable(ObjectLocation.parse(location), what);
        }
    }
}
