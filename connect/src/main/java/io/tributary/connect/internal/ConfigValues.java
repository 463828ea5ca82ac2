package io.tributary.connect.internal;

import io.tributary.storage.Storage;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

/**
 * Config values written as the pipeline spec writes them: durations as Spark does ({@code 10 seconds},
 * {@code 500 ms}), sizes as {@code 128m} or {@code 16 MiB}; and {@link ConfigDef} validators that
 * name the key with the stage's own message.
 */
public final class ConfigValues {
    private static final Pattern DURATION = Pattern.compile("\\s*(\\d+)\\s*([a-z]+)\\s*", Pattern.CASE_INSENSITIVE);
    private static final Pattern SIZE = Pattern.compile("\\s*(\\d+)\\s*([kmgt]?)(i?b)?\\s*", Pattern.CASE_INSENSITIVE);

    private ConfigValues() {
    }

    /** A duration such as {@code 10 seconds}, {@code 5 minutes}, {@code 500 ms}. */
    public static Duration duration(String key, String text) {
        Matcher m = DURATION.matcher(text == null ? "" : text);
        if (m.matches()) {
            long n = Long.parseLong(m.group(1));
            switch (m.group(2).toLowerCase(Locale.ROOT)) {
                case "ms", "millis", "millisecond", "milliseconds":
                    return Duration.ofMillis(n);
                case "s", "sec", "secs", "second", "seconds":
                    return Duration.ofSeconds(n);
                case "m", "min", "mins", "minute", "minutes":
                    return Duration.ofMinutes(n);
                case "h", "hour", "hours":
                    return Duration.ofHours(n);
                default:
                    break;
            }
        }
        throw new ConfigException(key, text, "expected a duration such as \"10 seconds\", \"5 minutes\" or \"500 ms\"");
    }

    /** A size in bytes such as {@code 128m}, {@code 16 MiB}, {@code 1048576}. */
    public static long bytes(String key, String text) {
        Matcher m = SIZE.matcher(text == null ? "" : text);
        if (m.matches()) {
            long n = Long.parseLong(m.group(1));
            int shift = switch (m.group(2).toLowerCase(Locale.ROOT)) {
                case "k" -> 10;
                case "m" -> 20;
                case "g" -> 30;
                case "t" -> 40;
                default -> 0;
            };
            if (n > 0) {
                return n << shift;
            }
        }
        throw new ConfigException(key, text, "expected a positive size such as \"128m\", \"16 MiB\" or \"1048576\"");
    }

    /** A validator that runs {@code parse} and turns its error into one that names the key. */
    public static ConfigDef.Validator by(Function<String, ?> parse) {
        return (name, value) -> {
            if (value == null) {
                return;
            }
            try {
                parse.apply(value.toString());
            } catch (ConfigException e) {
                throw e;
            } catch (RuntimeException e) {
                throw new ConfigException(name, value, e.getMessage());
            }
        };
    }

    /** The prefix of the keys passed to the file system of paths on object storage ({@code storage.fs.s3a.endpoint}). */
    public static final String STORAGE_PREFIX = "storage.";

    /** The {@link #STORAGE_PREFIX}ed keys of a connector's config, without the prefix: a spec's {@code storage:} map. */
    public static Storage storage(Map<String, String> props) {
        Map<String, String> settings = new TreeMap<>();
        props.forEach((k, v) -> {
            if (k.startsWith(STORAGE_PREFIX) && v != null) {
                settings.put(k.substring(STORAGE_PREFIX.length()), v);
            }
        });
        return settings.isEmpty() ? Storage.NONE : Storage.of(settings);
    }

    /** The plugin's version, as the build wrote it. */
    public static String version() {
        try (InputStream in = ConfigValues.class.getResourceAsStream("/io/tributary/connect/version.properties")) {
            Properties p = new Properties();
            if (in != null) {
                p.load(in);
            }
            return p.getProperty("version", "unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }
}
