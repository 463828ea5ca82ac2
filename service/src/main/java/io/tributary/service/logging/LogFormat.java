package io.tributary.service.logging;

import io.tributary.service.internal.ServiceErrors;
import java.util.Locale;

/** How log lines look on stderr: {@code text} for people, {@code json} (one object per line) for log shippers. */
public enum LogFormat {
    TEXT, JSON;

    private static volatile LogFormat current = TEXT;

    /** The format every log line takes from now on. */
    public static void use(LogFormat format) {
        current = format;
    }

    public static LogFormat current() {
        return current;
    }

    /** {@code text} or {@code json}, as the {@code log.format} setting says. */
    public static LogFormat parse(String text) {
        try {
            return valueOf(text.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw ServiceErrors.unknownLogFormat(text);
        }
    }
}
