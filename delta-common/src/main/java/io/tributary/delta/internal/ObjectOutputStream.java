package io.tributary.delta.internal;

import io.tributary.storage.ObjectLocation;
import io.tributary.storage.ObjectStore;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A new object written as a stream: held in memory up to {@link #IN_MEMORY} bytes, then in a
 * temporary file, and uploaded whole when the stream closes, so that no reader ever sees part of
 * it. With {@code ifAbsent}, the upload is S3's put-if-absent.
 */
final class ObjectOutputStream extends OutputStream {
    private static final int IN_MEMORY = 8 << 20;

    private final ObjectStore store;
    private final ObjectLocation object;
    private final boolean ifAbsent;
    private ByteArrayOutputStream memory = new ByteArrayOutputStream(64 * 1024);
    private Path spill;
    private OutputStream file;
    private boolean closed;

    ObjectOutputStream(ObjectStore store, ObjectLocation object, boolean ifAbsent) {
        this.store = store;
        this.object = object;
        this.ifAbsent = ifAbsent;
    }

    private OutputStream target(int more) throws IOException {
        if (closed) {
            throw new IOException(object + ": stream closed");
        }
        if (file == null && memory.size() + (long) more > IN_MEMORY) {
            spill = Files.createTempFile("tributary-upload-", ".part");
            file = new BufferedOutputStream(Files.newOutputStream(spill), 1 << 16);
            memory.writeTo(file);
            memory = null;
        }
        return file != null ? file : memory;
    }

    @Override
    public void write(int b) throws IOException {
        target(1).write(b);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        target(len).write(b, off, len);
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (file != null) {
                file.close();
                if (ifAbsent) {
                    store.putIfAbsent(object, Files.readAllBytes(spill));
                } else {
                    store.put(object, spill);
                }
            } else if (ifAbsent) {
                store.putIfAbsent(object, memory.toByteArray());
            } else {
                store.put(object, memory.toByteArray());
            }
        } finally {
            if (spill != null) {
                Files.deleteIfExists(spill);
            }
        }
    }
}
