package io.tributary.source;

import io.tributary.source.internal.SourceErrors;
import java.util.Locale;

/**
 * Where a delta-source without stored progress starts, as Spark's {@code startingVersion} option:
 * {@link #snapshot()} (option absent: the table's current rows, then each new commit),
 * {@link #latest()} (only commits after the current version) or {@link #at(long)} (every commit
 * from that version on, without a snapshot).
 */
public record StartingVersion(Kind kind, long version) {
    public enum Kind { SNAPSHOT, LATEST, VERSION }

    public StartingVersion {
        if (kind == Kind.VERSION && version < 0) {
            throw SourceErrors.negativeStartingVersion(version);
        }
    }

    public static StartingVersion snapshot() {
        return new StartingVersion(Kind.SNAPSHOT, -1);
    }

    public static StartingVersion latest() {
        return new StartingVersion(Kind.LATEST, -1);
    }

    public static StartingVersion at(long version) {
        return new StartingVersion(Kind.VERSION, version);
    }

    /** Reads the option as a user writes it: absent/blank (snapshot), {@code latest}, or a version number. */
    public static StartingVersion parse(String text) {
        if (text == null || text.isBlank()) {
            return snapshot();
        }
        String t = text.strip().toLowerCase(Locale.ROOT);
        if (t.equals("latest")) {
            return latest();
        }
        try {
            return at(Long.parseLong(t));
        } catch (NumberFormatException e) {
            throw SourceErrors.badStartingVersion(text);
        }
    }

    @Override
    public String toString() {
        return switch (kind) {
            case SNAPSHOT -> "(table snapshot)";
            case LATEST -> "latest";
            case VERSION -> String.valueOf(version);
        };
    }
}
