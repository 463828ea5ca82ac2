package io.tributary.schema;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Sizes as the spec and the CLI write them: bytes ({@code 134217728}) or a whole number of
 * binary units ({@code 128k}, {@code 128m}, {@code 128 MiB}, {@code 1g}, {@code 1 TB}; {@code m}
 * is always 2^20). Callers word the error, since only they know the key or option that held the text.
 */
public final class ByteSizes {
    private static final Pattern SIZE = Pattern.compile("\\s*(\\d+)\\s*([kmgt]?)(?:i?b)?\\s*", Pattern.CASE_INSENSITIVE);

    private ByteSizes() {
    }

    /** The number of bytes {@code text} names; empty when it is null, not a size, or more than a long holds. */
    public static Optional<Long> parse(String text) {
        Matcher m = SIZE.matcher(text == null ? "" : text);
        if (!m.matches() || m.group(1).length() > 18) {
            return Optional.empty();
        }
        int shift = switch (m.group(2).toLowerCase(Locale.ROOT)) {
            case "k" -> 10;
            case "m" -> 20;
            case "g" -> 30;
            case "t" -> 40;
            default -> 0;
        };
        long n = Long.parseLong(m.group(1));
        return n > Long.MAX_VALUE >> shift ? Optional.empty() : Optional.of(n << shift);
    }
}
