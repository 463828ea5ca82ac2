package io.tributary.ingest;

import io.tributary.ingest.internal.FileChangedException;
import io.tributary.ingest.internal.FileDiscovery;
import io.tributary.ingest.internal.FilePublisher;
import io.tributary.ingest.internal.FileResult;
import io.tributary.ingest.internal.FileStat;
import io.tributary.ingest.internal.IngestErrors;
import io.tributary.ingest.internal.IngestLogCodec;
import io.tributary.ingest.internal.SourceCleaner;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The file-ingest stage's handling of input files, for a runtime that sends the records and owns
 * the transaction itself (the Kafka Connect source connector): the folder listed in batch order,
 * a file read line by line into row records and dead letters under the config's
 * {@link BadRecordPolicy}, and {@link CleanSource} applied once a file's records are committed.
 * It is the code {@link FileIngest} runs, on a local folder or one in object storage
 * ({@link IngestConfig#inputLocation()}); only who publishes differs. Not thread-safe.
 */
public final class InputFiles {
    /**
     * A file of the input folder as listed: its name relative to the folder (its identity), size and
     * modification time; for an object in object storage, no local {@code path} and its ETag.
     */
    public record InputFile(String relPath, Path path, long size, long mtimeMs, String etag) {
        FileStat stat() {
            return new FileStat(relPath, path, size, mtimeMs, etag);
        }

        static InputFile of(FileStat s) {
            return new InputFile(s.relPath(), s.path(), s.size(), s.mtimeMs(), s.etag());
        }
    }

    /** Where {@link #read} puts a file's records. */
    public interface Out {
        /** A record of up to {@link IngestConfig#rowsPerRecord()} rows ({@link io.tributary.schema.RowPack}); its timestamp is the newest event time, or null. */
        void rows(byte[] value, Long timestampMs);

        /** A bad line the policy keeps: its dead-letter record (file, line, field, reason, text), keyed by the file's name. */
        void deadLetter(byte[] key, byte[] value);
    }

    private final IngestConfig config;
    private final FileDiscovery discovery;
    private final FilePublisher reader;
    private final SourceCleaner cleaner;

    /** Refuses the {@code sql:} query's LIMIT: the runtime's progress (Connect's source offsets) holds no count of the rows published. */
    public InputFiles(IngestConfig config) {
        if (config.limit() >= 0) {
            throw IngestErrors.limitUnderConnect(config.limit());
        }
        this.config = config;
        this.discovery = FileDiscovery.of(config);
        this.reader = FilePublisher.reader(config, discovery);
        this.cleaner = new SourceCleaner(config.cleanSource(), discovery);
    }

    /**
     * The files of the folder that may be ingested, in batch order (oldest first, then by name),
     * leaving out those modified within {@code fileMinAge} of {@code nowMs}.
     */
    public List<InputFile> list(long nowMs) {
        long newest = nowMs - config.fileMinAge().toMillis();
        List<InputFile> out = new ArrayList<>();
        for (FileStat f : discovery.list()) {
            if (config.fileMinAge().isZero() || f.mtimeMs() <= newest) {
                out.add(InputFile.of(f));
            }
        }
        return out;
    }

    /** The first of {@code files} within {@code maxFilesPerTrigger} and {@code maxBytesPerTrigger}; at least one. */
    public List<InputFile> select(List<InputFile> files) {
        List<FileStat> chosen = FileDiscovery.select(files.stream().map(InputFile::stat).toList(),
                config.maxFilesPerTrigger(), config.maxBytesPerTrigger());
        return files.subList(0, chosen.size());
    }

    /**
     * Reads {@code file} into {@code out}: every valid row (packed as the stage packs them) and, as the
     * policy says, each bad line's dead letter naming {@code file:line}. Returns what its ingest-log
     * record holds, or null when the file changed while it was read (its records must then be dropped:
     * a later call reads it again).
     *
     * @param batchId the batch the dead letters and the result name
     * @throws io.tributary.schema.TributaryException when the policy is {@code fail} and a line is bad (naming file, line and field)
     */
    public IngestedFile read(InputFile file, long batchId, Out out) throws IOException {
        FileStat stat = file.stat();
        FileResult r;
        try {
            r = reader.read(stat, 1, new FilePublisher.Out() {
                @Override
                public void event(int partition, Long timestampMs, byte[] value) {
                    out.rows(value, timestampMs);
                }

                @Override
                public void deadLetter(BadRecord record) {
                    out.deadLetter(IngestLogCodec.key(record.file()), IngestLogCodec.deadLetter(config.pipeline(), batchId, record));
                }
            });
        } catch (FileChangedException e) {
            return null;
        }
        if (r.bytesRead() != stat.size() || !discovery.readsListedVersion(stat) && !stat.sameAs(discovery.current(stat))) {
            return null;
        }
        return new IngestedFile(stat.relPath(), stat.size(), stat.mtimeMs(), r.sha256(), r.rows(), r.badRows(), batchId, stat.etag());
    }

    /** The ingest-log record of {@code file} (JSON), as the stage writes it. */
    public static byte[] logRecord(IngestedFile file, String ingestedAt) {
        return IngestLogCodec.file(file, ingestedAt);
    }

    /** Applies {@code cleanSource} to files whose records are committed, if still as they were read; the number cleaned. */
    public int clean(List<InputFile> committed) {
        return cleaner.clean(committed.stream().map(InputFile::stat).toList());
    }

    /** How logs name a file: the folder's name then the file's, printable. */
    public String display(String relPath) {
        return discovery.display(relPath);
    }
}
