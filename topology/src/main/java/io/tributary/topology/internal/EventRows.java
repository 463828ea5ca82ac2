package io.tributary.topology.internal;

import io.tributary.schema.BadRecordException;
import io.tributary.schema.RowBinary;
import io.tributary.schema.RowJson;
import io.tributary.schema.RowPack;
import io.tributary.schema.Schema;
import io.tributary.schema.Topics;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.function.Supplier;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * The rows of an events record, as the aggregation reads them: JSON Lines ({@link RowPack}), or binary rows
 * ({@link RowBinary}) when the record's {@link Topics#ROWS_HEADER} names their schema, as file-ingest writes
 * them for an aggregation it alone feeds. A binary row of the input schema's columns is taken as it was
 * written; one of other columns is read as its canonical JSON, as a JSON record's row is.
 */
final class EventRows {
    /** What a row is handed on as: parsed, and its JSON when the record was JSON Lines (else null: see {@link #json}). */
    interface Visitor {
        void row(Object[] row, byte[] json, int offset, int length);
    }

    private final RowJson input;
    private byte[] binaryHeader;
    private RowBinary binary;
    private boolean binaryDirect;

    EventRows(RowJson input) {
        this.input = input;
    }

    /**
     * Hands each row of a record to {@code visitor}; returns how many.
     *
     * @throws io.tributary.schema.TributaryException naming {@code where} when a row does not fit the input schema
     */
    int forEach(Headers headers, byte[] value, Supplier<String> where, Visitor visitor) {
        Header rows = headers.lastHeader(Topics.ROWS_HEADER);
        if (rows == null) {
            return RowPack.forEachRow(value, (bytes, offset, length) -> visitor.row(parse(bytes, offset, length, where), bytes, offset, length));
        }
        RowBinary.Cursor cursor = binary(rows.value(), where).cursor(value);
        int n = 0;
        while (cursor.hasNext()) {
            Object[] row;
            try {
                row = cursor.next();
            } catch (IllegalArgumentException e) {
                throw TopologyErrors.unreadableBinaryEvents(where.get(), e.getMessage());
            }
            if (!binaryDirect) {
                byte[] json = binary.json(row);
                row = parse(json, 0, json.length, where);
            }
            visitor.row(row, null, 0, 0);
            n++;
        }
        return n;
    }

    private Object[] parse(byte[] bytes, int offset, int length, Supplier<String> where) {
        try {
            return input.parse(bytes, offset, length);
        } catch (BadRecordException e) {
            throw TopologyErrors.eventDoesNotFit(where.get(), e.getMessage(), e);
        }
    }

    /** The JSON of a row handed on without it (a binary record's): its canonical JSON, as file-ingest writes JSON Lines. */
    String json(Object[] row) {
        return new String(input.write(row), StandardCharsets.UTF_8);
    }

    private RowBinary binary(byte[] header, Supplier<String> where) {
        if (!Arrays.equals(header, binaryHeader)) {
            String ddl = new String(header, StandardCharsets.UTF_8);
            RowBinary b;
            try {
                b = RowBinary.of(Schema.parse(ddl));
            } catch (RuntimeException e) {
                throw TopologyErrors.unreadableBinaryEvents(where.get(), "their schema " + ddl + " does not parse: " + e.getMessage());
            }
            if (b == null) {
                throw TopologyErrors.unreadableBinaryEvents(where.get(), "a nested column in " + ddl);
            }
            binary = b;
            binaryDirect = b.sameColumns(input.schema());
            binaryHeader = header;
        }
        return binary;
    }
}
