package io.tributary.ingest.internal;

import io.tributary.ingest.CleanSource;
import io.tributary.storage.ObjectInfo;
import io.tributary.storage.ObjectLocation;
import io.tributary.storage.ObjectStore;
import io.tributary.storage.Storage;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * The input folder in object storage ({@code s3a://bucket/prefix/}): the objects directly under
 * the prefix, listed page by page (1,000 a request), each with its size, time and ETag from the
 * listing, so planning a batch reads no object's metadata a second time. An object is read as a
 * stream of the version listed (by its ETag): one replaced since is left for a later batch. Names
 * starting with {@code .} or {@code _} and deeper "folders" are left alone, as locally.
 * {@code cleanSource} deletes the object, or copies it on the server to the archive folder and
 * then deletes it.
 */
final class ObjectDiscovery extends FileDiscovery {
    private final ObjectLocation folder;
    private final ObjectStore store;
    private boolean checked;

    ObjectDiscovery(String location, Storage storage) {
        super(null);
        this.folder = ObjectLocation.parse(location);
        this.store = ObjectStore.of(storage);
    }

    @Override
    public List<FileStat> list() {
        if (!checked) {
            store.requireReachable(folder, "input folder"); // the bucket, the credentials, the endpoint: one line each
            checked = true;
        }
        List<FileStat> files = new ArrayList<>();
        try {
            Iterator<ObjectInfo> it = store.list(folder, false, null);
            while (it.hasNext()) {
                ObjectInfo o = it.next();
                String name = o.name();
                if (o.key().endsWith("/") || name.startsWith(".") || name.startsWith("_")) {
                    continue;
                }
                files.add(new FileStat(name, null, o.size(), o.mtimeMs(), o.etag()));
            }
        } catch (UncheckedIOException e) {
            throw IngestErrors.cannotListObjects(folder, e.getCause().getMessage(), e.getCause());
        }
        files.sort(ORDER);
        return files;
    }

    @Override
    public FileStat current(FileStat f) {
        try {
            ObjectInfo o = store.head(folder.child(f.relPath()));
            return o == null ? null : new FileStat(f.relPath(), null, o.size(), o.mtimeMs(), o.etag() == null ? f.etag() : o.etag());
        } catch (IOException e) {
            return null;
        }
    }

    /** An object appears whole, once its upload completed: it is taken at first sight. */
    @Override
    public boolean growsInPlace() {
        return false;
    }

    /** Read by its ETag ({@code If-Match}): the version listed, whole, or a {@link FileChangedException}. */
    @Override
    public boolean readsListedVersion(FileStat f) {
        return f.etag() != null;
    }

    @Override
    public InputStream open(FileStat f) throws IOException {
        try {
            return store.open(folder.child(f.relPath()), f.etag(), 0);
        } catch (ObjectStore.ObjectChangedException e) {
            throw new FileChangedException(f);
        } catch (java.io.FileNotFoundException e) {
            throw new NoSuchFileException(location(f));
        }
    }

    private boolean copiedInParts(ObjectInfo there) {
        return store.inParts(there.size()) && there.etag() != null && there.etag().contains("-");
    }

    @Override
    public String location(FileStat f) {
        return folder.child(f.relPath()).toString();
    }

    @Override
    public String uri(FileStat f) {
        return location(f);
    }

    /** The object's URI: {@code s3a://bucket/prefix/a.json}. */
    @Override
    public String display(String relPath) {
        return folder.child(relPath).toString();
    }

    @Override
    public String clean(FileStat f, CleanSource policy) throws IOException {
        ObjectLocation object = folder.child(f.relPath());
        switch (policy.name()) {
            case "delete" -> {
                store.delete(object);
                return "deleted";
            }
            case "archive" -> {
                return "archived to " + archive(object, f, ObjectLocation.parse(((CleanSource.Archive) policy).location()));
            }
            default -> {
                return null;
            }
        }
    }

    /**
     * Copies the object (the version read, by its ETag when known) to {@code archive/relPath} on
     * the server, then deletes it. A name taken in the archive gets a numbered suffix, unless the
     * object there is this very one, copied by a run that died before the delete (its ETag, or for
     * an object copied in parts, which gets an ETag of its own, its size).
     */
    private ObjectLocation archive(ObjectLocation object, FileStat f, ObjectLocation archive) throws IOException {
        ObjectLocation target = archive.child(f.relPath());
        for (int n = 1; ; n++) {
            ObjectInfo there = store.head(target);
            if (there == null) {
                store.copy(object, f.etag(), f.size(), target);
                store.delete(object);
                return target;
            }
            if (there.size() == f.size() && (f.etag() == null || f.etag().equals(there.etag()) || copiedInParts(there))) {
                store.delete(object); // copied by a run that died before it deleted the original
                return target;
            }
            target = archive.child(f.relPath() + "." + n);
        }
    }
}
