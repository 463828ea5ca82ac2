package io.tributary.storage;

import io.tributary.storage.internal.Multipart;
import io.tributary.storage.internal.S3Clients;
import io.tributary.storage.internal.S3Errors;
import io.tributary.storage.internal.StorageErrors;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.Delete;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;

/**
 * S3 (or an S3-compatible server) as Tributary uses it: listing a prefix page by page, reading an
 * object as a stream (a given version only, by ETag), writing whole objects (put-if-absent with
 * S3's conditional writes; a large file in parts, {@link Multipart}), copying on the server
 * (in parts past 5 GB) and deleting. Every failure after the client's retries is an
 * {@link IOException} whose message names the location and the cause in one line
 * ({@link StorageException}); a missing object is a {@link FileNotFoundException}, an object
 * that exists where put-if-absent wrote is a {@link FileAlreadyExistsException}, an object
 * replaced since it was listed is an {@link ObjectChangedException}.
 */
public final class ObjectStore {
    /** Whether put-if-absent uses S3's conditional write ({@code If-None-Match: *}); Hadoop 3.5's S3A key. */
    public static final String CONDITIONAL_WRITES = "fs.s3a.create.conditional.enabled";

    private final S3Client client;
    private final S3Client probe;
    private final String endpoint;
    private final boolean conditionalWrites;
    private final Multipart multipart;
    private final Map<String, Boolean> honoursIfNoneMatch = new ConcurrentHashMap<>();

    private ObjectStore(S3Clients.Clients clients, boolean conditionalWrites, Multipart multipart) {
        this.client = clients.client();
        this.probe = clients.probe();
        this.endpoint = clients.endpoint();
        this.conditionalWrites = conditionalWrites;
        this.multipart = multipart;
    }

    private static final Map<Storage, ObjectStore> STORES = new ConcurrentHashMap<>();

    /** The store of these settings (one per distinct settings, shared: its clients pool connections). */
    public static ObjectStore of(Storage storage) {
        return STORES.computeIfAbsent(storage, s -> new ObjectStore(S3Clients.of(s),
                Boolean.parseBoolean(s.get(CONDITIONAL_WRITES, "true").strip()), Multipart.of(s)));
    }

    /** An object replaced (or deleted) since the ETag it was read by was listed. */
    public static final class ObjectChangedException extends StorageException {
        public ObjectChangedException(String message, Throwable cause) {
            super(message, "PreconditionFailed", cause);
        }
    }

    /**
     * The objects under {@code folder} whose keys sort after {@code startAfter} (a full key, or
     * null), in key order, one page of up to 1,000 from the server at a time: directly in it
     * ({@code recursive} false: sub-folders come as entries whose key ends with {@code /}), or
     * at any depth. Keys ending with {@code /} (folder markers some servers list) are never files.
     * Failures while paging are {@link UncheckedIOException}s holding a {@link StorageException}.
     */
    public Iterator<ObjectInfo> list(ObjectLocation folder, boolean recursive, String startAfter) {
        ListObjectsV2Request.Builder request = ListObjectsV2Request.builder().bucket(folder.bucket()).prefix(folder.prefix());
        if (!recursive) {
            request.delimiter("/");
        }
        if (startAfter != null) {
            request.startAfter(startAfter);
        }
        return new ListingPages(client, request.build(), e -> failure("cannot list " + folder, folder.bucket(), e));
    }

    /** True when anything (an object or a deeper folder) lies under {@code folder}. */
    public boolean folderExists(ObjectLocation folder) throws IOException {
        try {
            return client.listObjectsV2(b -> b.bucket(folder.bucket()).prefix(folder.prefix()).maxKeys(1)).keyCount() > 0;
        } catch (SdkException e) {
            throw failure("cannot list " + folder, folder.bucket(), e);
        }
    }

    /** The object's size, time and ETag, or null when there is none. */
    public ObjectInfo head(ObjectLocation object) throws IOException {
        try {
            HeadObjectResponse h = client.headObject(b -> b.bucket(object.bucket()).key(object.key()));
            return new ObjectInfo(object.key(), h.contentLength(), h.lastModified().toEpochMilli(), ObjectInfo.unquote(h.eTag()));
        } catch (SdkException e) {
            if (S3Errors.status(e) == 404 && !"NoSuchBucket".equals(S3Errors.code(e))) {
                return null;
            }
            throw failure("cannot read the metadata of " + object, object.bucket(), e);
        }
    }

    /**
     * The object's bytes from {@code from} on, as a stream from the server (nothing is downloaded
     * ahead); with {@code etag}, only that version of it: an object replaced since is an
     * {@link ObjectChangedException}. Closing the stream before its end drops the connection
     * rather than reading the rest of the object ({@link ObjectReadStream}).
     */
    public InputStream open(ObjectLocation object, String etag, long from) throws IOException {
        try {
            return new ObjectReadStream(client.getObject(b -> {
                b.bucket(object.bucket()).key(object.key());
                if (etag != null) {
                    b.ifMatch("\"" + etag + "\"");
                }
                if (from > 0) {
                    b.range("bytes=" + from + "-");
                }
            }));
        } catch (SdkException e) {
            throw readFailure(object, e);
        }
    }

    /** Bytes {@code [from, from + length)} of the object, read whole. */
    public byte[] read(ObjectLocation object, long from, int length) throws IOException {
        if (length == 0) {
            return new byte[0];
        }
        try {
            return client.getObjectAsBytes(b -> b.bucket(object.bucket()).key(object.key())
                    .range("bytes=" + from + "-" + (from + length - 1))).asByteArray();
        } catch (SdkException e) {
            throw readFailure(object, e);
        }
    }

    private IOException readFailure(ObjectLocation object, SdkException e) {
        int status = S3Errors.status(e);
        if (status == 412) {
            return new ObjectChangedException(object + " was replaced since it was listed", e);
        }
        if (status == 404 && !"NoSuchBucket".equals(S3Errors.code(e))) {
            FileNotFoundException nf = new FileNotFoundException(object + ": no such object");
            nf.initCause(e);
            return nf;
        }
        return failure("cannot read " + object, object.bucket(), e);
    }

    /** Writes {@code data} as the whole object, replacing any. */
    public void put(ObjectLocation object, byte[] data) throws IOException {
        put(object, RequestBody.fromBytes(data), false);
    }

    /**
     * Writes the file {@code data} as the whole object, replacing any: in one request, or in parts
     * when it is larger than {@value Multipart#THRESHOLD} (the object appears whole when the last
     * part is in, or not at all).
     */
    public void put(ObjectLocation object, Path data) throws IOException {
        long size = java.nio.file.Files.size(data);
        if (!multipart.inParts(size)) {
            put(object, RequestBody.fromFile(data), false);
            return;
        }
        try {
            multipart.upload(client, object.bucket(), object.key(), data, size);
        } catch (SdkException e) {
            throw failure("cannot write " + object, object.bucket(), e);
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /**
     * Writes {@code data} as the object only if no object has its key: S3's conditional write
     * ({@code If-None-Match: *}), atomic on the server, so two writers racing for one key cannot
     * both succeed. On a server that ignores the condition (found out once per bucket, see
     * {@link #honoursPutIfAbsent}), or with {@value #CONDITIONAL_WRITES} false, it checks first and
     * then writes, which is safe against writers of this process only.
     *
     * @throws FileAlreadyExistsException when the key is taken
     */
    public void putIfAbsent(ObjectLocation object, byte[] data) throws IOException {
        if (!conditionalWrites || !honoursPutIfAbsent(object)) {
            synchronized (lockFor(object)) {
                if (head(object) != null) {
                    throw new FileAlreadyExistsException(object.toString());
                }
                put(object, RequestBody.fromBytes(data), false);
            }
            return;
        }
        put(object, RequestBody.fromBytes(data), true);
    }

    private final Map<String, Object> locks = new ConcurrentHashMap<>();

    private Object lockFor(ObjectLocation object) {
        return locks.computeIfAbsent(object.toString(), k -> new Object());
    }

    /**
     * Whether the server refuses a conditional write over an existing object, as S3 does: tried
     * once per bucket with a hidden probe object beside {@code near} (written twice, then deleted).
     */
    public boolean honoursPutIfAbsent(ObjectLocation near) throws IOException {
        Boolean known = honoursIfNoneMatch.get(near.bucket());
        if (known != null) {
            return known;
        }
        String parent = near.key().contains("/") ? near.key().substring(0, near.key().lastIndexOf('/') + 1) : "";
        ObjectLocation probeObject = near.withKey(parent + ".tributary-put-if-absent-" + java.util.UUID.randomUUID());
        boolean honours;
        try {
            put(probeObject, RequestBody.fromBytes(new byte[0]), true);
            try {
                put(probeObject, RequestBody.fromBytes(new byte[0]), true);
                honours = false;
            } catch (FileAlreadyExistsException expected) {
                honours = true;
            } catch (StorageException notImplemented) {
                honours = false;
            }
        } finally {
            delete(probeObject);
        }
        if (!honours) {
            org.slf4j.LoggerFactory.getLogger(ObjectStore.class).warn("the S3 server at {} ignores conditional writes"
                    + " (If-None-Match) in bucket {}: a Delta commit is checked, then written, which is safe against other"
                    + " writers in this process only; run one writer process per table (docs/object-storage.md)", endpoint, near.bucket());
        }
        honoursIfNoneMatch.put(near.bucket(), honours);
        return honours;
    }

    private void put(ObjectLocation object, RequestBody body, boolean ifAbsent) throws IOException {
        PutObjectRequest.Builder request = PutObjectRequest.builder().bucket(object.bucket()).key(object.key());
        if (ifAbsent) {
            request.ifNoneMatch("*");
        }
        for (int attempt = 1; ; attempt++) {
            try {
                client.putObject(request.build(), body);
                return;
            } catch (SdkException e) {
                int status = S3Errors.status(e);
                if (ifAbsent && status == 412) {
                    throw new FileAlreadyExistsException(object.toString());
                }
                if (ifAbsent && status == 409 && attempt < 5) {
                    pause(attempt); // ConditionalRequestConflict: another conditional write of this key is in flight
                    continue;
                }
                throw failure("cannot write " + object, object.bucket(), e);
            }
        }
    }

    private static void pause(int attempt) throws IOException {
        try {
            Thread.sleep(100L << attempt);
        } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("interrupted while retrying a write");
        }
    }

    /**
     * Copies {@code from} (only the version with {@code etag}, when given: else an
     * {@link ObjectChangedException}), {@code size} bytes, to {@code to}, on the server: in one
     * request, or in parts (of {@value Multipart#PART_SIZE}) past {@value Multipart#THRESHOLD}
     * (at most 5 GB), as S3A copies.
     */
    public void copy(ObjectLocation from, String etag, long size, ObjectLocation to) throws IOException {
        try {
            if (multipart.inParts(size)) {
                multipart.copy(client, from.bucket(), from.key(), etag, size, to.bucket(), to.key());
                return;
            }
            client.copyObject(b -> {
                b.sourceBucket(from.bucket()).sourceKey(from.key()).destinationBucket(to.bucket()).destinationKey(to.key());
                if (etag != null) {
                    b.copySourceIfMatch("\"" + etag + "\"");
                }
            });
        } catch (SdkException e) {
            throw readFailure(from, e) instanceof FileNotFoundException nf ? nf
                    : S3Errors.status(e) == 412 ? new ObjectChangedException(from + " was replaced since it was listed", e)
                    : failure("cannot copy " + from + " to " + to, to.bucket(), e);
        }
    }

    /**
     * True when objects of {@code size} bytes are uploaded and copied in parts: such a copy has
     * an ETag of its own ({@code "...-N"}), not the source's.
     */
    public boolean inParts(long size) {
        return multipart.inParts(size);
    }

    /** Deletes the object; no error when there is none. */
    public void delete(ObjectLocation object) throws IOException {
        try {
            client.deleteObject(b -> b.bucket(object.bucket()).key(object.key()));
        } catch (SdkException e) {
            if (S3Errors.status(e) == 404 && !"NoSuchBucket".equals(S3Errors.code(e))) {
                return;
            }
            throw failure("cannot delete " + object, object.bucket(), e);
        }
    }

    /** Deletes the objects of {@code bucket} with these keys, 1,000 per request. */
    public void deleteAll(String scheme, String bucket, List<String> keys) throws IOException {
        for (int i = 0; i < keys.size(); i += 1000) {
            List<ObjectIdentifier> ids = keys.subList(i, Math.min(keys.size(), i + 1000)).stream()
                    .map(k -> ObjectIdentifier.builder().key(k).build()).toList();
            try {
                var r = client.deleteObjects(b -> b.bucket(bucket).delete(Delete.builder().objects(ids).quiet(true).build()));
                if (!r.errors().isEmpty()) {
                    var first = r.errors().get(0);
                    throw new StorageException("cannot delete " + scheme + "://" + bucket + "/" + first.key() + ": " + first.code()
                            + " (" + r.errors().size() + " objects not deleted)", first.code(), null);
                }
            } catch (SdkException e) {
                throw failure("cannot delete objects in " + scheme + "://" + bucket, bucket, e);
            }
        }
    }

    /**
     * Checks at start that {@code folder} can be listed: the endpoint answers, the credentials
     * are accepted and the bucket exists; else one line naming {@code what}, the location and the
     * cause. Tries twice only, so that a run with a wrong endpoint stops within seconds.
     */
    public void requireReachable(ObjectLocation folder, String what) {
        try {
            probe.listObjectsV2(b -> b.bucket(folder.bucket()).prefix(folder.prefix()).maxKeys(1));
        } catch (SdkException e) {
            throw StorageErrors.unreachable(what, folder, S3Errors.describe(e, folder.bucket(), endpoint), e);
        }
    }

    private StorageException failure(String doing, String bucket, SdkException e) {
        return new StorageException(doing + ": " + S3Errors.describe(e, bucket, endpoint), S3Errors.code(e), e);
    }
}
