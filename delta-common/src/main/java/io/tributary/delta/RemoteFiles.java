package io.tributary.delta;

import io.tributary.delta.internal.ObjectFileSystem;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * A folder of a table on a file system other than the local one (object storage, or any Hadoop
 * file system), to which files written locally are uploaded: in object storage one request, or
 * parts past the multipart threshold, and the object appears whole or not at all; elsewhere the
 * file system's own copy from a local file.
 */
public final class RemoteFiles {
    private final FileSystem fs;
    private final String folder;

    private RemoteFiles(FileSystem fs, String folder) {
        this.fs = fs;
        this.folder = folder.endsWith("/") ? folder : folder + "/";
    }

    /** The folder {@code folder} (a URI), reached with {@code conf} ({@link KernelEngines#configuration(io.delta.kernel.engine.Engine)}). */
    public static RemoteFiles of(Configuration conf, String folder) throws IOException {
        return new RemoteFiles(new Path(folder).getFileSystem(conf), folder);
    }

    /** The location of {@code name} in the folder. */
    public String location(String name) {
        return folder + name;
    }

    /** Uploads the local file {@code file} as {@code name} in the folder, replacing any file of that name. */
    public void upload(java.nio.file.Path file, String name) throws IOException {
        Path target = new Path(location(name));
        if (fs instanceof ObjectFileSystem objects) {
            objects.upload(file, target);
        } else {
            fs.copyFromLocalFile(false, true, new Path(file.toUri()), target);
        }
    }

    /** Deletes {@code name} from the folder; no error when it is not there. */
    public void delete(String name) throws IOException {
        fs.delete(new Path(location(name)), false);
    }
}
