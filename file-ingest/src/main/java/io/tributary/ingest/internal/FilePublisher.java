package io.tributary.ingest.internal;

import io.tributary.expressions.CheckConstraints;
import io.tributary.expressions.ExpressionException;
import io.tributary.expressions.FileMetadata;
import io.tributary.expressions.Transform;
import io.tributary.ingest.BadRecord;
import io.tributary.ingest.BadRecordPolicy;
import io.tributary.ingest.IngestConfig;
import io.tributary.ingest.Joins;
import io.tributary.ingest.UnionBranch;
import io.tributary.ingest.internal.format.CorruptFileException;
import io.tributary.ingest.internal.format.RawInput;
import io.tributary.ingest.internal.format.RecordReader;
import io.tributary.ingest.internal.format.RecordReaders;
import io.tributary.schema.BadRecordException;
import io.tributary.schema.DataType;
import io.tributary.schema.GroupKey;
import io.tributary.schema.Printable;
import io.tributary.schema.RowBinary;
import io.tributary.schema.RowJson;
import io.tributary.schema.RowPack;
import io.tributary.schema.Topics;
import io.tributary.schema.TributaryException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * Streams one file record by record ({@link RecordReader}) into the open transaction: the valid rows to the events topic,
 * packed {@link IngestConfig#rowsPerRecord()} to a record ({@link RowPack}, placed by {@link EventPacks}), each bad line
 * as the {@link BadRecordPolicy} says. Holds one record, and one pack per partition, in memory. Packed records have
 * no key; a record's timestamp is the newest event time of its rows.
 */
public final class FilePublisher {
    /** The most of a bad line's text kept in a dead-letter record. */
    static final int MAX_TEXT_BYTES = LineReader.KEPT_PREFIX;

    private final IngestConfig config;
    private final Producer<byte[], byte[]> producer;
    private final FirstSendError firstSendError;
    private final FileDiscovery discovery;
    private final RecordReaders readers;
    /** Spark's where and selectExpr, applied to each row read before it is packed. */
    private final Transform transform;
    private final Joins joins;
    /** The sink table's CHECK constraints, checked on each row after the transform. */
    private final CheckConstraints constraints;
    /** Reads only to collect new columns ({@link #newColumns}): no rows kept, bad records only counted. */
    private final boolean collecting;
    /** The events records' {@link Topics#SCHEMA_HEADER}, or null. */
    private final byte[] schemaHeader;
    /** The events records' {@link Topics#ROWS_HEADER} (their rows in binary), or null. */
    private final byte[] rowsHeader;
    private final int eventTimeColumn;
    private final EventPacks packs;
    /** The query's LIMIT: the rows it still lets through ({@link #limitTo}), and the input rows Spark counts under it. */
    private final QueryLimit limit;

    /**
     * @param producer the ingest's producer; null for a publisher that only {@link #read reads} ({@link ReadAhead})
     * @param firstSendError every send's callback, checked before each send; null with no producer
     */
    FilePublisher(IngestConfig config, Producer<byte[], byte[]> producer, FirstSendError firstSendError) {
        this(config, producer, firstSendError, FileDiscovery.of(config));
    }

    FilePublisher(IngestConfig config, Producer<byte[], byte[]> producer, FirstSendError firstSendError, FileDiscovery discovery) {
        this(config, producer, firstSendError, discovery, new RecordReaders(config));
    }

    private FilePublisher(IngestConfig config, Producer<byte[], byte[]> producer, FirstSendError firstSendError, FileDiscovery discovery,
                          RecordReaders readers) {
        this.config = config;
        this.collecting = producer == null && firstSendError == null && readers.collects();
        this.schemaHeader = config.schemaHeader();
        this.discovery = discovery;
        this.producer = producer;
        this.firstSendError = firstSendError;
        this.readers = readers;
        this.transform = config.transform();
        this.joins = config.joins();
        this.constraints = config.constraints();
        RowJson rows = transform.identity() ? readers.rowJson() : new RowJson(config.outputSchema(), config.timeZone());
        RowBinary binary = config.binaryRows() && RowBinary.flat(rows.schema()) ? RowBinary.of(rows.schema()) : null;
        this.rowsHeader = binary == null ? null : binary.schema().toDdl().getBytes(StandardCharsets.UTF_8);
        this.packs = new EventPacks(rows, binary, new GroupKey(config.outputSchema(), config.groupBy()), config.rowsPerRecord());
        this.eventTimeColumn = config.eventTime() == null ? -1 : config.outputSchema().indexOf(config.eventTime());
        this.limit = new QueryLimit(config.limit(), 1 + joins.unionAll().size());
    }

    /**
     * The new columns of {@code files} under {@code config}'s schema, with the types of their
     * values (Spark's JSON inference, or STRING), in the order they are first met: for
     * {@code schemaEvolution: addNewColumns}, once a batch met one.
     */
    public static Map<String, DataType> newColumns(IngestConfig config, FileDiscovery discovery, List<FileStat> files) throws IOException {
        RecordReaders readers = RecordReaders.collecting(config);
        FilePublisher reader = new FilePublisher(config, null, null, discovery, readers);
        Out ignore = new Out() {
            @Override
            public void event(int partition, Long timestampMs, byte[] value) {
            }

            @Override
            public void deadLetter(BadRecord record) {
            }
        };
        for (FileStat f : files) {
            try {
                reader.read(f, 1, ignore);
            } catch (java.nio.file.NoSuchFileException e) {
                // gone since it was listed: the batch's own reading says so
            }
        }
        return readers.newColumns();
    }

    /** Lets only the next {@code rows} rows through, of the files published from now on (the query's LIMIT); the rest are read, not published. */
    void limitTo(long rows) {
        limit.startBatch(rows);
    }

    /** The events records' {@link Topics#ROWS_HEADER}: the schema of their binary rows, or null for JSON Lines. */
    byte[] rowsHeader() {
        return rowsHeader;
    }

    /** Where {@link #read} puts what a file gives: its packed rows, and the bad lines the policy keeps. */
    public interface Out {
        void event(int partition, Long timestampMs, byte[] value);

        void deadLetter(BadRecord record);
    }

    /** A publisher that only {@link #read reads}: for a runtime that sends the records itself. */
    public static FilePublisher reader(IngestConfig config, FileDiscovery discovery) {
        return new FilePublisher(config, null, null, discovery);
    }

    /**
     * Publishes {@code file} as batch {@code batchId}: what {@code readAhead} prepared for it when
     * it did (the file unchanged since), else the file read now. Throws {@link FileChangedException}
     * when the file changed under a failing bad record (it was still being written), and the
     * policy's {@link TributaryException} when it stops the batch.
     */
    public FileResult publish(FileStat file, long batchId, ReadAhead readAhead) throws IOException {
        int partitions = producer.partitionsFor(config.eventsTopic()).size();
        ReadAhead.Prepared ready = readAhead == null ? null : readAhead.take(file, partitions, rowsHeader);
        Out out = new Out() {
            @Override
            public void event(int partition, Long timestampMs, byte[] value) {
                firstSendError.check();
                RecordHeaders headers = null;
                if (schemaHeader != null || rowsHeader != null) {
                    headers = new RecordHeaders();
                }
                if (schemaHeader != null) {
                    headers.add(Topics.SCHEMA_HEADER, schemaHeader);
                }
                if (rowsHeader != null) {
                    headers.add(Topics.ROWS_HEADER, rowsHeader);
                }
                producer.send(new ProducerRecord<>(config.eventsTopic(), partition, timestampMs, null, value, headers), firstSendError);
            }

            @Override
            public void deadLetter(BadRecord record) {
                firstSendError.check();
                producer.send(new ProducerRecord<>(config.deadLetterTopic(), null, IngestLogCodec.key(record.file()),
                        IngestLogCodec.deadLetter(config.pipeline(), batchId, record)), firstSendError);
            }
        };
        if (ready != null) {
            ready.replay(out);
            return ready.result();
        }
        return read(file, partitions, out);
    }

    /**
     * Reads {@code file} record by record into {@code out}, its rows packed for an events topic of
     * {@code partitions} partitions. Throws as {@link #publish}.
     */
    public FileResult read(FileStat file, int partitions, Out out) throws IOException {
        FileCounts n = new FileCounts();
        packs.start(partitions);
        int hidden = transform.hiddenColumns();
        boolean readsFacts = hidden > 0 || joins.unionAll().stream().anyMatch(b -> b.transform().hiddenColumns() > 0);
        Object[] facts = !readsFacts ? null : FileMetadata.facts(discovery.uri(file), file.size(), file.mtimeMs());
        String corruption = null;
        long skipped = 0;
        RawInput raw = new RawInput(discovery.open(file));
        try (raw) {
            RecordReader records = null;
            try {
                records = readers.open(file.relPath(), discovery.display(file.relPath()), discovery.location(file), raw, file.path());
                while (records.next()) {
                    Object[] row;
                    try {
                        row = records.row();
                    } catch (BadRecordException e) {
                        if (collecting) {
                            n.bad++;
                        } else {
                            reject(file, badRecord(file, records, e), out, n);
                        }
                        continue;
                    }
                    if (!collecting && (!joins.isEmpty() || transform.generates())) {
                        publish(file, records, row, 0, joins, transform, facts, out, n);
                        int query = 0;
                        for (UnionBranch b : joins.unionAll()) { // UNION ALL: each query's rows, one failing not the others'
                            publish(file, records, row, ++query, b.joins(), b.transform(), facts, out, n);
                        }
                        continue;
                    }
                    if (!collecting && !transform.identity()) {
                        try {
                            row = transform.apply(hidden == 0 ? row : FileMetadata.widen(row, facts, hidden));
                        } catch (ExpressionException e) {
                            reject(file, failedExpression(file, records, e), out, n);
                            continue;
                        }
                        if (row == null) {
                            continue; // where: not true for this row
                        }
                    }
                    if (!collecting && !constraints.isEmpty() && broken(file, records, java.util.Collections.singletonList(row), out, n)) {
                        continue;
                    }
                    if (limit.reads(0)) {
                        n.input++;
                    }
                    if (!limit.take(0)) {
                        continue; // past the LIMIT
                    }
                    long timestamp = n.good(row, eventTimeColumn);
                    if (!collecting) {
                        packs.add(row, timestamp, out);
                    }
                }
            } catch (IOException | RuntimeException e) {
                CorruptFileException corrupt = CorruptFileException.in(e);
                if (corrupt == null) {
                    throw e;
                }
                corruption = corrupt(file, corrupt, records == null ? 0 : records.line());
            } finally {
                if (records != null) {
                    skipped = records.skipped();
                    records.close();
                }
            }
            raw.drain();
        }
        packs.finish(out);
        return new FileResult(file, n.good, n.input, n.bad, n.deadLettered, raw.count(), raw.sha256(), n.etCount, n.etMin, n.etMax, n.etSum,
                corruption, skipped);
    }

    /** The rows a join, a lateral view or a generator of one query make of {@code row}: published together, or none of them. */
    private void publish(FileStat file, RecordReader records, Object[] row, int query, Joins joins, Transform transform, Object[] facts,
            Out out, FileCounts n) {
        List<Object[]> made;
        int hidden = transform.hiddenColumns();
        boolean reads = limit.reads(query);
        try {
            List<Object[]> joined = joins.isEmpty() ? java.util.Collections.singletonList(row) : joins.apply(row);
            if (transform.generates() && reads) {
                n.input += joined.size(); // Spark's numInputRows: the rows before the generator, those it gives none too
            }
            made = new java.util.ArrayList<>(joined.size());
            for (Object[] j : joined) {
                made.addAll(transform.rows(hidden == 0 ? j : FileMetadata.widen(j, facts, hidden)));
            }
        } catch (ExpressionException e) {
            reject(file, failedExpression(file, records, e), out, n);
            return;
        }
        if (made.isEmpty() || broken(file, records, made, out, n)) {
            return; // the line's rows go together, or none of them
        }
        for (Object[] o : made) {
            if (limit.take(query)) { // past the LIMIT: the first of the line's rows are kept, as Spark's limit cuts its generator's rows
                packs.add(o, n.good(o, eventTimeColumn), out);
            }
        }
        if (!transform.generates() && reads) {
            n.input += made.size();
        }
    }

    /**
     * A file whose data broke off at {@code lastLine}: with {@code ignoreCorruptFiles}, what is
     * wrong with it (the rows before the break are kept and the rest skipped, as in Spark); else the
     * error that stops the batch, naming the file, the codec and where. A file that changed since it
     * was listed is still being written: a {@link FileChangedException}, read again later.
     */
    private String corrupt(FileStat file, CorruptFileException e, long lastLine) {
        if (!discovery.readsListedVersion(file) && !file.sameAs(discovery.current(file))) {
            throw new FileChangedException(file);
        }
        String what = "file " + discovery.display(file.relPath()) + ": " + Printable.escape(e.describe(lastLine, file.size()));
        if (config.ignoreCorruptFiles()) {
            return what;
        }
        throw IngestErrors.corruptFile(what, e);
    }

    /** True when one of a line's {@code rows} breaks a CHECK constraint of the table: then the line is a bad record ({@link #reject}). */
    private boolean broken(FileStat file, RecordReader records, List<Object[]> rows, Out out, FileCounts n) {
        for (Object[] row : rows) {
            BadRecordException violation = constraints.violation(row);
            if (violation != null) {
                reject(file, badRecord(file, records, violation), out, n);
                return true;
            }
        }
        return false;
    }

    /** Counts a bad row, and sends it to the dead-letter topic when the policy keeps it. */
    private void reject(FileStat file, BadRecord record, Out out, FileCounts n) {
        n.bad++;
        if (keep(file, record)) {
            out.deadLetter(record);
            n.deadLettered++;
        }
    }

    private BadRecord badRecord(FileStat file, RecordReader records, BadRecordException e) {
        RecordReader.Text text = records.text(MAX_TEXT_BYTES);
        return new BadRecord(Printable.escape(file.relPath()), records.line(), e.field(), e.reason() + records.note(), text.text(),
                text.truncated());
    }

    /** A row an expression of the transform fails on, as Spark's ANSI mode fails it: the expression and Spark's error class. */
    private BadRecord failedExpression(FileStat file, RecordReader records, ExpressionException e) {
        RecordReader.Text text = records.text(MAX_TEXT_BYTES);
        return new BadRecord(Printable.escape(file.relPath()), records.line(), null,
                "expression \"" + e.expression() + "\" fails: " + e.condition() + ": " + e.reason(), text.text(), text.truncated());
    }

    /** True when the bad row goes to the dead-letter topic. */
    private boolean keep(FileStat file, BadRecord record) {
        BadRecordPolicy.Action action;
        try {
            action = config.onBadRecord().onBadRecord(record);
        } catch (TributaryException stop) {
            if (!file.sameAs(discovery.current(file))) {
                throw new FileChangedException(file);
            }
            throw stop;
        }
        return action == BadRecordPolicy.Action.DEAD_LETTER;
    }

    static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The SHA-256 of a file's content, in hex, read in bounded memory. */
    public static String sha256(java.nio.file.Path path) throws IOException {
        return sha256(Files.newInputStream(path));
    }

    /** The SHA-256 of a stream's content (which it closes), in hex, read in bounded memory. */
    public static String sha256(InputStream stream) throws IOException {
        MessageDigest d = sha256();
        byte[] buf = new byte[64 * 1024];
        try (InputStream in = stream) {
            int n;
            while ((n = in.read(buf)) > 0) {
                d.update(buf, 0, n);
            }
        }
        return HexFormat.of().formatHex(d.digest());
    }
}
