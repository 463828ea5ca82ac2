package io.tributary.storage.internal;

import io.tributary.storage.Storage;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedPart;

/**
 * Uploads and server-side copies in parts, for objects above {@value #THRESHOLD} (S3's single
 * PUT and single copy stop at 5 GB): S3's multipart upload, parts of {@value #PART_SIZE}
 * bytes (at least 5 MiB, as S3 requires of every part but the last, and never more than 10,000
 * parts), sent one after the other, each retried on its own by the client. A failed upload is
 * aborted, so that no parts are left on the server; an upload that is not completed is invisible.
 * The keys and defaults are Hadoop S3A's.
 */
public final class Multipart {
    /** The size of a part: bytes, or with a suffix {@code K}, {@code M}, {@code G} (S3A's key; default 64M). */
    public static final String PART_SIZE = "fs.s3a.multipart.size";
    /** Objects larger than this are uploaded in parts (S3A's key; default 128M, at most 5G). */
    public static final String THRESHOLD = "fs.s3a.multipart.threshold";
    /** S3's smallest part (but the last). */
    static final long MIN_PART = 5L << 20;
    /** S3's largest single PUT or copy. */
    static final long MAX_SINGLE = 5L << 30;
    private static final int MAX_PARTS = 10_000;

    private final long partSize;
    private final long threshold;

    private Multipart(long partSize, long threshold) {
        this.partSize = partSize;
        this.threshold = threshold;
    }

    /** The sizes {@code storage} sets, within S3's limits. */
    public static Multipart of(Storage storage) {
        long part = Math.max(MIN_PART, bytes(storage.get(PART_SIZE), 64L << 20, PART_SIZE));
        long threshold = Math.min(MAX_SINGLE, Math.max(MIN_PART, bytes(storage.get(THRESHOLD), 128L << 20, THRESHOLD)));
        return new Multipart(part, threshold);
    }

    /** True when an upload of {@code size} bytes goes in parts. */
    public boolean inParts(long size) {
        return size > threshold;
    }

    /** The part size for an object of {@code size} bytes: the setting, or larger when 10,000 parts would not hold it. */
    long partSizeFor(long size) {
        return Math.max(partSize, (size + MAX_PARTS - 1) / MAX_PARTS);
    }

    /** Uploads the file {@code data} ({@code size} bytes) as {@code bucket}/{@code key} in parts. */
    public void upload(S3Client client, String bucket, String key, Path data, long size) {
        long part = partSizeFor(size);
        inParts(client, bucket, key, size, part, (id, n, from, length) -> client.uploadPart(
                b -> b.bucket(bucket).key(key).uploadId(id).partNumber(n).contentLength(length),
                RequestBody.fromContentProvider(new FileRange(data, from, length), length, "application/octet-stream")).eTag());
    }

    /** Copies {@code size} bytes of the source object (its version {@code etag}, when given) on the server, in parts. */
    public void copy(S3Client client, String fromBucket, String fromKey, String etag, long size, String bucket, String key) {
        long part = partSizeFor(size);
        inParts(client, bucket, key, size, part, (id, n, from, length) -> client.uploadPartCopy(b -> {
            b.sourceBucket(fromBucket).sourceKey(fromKey).destinationBucket(bucket).destinationKey(key).uploadId(id).partNumber(n)
                    .copySourceRange("bytes=" + from + "-" + (from + length - 1));
            if (etag != null) {
                b.copySourceIfMatch("\"" + etag + "\"");
            }
        }).copyPartResult().eTag());
    }

    private interface PartWriter {
        String write(String uploadId, int partNumber, long from, long length);
    }

    private static void inParts(S3Client client, String bucket, String key, long size, long part, PartWriter writer) {
        String id = client.createMultipartUpload(b -> b.bucket(bucket).key(key)).uploadId();
        try {
            List<CompletedPart> parts = new ArrayList<>();
            int n = 1;
            for (long from = 0; from < size; from += part, n++) {
                String etag = writer.write(id, n, from, Math.min(part, size - from));
                parts.add(CompletedPart.builder().partNumber(n).eTag(etag).build());
            }
            client.completeMultipartUpload(b -> b.bucket(bucket).key(key).uploadId(id).multipartUpload(m -> m.parts(parts)));
        } catch (SdkException | UncheckedIOException e) {
            try {
                client.abortMultipartUpload(b -> b.bucket(bucket).key(key).uploadId(id));
            } catch (SdkException abortFailed) {
                e.addSuppressed(abortFailed); // the server's lifecycle rule for incomplete uploads removes the parts
            }
            throw e;
        }
    }

    /** {@code 67108864}, {@code 64M}, {@code 64m}, {@code 1G}, {@code 512K}. */
    static long bytes(String v, long defaultValue, String key) {
        if (v == null || v.isBlank()) {
            return defaultValue;
        }
        Matcher m = Pattern.compile("(\\d+)\\s*([kmgt]?)b?").matcher(v.strip().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw StorageErrors.badSize(key, v);
        }
        int shift = switch (m.group(2)) {
            case "k" -> 10;
            case "m" -> 20;
            case "g" -> 30;
            case "t" -> 40;
            default -> 0;
        };
        return Long.parseLong(m.group(1)) << shift;
    }

    /** A byte range of a file, opened anew for each attempt of the request. */
    private static final class FileRange implements ContentStreamProvider {
        private final Path file;
        private final long from;
        private final long length;
        private InputStream open;

        FileRange(Path file, long from, long length) {
            this.file = file;
            this.from = from;
            this.length = length;
        }

        @Override
        public InputStream newStream() {
            try {
                if (open != null) {
                    open.close();
                }
                FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
                channel.position(from);
                open = new Bounded(Channels.newInputStream(channel), length);
                return open;
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + file, e);
            }
        }
    }

    /** At most {@code left} bytes of a stream. */
    private static final class Bounded extends InputStream {
        private final InputStream in;
        private long left;

        Bounded(InputStream in, long left) {
            this.in = in;
            this.left = left;
        }

        @Override
        public int read() throws IOException {
            if (left <= 0) {
                return -1;
            }
            int b = in.read();
            if (b >= 0) {
                left--;
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (left <= 0) {
                return -1;
            }
            int n = in.read(b, off, (int) Math.min(len, left));
            if (n > 0) {
                left -= n;
            }
            return n;
        }

        @Override
        public int available() throws IOException {
            return (int) Math.min(in.available(), left);
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }
}
