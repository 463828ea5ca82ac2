package io.tributary.service.spec;

import io.tributary.ingest.FileFormat;
import io.tributary.schema.TributaryException;
import io.tributary.service.spec.internal.SpecErrors;
import io.tributary.settings.Setting;
import java.util.Locale;

/** The spec's keys by other names: an environment variable's key, and the key a mistyped one likely means. */
final class SpecKeys {
    private SpecKeys() {
    }

    /** {@code TRIBUTARY_SOURCE_FILES_MAXFILESPERTRIGGER} → {@code source.files.maxFilesPerTrigger}; Kafka keys pass through. */
    static String fromEnv(String name) {
        if (!name.startsWith("TRIBUTARY_")) {
            return null;
        }
        for (Setting<?> s : Settings.ALL) {
            if (!s.isPrefix() && s.envName().equals(name)) {
                return s.key();
            }
        }
        for (Setting<?> s : Settings.ALL) {
            String prefix = s.envName() + "_";
            if (s.isPrefix() && name.startsWith(prefix)) {
                return s.key() + "." + name.substring(prefix.length()).toLowerCase(Locale.ROOT).replace('_', '.');
            }
        }
        return null; // not a key: Settings.NOT_KEYS, or a mistake
    }

    static TributaryException unknownVariable(String name) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (Setting<?> s : Settings.ALL) {
            int d = distance(name, s.envName());
            if (d < bestDistance) {
                bestDistance = d;
                best = s.envName();
            }
        }
        String closest = bestDistance <= Math.max(3, name.length() / 6) ? best : null;
        return SpecErrors.unknownVariable(name, closest, Settings.NOT_KEYS.keySet());
    }

    /** The key {@code key} likely means, or null when none is close. */
    static String closest(String key) {
        if (key.startsWith("source.files.") && key.indexOf('.', "source.files.".length()) < 0) {
            String option = FileFormat.optionNamed(key.substring("source.files.".length()));
            if (option != null) { // a format's option given beside the format rather than under options
                return "source.files.options." + option;
            }
        }
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (Setting<?> s : Settings.ALL) {
            int d = distance(key.toLowerCase(Locale.ROOT), s.key().toLowerCase(Locale.ROOT));
            if (d < bestDistance) {
                bestDistance = d;
                best = s.key();
            }
        }
        return bestDistance <= Math.max(3, key.length() / 3) ? best : null;
    }

    static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }
}
