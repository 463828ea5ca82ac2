package io.tributary.sink.internal;

import io.tributary.schema.BadRecordException;
import io.tributary.schema.RowJson;
import io.tributary.schema.RowPack;
import io.tributary.schema.Schema;
import io.tributary.schema.Topics;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

/**
 * The rows of a topic's records ({@link RowPack}: one or more per record) parsed with the sink's
 * schema, which holds the table's constraints (NOT NULL); a row that does not fit goes to {@link BadRows}.
 */
final class RecordRows implements AutoCloseable {
    private final String topic;
    private final BadRows bad;
    private RowJson rowJson;
    /** The last schema header seen that the sink's schema covers (see {@link #parse}). */
    private byte[] coveredSchema;

    RecordRows(String topic, RowJson rowJson, BadRows bad) {
        this.topic = topic;
        this.rowJson = rowJson;
        this.bad = bad;
    }

    /** Reads the rows of later records as {@code json} does (the sink's schema grew). */
    void rowJson(RowJson json) {
        this.rowJson = json;
        this.coveredSchema = null;
    }

    /**
     * Hands each row of the record's value to {@code sink}; returns how many. A record whose
     * {@link Topics#SCHEMA_HEADER} names columns the sink's schema lacks stops the batch before it is
     * parsed ({@link SchemaChangeException}); a row that does not fit the schema is one of {@link BadRows}.
     */
    int parse(ConsumerRecord<byte[], byte[]> r, Consumer<Object[]> sink) {
        Header schemaHeader = r.headers().lastHeader(Topics.SCHEMA_HEADER);
        if (schemaHeader != null && !Arrays.equals(schemaHeader.value(), coveredSchema)) {
            Schema named = Schema.parse(new String(schemaHeader.value(), StandardCharsets.UTF_8));
            if (!SchemaMerge.covers(rowJson.schema(), named)) {
                throw new SchemaChangeException(named);
            }
            coveredSchema = schemaHeader.value();
        }
        if (r.value() == null) {
            throw SinkErrors.noValue(topic, r.partition(), r.offset());
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
            sink.accept(row);
        });
        return rows - rejected[0];
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
