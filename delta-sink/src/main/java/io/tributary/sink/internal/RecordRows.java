package io.tributary.sink.internal;

import io.tributary.expressions.ExpressionException;
import io.tributary.expressions.RowTransform;
import io.tributary.schema.BadRecordException;
import io.tributary.schema.RowBinary;
import io.tributary.schema.RowJson;
import io.tributary.schema.RowPack;
import io.tributary.schema.Schema;
import io.tributary.schema.Topics;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import io.tributary.kafka.KafkaSubscription;
import io.tributary.kafka.SchemaChangeException;
import io.tributary.kafka.SourceRecords;
import org.apache.kafka.common.header.Header;

/**
 * The rows of a topic's records ({@link RowPack}: one or more per record) parsed with the sink's
 * schema, which holds the table's constraints (NOT NULL), then checked against the table's CHECK
 * constraints and invariants ({@link TableConstraints}); a row that does not fit goes to {@link BadRows}.
 */
final class RecordRows implements AutoCloseable {
    private final String topic;
    private final BadRows bad;
    private RowJson rowJson;
    /** The last schema header seen that the sink's schema covers (see {@link #parse}). */
    private byte[] coveredSchema;
    /** The {@link Topics#ROWS_HEADER} of the last binary record read, its rows' form, and whether they are the sink's columns. */
    private byte[] binaryHeader;
    private RowBinary binary;
    private boolean binaryDirect;
    /** A Kafka source's records (someone else's topics), or null for the pipeline's own topic. */
    private final KafkaSubscription source;
    /** How {@code source}'s records become rows, or null. */
    private final SourceRecords sourceRecords;
    /** Where the sink's columns are in {@code sourceRecords}' rows, or null when in the same order. */
    private int[] order;
    /** A Kafka source's transform (joins, where, select), or null. */
    private final RowTransform transform;
    /** The table's CHECK constraints, checked on each row parsed ({@link #constraints(TableConstraints)}). */
    private TableConstraints constraints = TableConstraints.NONE;

    RecordRows(String topic, RowJson rowJson, BadRows bad) {
        this(topic, rowJson, bad, null);
    }

    /**
     * With a {@code source}, records are read as its format says (json with {@code rowJson}, whose
     * schema is then the value's columns; string; bytes), Spark's Kafka columns added as it asks.
     */
    RecordRows(String topic, RowJson rowJson, BadRows bad, KafkaSubscription source) {
        this.topic = topic;
        this.source = source;
        this.sourceRecords = source != null ? new SourceRecords(source) : null;
        this.transform = source != null ? source.transform() : null;
        this.rowJson = source != null && source.valueSchema() != null ? new RowJson(source.valueSchema()) : rowJson;
        this.bad = bad;
        this.order = sourceRecords != null ? order(sourceRecords.columns(), rowJson.schema()) : null;
    }

    /**
     * Where each column of the sink's schema {@code sink} is in a source's rows of {@code rows} (-1: none, null);
     * null when they are in the same order (the table's order can differ from the source's: columns a later run added).
     */
    private static int[] order(Schema rows, Schema sink) {
        int[] from = new int[sink.size()];
        boolean same = rows.size() == sink.size();
        for (int i = 0; i < from.length; i++) {
            from[i] = rows.indexOf(sink.field(i).name());
            same &= from[i] == i;
        }
        return same ? null : from;
    }

    private Object[] ordered(Object[] row) {
        if (order == null) {
            return row;
        }
        Object[] out = new Object[order.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = order[i] < 0 || order[i] >= row.length ? null : row[order[i]];
        }
        return out;
    }

    /** Reads the rows of later records as {@code json} does (the sink's schema grew). */
    void rowJson(RowJson json) {
        if (source != null) {
            order = order(sourceRecords.columns(), json.schema()); // a Kafka source's values keep their schema, perhaps grown
            return;
        }
        this.rowJson = json;
        this.coveredSchema = null;
        this.binaryHeader = null;
    }

    /**
     * True when a keyed read takes a tombstone (a record key, no value) as its key's delete; false for
     * Debezium's change events, whose delete is the event before the tombstone, which log compaction keeps.
     */
    boolean tombstonesDelete() {
        return source == null || !source.format().startsWith("debezium-");
    }

    /** Checks the rows parsed from now on against {@code c} (the table's constraints at the batch's start). */
    void constraints(TableConstraints c) {
        this.constraints = c;
    }

    /** At a batch's start: the transform's join tables are read again when they have a new version; current_timestamp() is now. */
    void startBatch() {
        if (transform != null) {
            transform.startBatch(Instant.now());
        }
    }

    /**
     * Hands the rows a Kafka source's {@code row} makes (through the transform, when there is one) to {@code sink},
     * once every one of them holds the table's constraints; returns how many.
     *
     * @throws BadRecordException when an expression of the transform fails on the row, or a row breaks a constraint: none is handed on
     */
    private int deliver(Object[] row, Consumer<Object[]> sink) {
        List<Object[]> rows;
        try {
            rows = transform == null ? Collections.singletonList(ordered(row)) : transform.apply(row).stream().map(this::ordered).toList();
        } catch (ExpressionException e) {
            throw SinkErrors.expressionFails(e);
        }
        for (Object[] r : rows) {
            BadRecordException violated = violation(r);
            if (violated != null) {
                throw violated;
            }
        }
        rows.forEach(sink);
        return rows.size();
    }

    /** The constraint {@code row} violates, or null. */
    private BadRecordException violation(Object[] row) {
        return constraints.isEmpty() ? null : constraints.violation(row);
    }

    /**
     * Hands each row of the record's value to {@code sink}; returns how many. A record whose
     * {@link Topics#SCHEMA_HEADER} names columns the sink's schema lacks stops the batch before it is
     * parsed ({@link SchemaChangeException}); a row that does not fit the schema is one of {@link BadRows}.
     */
    int parse(ConsumerRecord<byte[], byte[]> r, Consumer<Object[]> sink) {
        if (source != null) {
            return parseSource(r, sink);
        }
        Header schemaHeader = r.headers().lastHeader(Topics.SCHEMA_HEADER);
        if (schemaHeader != null && !Arrays.equals(schemaHeader.value(), coveredSchema)) {
            Schema named = Schema.parseWithVariant(new String(schemaHeader.value(), StandardCharsets.UTF_8));
            if (!SchemaMerge.covers(rowJson.schema(), named)) {
                throw new SchemaChangeException(named);
            }
            coveredSchema = schemaHeader.value();
        }
        if (r.value() == null) {
            throw SinkErrors.noValue(topic, r.partition(), r.offset());
        }
        Header rowsHeader = r.headers().lastHeader(Topics.ROWS_HEADER);
        if (rowsHeader != null) {
            return parseBinary(r, rowsHeader.value(), sink);
        }
        int[] index = {0};
        int[] rejected = {0};
        int rows = RowPack.forEachRow(r.value(), (bytes, offset, length) -> {
            index[0]++;
            Object[] row;
            try {
                row = rowJson.parse(bytes, offset, length);
            } catch (BadRecordException e) {
                bad.reject(topic, r.partition(), r.offset(), index[0], bytes, offset, length, rowJson.schema().toDdl(), e);
                rejected[0]++;
                return;
            }
            BadRecordException violated = violation(row);
            if (violated != null) {
                bad.reject(topic, r.partition(), r.offset(), index[0], bytes, offset, length, rowJson.schema().toDdl(), violated);
                rejected[0]++;
                return;
            }
            sink.accept(row);
        });
        return rows - rejected[0];
    }

    /**
     * A record of {@link RowBinary} rows: each row as it was written when its columns are the sink's (a null in a
     * NOT NULL column aside), else its canonical JSON parsed as a JSON record's row is, so the rows, the bad rows and
     * their dead letters are those of the same rows in JSON.
     */
    private int parseBinary(ConsumerRecord<byte[], byte[]> r, byte[] header, Consumer<Object[]> sink) {
        if (!Arrays.equals(header, binaryHeader)) {
            RowBinary b = RowBinary.of(Schema.parse(new String(header, StandardCharsets.UTF_8)));
            if (b == null) {
                throw SinkErrors.unreadableBinaryRows(topic, r.partition(), r.offset(), "a nested column in " + new String(header, StandardCharsets.UTF_8));
            }
            binary = b;
            binaryDirect = b.sameColumns(rowJson.schema());
            binaryHeader = header;
        }
        RowBinary.Cursor rows = binary.cursor(r.value());
        int index = 0;
        int good = 0;
        while (rows.hasNext()) {
            index++;
            Object[] row;
            try {
                row = rows.next();
            } catch (IllegalArgumentException e) {
                throw SinkErrors.unreadableBinaryRows(topic, r.partition(), r.offset(), e.getMessage());
            }
            if (!binaryDirect || nullInNotNull(row)) {
                byte[] json = binary.json(row);
                try {
                    row = rowJson.parse(json, 0, json.length);
                } catch (BadRecordException e) {
                    bad.reject(topic, r.partition(), r.offset(), index, json, 0, json.length, rowJson.schema().toDdl(), e);
                    continue;
                }
            }
            BadRecordException violated = violation(row);
            if (violated != null) {
                byte[] json = binary.json(row);
                bad.reject(topic, r.partition(), r.offset(), index, json, 0, json.length, rowJson.schema().toDdl(), violated);
                continue;
            }
            sink.accept(row);
            good++;
        }
        return good;
    }

    /** True when {@code row} holds a null where the sink's schema says NOT NULL. */
    private boolean nullInNotNull(Object[] row) {
        Schema s = rowJson.schema();
        for (int i = 0; i < row.length; i++) {
            if (row[i] == null && !s.field(i).nullable()) {
                return true;
            }
        }
        return false;
    }

    /**
     * A Kafka source's record: its rows as the source's format says ({@link SourceRecords}), each through the
     * transform and the table's constraints; a row that does not decode or fit goes to {@link BadRows}.
     */
    private int parseSource(ConsumerRecord<byte[], byte[]> r, Consumer<Object[]> sink) {
        return sourceRecords.rows(r, row -> deliver(row, sink), (record, index, bytes, offset, length, ddl, why, binary) ->
                bad.reject(record.topic(), record.partition(), record.offset(), index, bytes, offset, length, ddl, why, binary));
    }

    /** Every dead letter of the rows parsed so far is in its topic ({@link BadRows#flush}). */
    void flush() {
        bad.flush();
    }

    @Override
    public void close() {
        bad.close();
    }
}
