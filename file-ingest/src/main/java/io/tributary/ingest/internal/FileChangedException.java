package io.tributary.ingest.internal;

/** A file's size or modification time changed while it was being read: it waits for a later batch. */
public final class FileChangedException extends RuntimeException {
    private final FileStat file;

    public FileChangedException(FileStat file) {
        super(io.tributary.schema.Printable.escape(file.relPath()) + " changed while it was being read", null, false, false);
        this.file = file;
    }

    public FileStat file() {
        return file;
    }
}
