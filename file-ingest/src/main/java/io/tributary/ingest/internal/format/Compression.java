package io.tributary.ingest.internal.format;

import io.airlift.compress.bzip2.BZip2HadoopStreams;
import io.airlift.compress.zstd.ZstdInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;
import java.util.zip.GZIPInputStream;

/**
 * Compressed input files, known by their extension as Spark's file source (Hadoop's codecs) knows
 * them: {@code .gz} (gzip, several members read one after the other), {@code .bz2} (bzip2) and
 * {@code .zst} (Zstandard). gzip is the JDK's; bzip2 and Zstandard are aircompressor's pure-Java
 * decoders, which the Parquet libraries already bring.
 */
public final class Compression {
    private Compression() {
    }

    /** The codec's name for a file name ({@code gzip}, {@code bzip2}, {@code zstd}), or null when the file is not compressed. */
    public static String codec(String fileName) {
        String n = fileName.toLowerCase(Locale.ROOT);
        if (n.endsWith(".gz")) {
            return "gzip";
        }
        if (n.endsWith(".bz2")) {
            return "bzip2";
        }
        if (n.endsWith(".zst")) {
            return "zstd";
        }
        return null;
    }

    /** The decompressed content of {@code in}, by the codec of {@code fileName}; {@code in} itself when none. */
    public static InputStream decompress(String fileName, InputStream in) throws IOException {
        String codec = codec(fileName);
        if (codec == null) {
            return in;
        }
        return switch (codec) {
            case "gzip" -> new GZIPInputStream(in, 64 * 1024);
            case "bzip2" -> new BZip2HadoopStreams().createInputStream(in);
            default -> new ZstdInputStream(in);
        };
    }
}
