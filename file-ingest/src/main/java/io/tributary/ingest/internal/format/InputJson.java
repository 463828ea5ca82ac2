package io.tributary.ingest.internal.format;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import io.tributary.expressions.JsonInputVariants;
import io.tributary.schema.JsonRowReader;
import io.tributary.schema.RowJson;
import io.tributary.schema.Schema;
import io.tributary.schema.TimeTexts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * JSON input files read as Spark's JSON reader reads them: each record by {@link RowJson}'s rules
 * (with the file's {@link TimeFormats}), plus what only input needs: the fields the schema lacks
 * and the values of the wrong type handed to {@link Leftovers} (schema evolution, rescued data),
 * a whole file read as one document ({@code multiLine}), and a VARIANT field read as the variant of its
 * JSON value ({@link JsonInputVariants}), as Spark's JSON reader reads it.
 */
public final class InputJson {
    private final RowJson rows;
    /** Spark's {@code singleVariantColumn}: the one VARIANT column each whole record is; null when records are rows of fields. */
    private final String singleVariant;

    public InputJson(Schema schema, TimeTexts times) {
        this(schema, times, null);
    }

    /**
     * @param singleVariant the schema's one VARIANT column when each whole record is read as it (Spark's
     *                      {@code singleVariantColumn}), else null
     */
    public InputJson(Schema schema, TimeTexts times, String singleVariant) {
        this.rows = new RowJson(schema, times, JsonInputVariants.INSTANCE);
        this.singleVariant = singleVariant;
    }

    /** The rows' JSON: how a record reads without leftovers, and how every row is written to the events topic. */
    public RowJson rowJson() {
        return rows;
    }

    /** What parsing a record leaves over ({@link JsonRowReader.Leftovers}), and when each record starts and ends. */
    public interface Leftovers extends JsonRowReader.Leftovers {
        /** Before each record (a line, or each object of a document). */
        default void start() {
        }

        /** After each record parsed whole: the row to give (it may fill a column, or throw). */
        default Object[] end(Object[] row) {
            return row;
        }
    }

    /** Parses one JSON object (a JSON-lines line), or with {@code singleVariantColumn} the line's value whole. */
    public Object[] parse(byte[] bytes, int offset, int length) {
        return singleVariant != null ? wholeVariant(bytes, offset, length) : rows.parse(bytes, offset, length);
    }

    /**
     * The record's first JSON value whole as the row's one VARIANT, as Spark's {@code singleVariantColumn} reads it
     * ({@code JacksonParser.parseVariant} at the root): an object, an array or a scalar, JSON {@code null} a variant null;
     * what follows the value is not read, as Spark reads no further; a record with no value gives null (no row).
     */
    private Object[] wholeVariant(byte[] bytes, int offset, int length) {
        try (JsonParser p = JsonRowReader.parser(bytes, offset, length)) {
            JsonToken first = p.nextToken();
            return first == null ? null : new Object[] {JsonInputVariants.INSTANCE.read(p, first, singleVariant)};
        } catch (JsonProcessingException e) {
            throw JsonRowReader.malformed(e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** As {@link #parse(byte[], int, int)}, handing what the schema does not take to {@code leftovers} (null: ignore it). */
    public Object[] parse(byte[] bytes, int offset, int length, Leftovers leftovers) {
        if (leftovers == null) {
            return parse(bytes, offset, length);
        }
        leftovers.start();
        Object[] fast = rows.parseFastKnownFields(bytes, offset, length);
        if (fast != null) {
            return leftovers.end(fast);
        }
        try (JsonParser p = JsonRowReader.parser(bytes, offset, length)) {
            return leftovers.end(rows.reader().record(p, bytes, offset, leftovers));
        } catch (JsonProcessingException e) {
            throw JsonRowReader.malformed(e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Parses a whole JSON document, as Spark's {@code multiLine} reads a file: an object is one
     * row, an array of objects one row each. Any error makes the whole document bad.
     */
    public List<Object[]> parseDocument(byte[] bytes, int offset, int length) {
        return parseDocument(bytes, offset, length, null);
    }

    /** As {@link #parseDocument(byte[], int, int)}, with {@link Leftovers} for each object. */
    public List<Object[]> parseDocument(byte[] bytes, int offset, int length, Leftovers leftovers) {
        if (singleVariant != null) { // Spark's multiLine singleVariantColumn: the file's first value is its one record
            Object[] row = wholeVariant(bytes, offset, length);
            return row == null ? List.of() : List.<Object[]>of(row);
        }
        try (JsonParser p = JsonRowReader.parser(bytes, offset, length)) {
            JsonToken first = p.nextToken();
            List<Object[]> rows = new ArrayList<>();
            if (first == JsonToken.START_OBJECT) {
                rows.add(documentObject(p, bytes, offset, leftovers));
            } else if (first == JsonToken.START_ARRAY) {
                JsonToken t;
                while ((t = p.nextToken()) == JsonToken.START_OBJECT) {
                    rows.add(documentObject(p, bytes, offset, leftovers));
                }
                if (t != JsonToken.END_ARRAY) {
                    throw FormatErrors.notObjectsInArray(JsonRowReader.describe(t));
                }
            } else {
                throw FormatErrors.notAnObjectOrArray(JsonRowReader.describe(first));
            }
            JsonToken trailing = p.nextToken();
            if (trailing != null) {
                throw FormatErrors.trailingContent(JsonRowReader.describe(trailing));
            }
            return rows;
        } catch (JsonProcessingException e) {
            throw JsonRowReader.malformed(e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private Object[] documentObject(JsonParser p, byte[] bytes, int offset, Leftovers leftovers) throws IOException {
        if (leftovers == null) {
            return rows.reader().object(p, bytes, offset, null);
        }
        leftovers.start();
        return leftovers.end(rows.reader().object(p, bytes, offset, leftovers));
    }
}
