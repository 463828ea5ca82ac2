package io.tributary.service;

import io.tributary.schema.TributaryException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;

/** A size option as the spec writes sizes: {@code 134217728}, {@code 128m}, {@code 128 MiB}, {@code 1g}. */
final class ByteSizeConverter implements ITypeConverter<Long> {
    private static final Pattern SIZE = Pattern.compile("\\s*(\\d+)\\s*([kmgt]?)(?:i?b)?\\s*", Pattern.CASE_INSENSITIVE);

    @Override
    public Long convert(String value) {
        Matcher m = SIZE.matcher(value);
        if (!m.matches()) {
            throw new TributaryException("'" + value + "' is not a size; write e.g. 134217728, 128m or 128 MiB");
        }
        int shift = switch (m.group(2).toLowerCase(Locale.ROOT)) {
            case "k" -> 10;
            case "m" -> 20;
            case "g" -> 30;
            case "t" -> 40;
            default -> 0;
        };
        return Long.parseLong(m.group(1)) << shift;
    }
}
