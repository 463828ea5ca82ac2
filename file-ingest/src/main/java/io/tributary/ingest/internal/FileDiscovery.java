package io.tributary.ingest.internal;

import io.tributary.ingest.CleanSource;
import io.tributary.ingest.IngestConfig;
import io.tributary.schema.Printable;
import io.tributary.storage.Storage;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lists the input folder as Spark's file source does: regular files directly in it (not
 * recursive), names starting with {@code .} or {@code _} left alone (the atomic-rename
 * convention), oldest modification time first, then by name. A symbolic link is followed only
 * when it resolves inside the folder. {@link #of} gives the discovery of an input folder in object
 * storage ({@link ObjectDiscovery}) for an {@code s3a://} location; what the ingest does with a
 * file (read it, look at it again, clean it) goes through its discovery.
 */
public class FileDiscovery {
    private static final Logger LOG = LoggerFactory.getLogger(FileDiscovery.class);
    /** Oldest first, then by name, so batches are the same on every run. */
    public static final Comparator<FileStat> ORDER =
            Comparator.comparingLong(FileStat::mtimeMs).thenComparing(FileStat::relPath);

    private final Path dir;
    private final Set<String> warned = new HashSet<>();

    public FileDiscovery(Path dir) {
        this.dir = dir;
    }

    /** The discovery of {@code config}'s input: a local folder, or a folder in object storage. */
    public static FileDiscovery of(IngestConfig config) {
        if (Storage.isObjectStore(config.inputLocation())) {
            return new ObjectDiscovery(config.inputLocation(), config.storage());
        }
        return new FileDiscovery(config.inputDir());
    }

    /** The file's size and modification time now, or null when it is gone. */
    public FileStat current(FileStat f) {
        return restat(f);
    }

    /**
     * True when {@link #open} reads exactly the version of {@code f} that was listed or fails (an
     * object read by its ETag), so that it need not be looked at again after the read; a local
     * file can change while it is read.
     */
    public boolean readsListedVersion(FileStat f) {
        return false;
    }

    /**
     * True where a file grows in place while it is written (a local folder, NFS), so that a new file
     * is taken only once it settled ({@code fileSettleTime}); an object in object storage appears whole.
     */
    public boolean growsInPlace() {
        return true;
    }

    /**
     * True when a file's modification time is on this machine's clock: the folder is on a local file
     * system, not a network one (NFS, SMB, FUSE, ...) whose server's clock may differ. Then a file last
     * modified {@code fileSettleTime} ago has held still that long, without a second look.
     */
    public boolean sharesOurClock() {
        try {
            String type = Files.getFileStore(dir).type().toLowerCase(java.util.Locale.ROOT);
            return NETWORK_FILE_SYSTEMS.stream().noneMatch(type::startsWith);
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * True when {@code f}, as listed, was moved or renamed in after its last write: its status
     * changed later than its content (its change time is past its modification time, as a rename,
     * {@code mv}, {@code rsync} or {@code cp -p} leave it), where every write sets both times to the same
     * instant. Size, modification and change time come from one look, which must still match the listing.
     */
    public boolean movedInAfterWritten(FileStat f) {
        if (f.path() == null) {
            return false;
        }
        try {
            Map<String, Object> a = Files.readAttributes(f.path(), "unix:size,lastModifiedTime,ctime");
            FileTime modified = (FileTime) a.get("lastModifiedTime");
            return a.get("size") instanceof Long size && size == f.size() && modified.toMillis() == f.mtimeMs()
                    && ((FileTime) a.get("ctime")).compareTo(modified) > 0;
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return false; // gone, or no change time on this platform: the settle time decides
        }
    }

    /** File system types (as {@code FileStore.type()} names them) whose files may carry another machine's times. */
    private static final List<String> NETWORK_FILE_SYSTEMS =
            List.of("nfs", "cifs", "smb", "fuse", "9p", "ceph", "glusterfs", "lustre", "gpfs", "afs", "davfs", "sshfs");

    /** The file's content, as a stream; the file changed since it was listed may be a {@link FileChangedException}. */
    public InputStream open(FileStat f) throws IOException {
        return Files.newInputStream(f.path());
    }

    /** Where the file is, as a path or a URI (the file name of an I/O error). */
    public String location(FileStat f) {
        return f.path().toString();
    }

    /** The file's full URI, as Spark's {@code input_file_name()} gives it ({@code file:///in/a%20b.json}). */
    public String uri(FileStat f) {
        return f.path().toUri().toString();
    }

    /** Applies {@code policy} to the file; what was done, for the log, or null when nothing was. */
    public String clean(FileStat f, CleanSource policy) throws IOException {
        return policy.clean(f.path(), f.relPath());
    }

    /** Every file that may be ingested, in batch order. */
    public List<FileStat> list() {
        Path real;
        try {
            real = dir.toRealPath();
        } catch (NoSuchFileException e) {
            throw IngestErrors.noInputFolder(dir);
        } catch (IOException e) {
            throw IngestErrors.cannotOpenInputFolder(dir, e.getMessage(), e);
        }
        if (!Files.isDirectory(real)) {
            throw IngestErrors.inputNotAFolder(dir);
        }
        List<FileStat> files = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path p : entries) {
                String name = p.getFileName().toString();
                if (name.startsWith(".") || name.startsWith("_")) {
                    continue;
                }
                FileStat stat = statIfEligible(p, real);
                if (stat != null) {
                    files.add(stat);
                }
            }
        } catch (IOException e) {
            throw IngestErrors.cannotListObjects(dir, e.getMessage(), e);
        }
        files.sort(ORDER);
        return files;
    }

    private FileStat statIfEligible(Path p, Path realDir) {
        try {
            if (Files.isSymbolicLink(p)) {
                Path target = p.toRealPath();
                if (!target.startsWith(realDir)) {
                    String id = FileNames.of(p);
                    if (warned.add(id)) {
                        LOG.warn("file {}: a symbolic link to {}, outside the input folder; not followed."
                                + " Copy or move the file into {} to ingest it", display(id), Printable.escape(target.toString()), dir);
                    }
                    return null;
                }
            }
            BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
            if (!a.isRegularFile()) {
                return null;
            }
            return new FileStat(FileNames.of(p), p, a.size(), a.lastModifiedTime().toMillis());
        } catch (NoSuchFileException e) {
            return null; // gone between listing and stat (or a dangling link): nothing to ingest
        } catch (IOException e) {
            throw IngestErrors.cannotReadAttributes(display(FileNames.of(p)), Printable.escape(e.getMessage()), e);
        }
    }

    /** The file's size and modification time now, or null when it is gone. */
    public static FileStat restat(FileStat f) {
        try {
            BasicFileAttributes a = Files.readAttributes(f.path(), BasicFileAttributes.class);
            return new FileStat(f.relPath(), f.path(), a.size(), a.lastModifiedTime().toMillis());
        } catch (IOException e) {
            return null;
        }
    }

    /**
     * The first files of {@code newFiles} (in order) that fit the limits; as Spark, a batch
     * always holds at least one file, even one bigger than {@code maxBytes}.
     */
    public static List<FileStat> select(List<FileStat> newFiles, int maxFiles, long maxBytes) {
        List<FileStat> out = new ArrayList<>();
        long bytes = 0;
        for (FileStat f : newFiles) {
            if (out.size() >= maxFiles) {
                break;
            }
            if (!out.isEmpty() && bytes + f.size() > maxBytes) {
                break;
            }
            out.add(f);
            bytes += f.size();
        }
        return out;
    }

    /**
     * How logs name a file: the folder's name then the file's, e.g. {@code in/a.json}, escaped
     * ({@link Printable}: {@code in/caf\xE9.json} for a Latin-1 name, {@code in/a\nb.json}).
     */
    public String display(String relPath) {
        Path name = dir.getFileName();
        return Printable.escape((name == null ? "" : name + "/") + relPath);
    }
}
