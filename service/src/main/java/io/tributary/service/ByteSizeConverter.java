package io.tributary.service;

import io.tributary.schema.ByteSizes;
import io.tributary.service.internal.ServiceErrors;
import picocli.CommandLine.ITypeConverter;

/** A size option as the spec writes sizes ({@link ByteSizes}): {@code 134217728}, {@code 128m}, {@code 128 MiB}, {@code 1g}. */
final class ByteSizeConverter implements ITypeConverter<Long> {
    @Override
    public Long convert(String value) {
        return ByteSizes.parse(value).orElseThrow(() ->
                ServiceErrors.notASize(value));
    }
}
