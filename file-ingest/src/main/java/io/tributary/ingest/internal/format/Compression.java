package io.tributary.ingest.internal.format;

import io.airlift.compress.bzip2.BZip2HadoopStreams;
import io.airlift.compress.zstd.ZstdInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PushbackInputStream;
import java.util.Locale;
import java.util.zip.GZIPInputStream;

/**
 * Compressed input files, known by their extension as Spark's file source (Hadoop's codecs) knows
 * them: {@code .gz} (gzip, several members read one after the other), {@code .bz2} (bzip2) and
 * {@code .zst} (Zstandard). gzip is the JDK's; bzip2 and Zstandard are aircompressor's pure-Java
 * decoders, which the Parquet libraries already bring.
 *
 * <p>A file of 0 bytes has no rows, as Spark leaves files of 0 bytes out of a scan. Data the codec
 * cannot decode (a file cut short, damaged, or not of its codec) is a {@link CorruptFileException}
 * saying the codec and how far into the file it got; a failed read of the file itself is passed on as it is.
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
        Source source = new Source(in);
        PushbackInputStream peek = new PushbackInputStream(source, 1);
        int first = peek.read();
        if (first < 0) {
            return InputStream.nullInputStream(); // 0 bytes: no rows, as in Spark (a plain empty file has none either)
        }
        peek.unread(first);
        Decoded decoded = new Decoded(codec, source);
        try {
            decoded.open(switch (codec) {
                case "gzip" -> new GZIPInputStream(peek, 64 * 1024);
                case "bzip2" -> new BZip2HadoopStreams().createInputStream(peek);
                default -> new ZstdInputStream(peek);
            });
        } catch (IOException | RuntimeException e) {
            throw decoded.failed(e);
        }
        return decoded;
    }

    /** The file's bytes as the codec reads them: counted, and a failed read remembered, so that it is not taken for bad data. */
    private static final class Source extends FilterInputStream {
        long count;
        Exception failure;

        Source(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            try {
                int b = in.read();
                if (b >= 0) {
                    count++;
                }
                return b;
            } catch (IOException | RuntimeException e) {
                failure = e;
                throw e;
            }
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            try {
                int n = in.read(b, off, len);
                if (n > 0) {
                    count += n;
                }
                return n;
            } catch (IOException | RuntimeException e) {
                failure = e;
                throw e;
            }
        }

        @Override
        public long skip(long n) throws IOException {
            byte[] buf = new byte[(int) Math.min(Math.max(n, 0), 8192)];
            long skipped = 0;
            while (skipped < n) {
                int r = read(buf, 0, (int) Math.min(buf.length, n - skipped));
                if (r < 0) {
                    break;
                }
                skipped += r;
            }
            return skipped; // read, so that it is counted
        }
    }

    /** The decompressed bytes; an error of the codec becomes a {@link CorruptFileException}. */
    private static final class Decoded extends InputStream {
        private final String codec;
        private final Source source;
        private InputStream in;

        Decoded(String codec, Source source) {
            this.codec = codec;
            this.source = source;
        }

        void open(InputStream decoder) {
            this.in = decoder;
        }

        @Override
        public int read() throws IOException {
            try {
                return in.read();
            } catch (IOException | RuntimeException e) {
                throw failed(e);
            }
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            try {
                return in.read(b, off, len);
            } catch (IOException | RuntimeException e) {
                throw failed(e);
            }
        }

        @Override
        public int available() throws IOException {
            try {
                return in.available();
            } catch (IOException | RuntimeException e) {
                throw failed(e);
            }
        }

        @Override
        public void close() throws IOException {
            in.close();
        }

        /** {@code e} as the caller sees it: the read's own error when the file could not be read, else the codec's. */
        IOException failed(Exception e) {
            if (source.failure != null) {
                if (e instanceof IOException io) {
                    return io;
                }
                throw (RuntimeException) e;
            }
            String detail = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            return new CorruptFileException(codec, source.count, detail, e);
        }
    }
}
