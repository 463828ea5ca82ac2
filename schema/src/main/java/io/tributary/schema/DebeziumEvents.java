package io.tributary.schema;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Debezium's JSON change events ({@code format: debezium-json}) read into rows: the event's
 * envelope ({@code before}, {@code after}, {@code op}, {@code source}, {@code ts_ms}), bare or
 * under the JSON converter's schema wrapper ({@code {"schema": ..., "payload": {...}}}), gives
 * the columns of {@code after} ({@code before} for a delete, {@code op} d) read by the schema with
 * the JSON format's type rules ({@link JsonRowReader}; Debezium's encodings of dates, timestamps and
 * decimals undone where the wrapper's schema names them, {@link DebeziumTypes}), then {@code op} (STRING) and {@code lsn}:
 * the values of the {@code source} fields the sequence names. One field (PostgreSQL's
 * {@code lsn}, the default) is a BIGINT; several (MySQL's {@code file}, {@code pos}, {@code row})
 * a STRING that sorts as they do: each whole number written with 19 digits, zero-padded, each
 * text as it is, joined by a space. A tombstone ({@code null}, or a null {@code payload}) and a
 * truncate event ({@code op} t) give no row ({@link Event#skip()}); anything else that is not an
 * event is a bad record naming the field. The file source ({@code source.files.format}) and a Kafka
 * source ({@code source.kafka.format}) read events alike through it; Debezium's Avro events
 * ({@code debezium-avro}) too, once decoded ({@link #event(String, Object[], Object[], JsonNode)}).
 */
public final class DebeziumEvents {
    private static final ObjectMapper TREES = new ObjectMapper();
    /** The digits of the largest BIGINT: every whole number of a STRING sequence is padded to this. */
    private static final int DIGITS = 19;
    /** The column of each change's operation ({@code c}, {@code r}, {@code u}, {@code d}). */
    public static final String OP = "op";
    /** The column of each change's sequence, from the event's {@code source} block. */
    public static final String SEQUENCE = "lsn";
    /** The {@code source} field of the sequence by default (PostgreSQL's). */
    public static final String DEFAULT_SEQUENCE = "lsn";

    /** Why an event gave no row. */
    public enum Skip { TOMBSTONE, TRUNCATE }

    /** One event: its row, or why it has none. */
    public record Event(Object[] row, Skip skip) {
        public static final Event TOMBSTONE = new Event(null, Skip.TOMBSTONE);
        public static final Event TRUNCATE = new Event(null, Skip.TRUNCATE);
    }

    private final Schema data;
    private final DebeziumTypes types;
    private final int columns;
    private final List<String> sequence;

    /** Events read into rows of {@code rows} ({@link #rowSchema}'s), the sequence made of the {@code source} fields {@code sequence}. */
    public DebeziumEvents(Schema rows, TimeTexts times, List<String> sequence) {
        this(rows, times, sequence, JsonVariants.CANONICAL);
    }

    /**
     * As above, a VARIANT column (or field) read as {@code variants} says: for events from Debezium, the expressions module's
     * {@code JsonTextVariants}, a string holding JSON ({@code io.debezium.data.Json}) the variant {@code parse_json} makes of it.
     */
    public DebeziumEvents(Schema rows, TimeTexts times, List<String> sequence, JsonVariants variants) {
        Schema data = new Schema(rows.fields().subList(0, rows.size() - 2));
        this.data = data;
        this.columns = data.size();
        this.types = new DebeziumTypes(data, times, variants);
        this.sequence = List.copyOf(sequence);
    }

    /**
     * The rows' schema: the table's columns {@code data}, then {@code op STRING} and {@code lsn},
     * BIGINT for a sequence of one field, STRING for more. A schema that already ends with them
     * (a config built again) is kept; one with either elsewhere is refused, naming {@code schemaKey}.
     */
    public static Schema rowSchema(Schema data, List<String> sequence, String schemaKey, String sequenceKey) {
        if (sequence.isEmpty()) {
            throw DebeziumErrors.sequenceEmpty(sequenceKey);
        }
        DataType lsnType = sequence.size() == 1 ? DataType.LONG : DataType.STRING;
        String op = OP;
        String lsn = SEQUENCE;
        int opAt = data.indexOf(op);
        int lsnAt = data.indexOf(lsn);
        if (opAt < 0 && lsnAt < 0) {
            List<Field> fields = new ArrayList<>(data.fields());
            fields.add(new Field(op, DataType.STRING, true));
            fields.add(new Field(lsn, lsnType, true));
            return new Schema(fields);
        }
        String expected = op + " STRING, " + lsn + " " + lsnType.ddl();
        boolean atTheEnd = opAt == data.size() - 2 && lsnAt == data.size() - 1
                && data.field(opAt).type().equals(DataType.STRING) && data.field(lsnAt).type().equals(lsnType);
        if (!atTheEnd) {
            throw DebeziumErrors.columnTaken(schemaKey, opAt >= 0 ? op : lsn, data.toDdl(), expected);
        }
        return data;
    }

    /** Reads one event: a JSON-lines line. */
    public Event parse(byte[] bytes, int offset, int length) {
        try (JsonParser p = JsonRowReader.parser(bytes, offset, length)) {
            Event e = event(p, p.nextToken(), bytes, offset);
            JsonToken trailing = p.nextToken();
            if (trailing != null) {
                throw DebeziumErrors.trailingAfterEvent(JsonRowReader.describe(trailing));
            }
            return e;
        } catch (JsonProcessingException e) {
            throw JsonRowReader.malformed(e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Reads a whole document ({@code multiLine}): one event, or an array of events. Any error makes the whole document bad. */
    public List<Event> parseDocument(byte[] bytes, int offset, int length) {
        try (JsonParser p = JsonRowReader.parser(bytes, offset, length)) {
            JsonToken first = p.nextToken();
            List<Event> events = new ArrayList<>();
            if (first == JsonToken.START_ARRAY) {
                JsonToken t;
                while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
                    if (t == null) {
                        throw DebeziumErrors.notAnEvent("the end of the file inside the array");
                    }
                    events.add(event(p, t, bytes, offset));
                }
            } else {
                events.add(event(p, first, bytes, offset));
            }
            JsonToken trailing = p.nextToken();
            if (trailing != null) {
                throw DebeziumErrors.trailingContent(JsonRowReader.describe(trailing));
            }
            return events;
        } catch (JsonProcessingException e) {
            throw JsonRowReader.malformed(e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The envelope's fields as read. */
    private static final class Envelope {
        Object[] before;
        Object[] after;
        String op;
        JsonNode source;
        boolean fields;
    }

    /** One event whose first token {@code p} just read. */
    private Event event(JsonParser p, JsonToken first, byte[] bytes, int offset) throws IOException {
        if (first == JsonToken.VALUE_NULL) {
            return Event.TOMBSTONE;
        }
        if (first != JsonToken.START_OBJECT) {
            throw DebeziumErrors.notAnEvent(JsonRowReader.describe(first));
        }
        Envelope env = new Envelope();
        DebeziumTypes.Readers readers = types.plain();
        boolean wrapped = false;
        boolean nullPayload = false;
        JsonToken t;
        while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            JsonToken v = p.nextToken();
            if (name.equals("schema")) {
                if (v == JsonToken.START_OBJECT) {
                    readers = types.of(TREES.readTree(p)); // the converter writes it before the payload
                } else {
                    p.skipChildren();
                }
            } else if (name.equals("payload")) {
                wrapped = true;
                if (v == JsonToken.VALUE_NULL) {
                    nullPayload = true;
                } else if (v == JsonToken.START_OBJECT) {
                    while (p.nextToken() == JsonToken.FIELD_NAME) {
                        String inner = p.currentName();
                        field(p, inner, p.nextToken(), env, readers, bytes, offset);
                    }
                } else {
                    throw DebeziumErrors.envelopeFieldType("payload", "an object", JsonRowReader.describe(v));
                }
            } else {
                field(p, name, v, env, readers, bytes, offset);
            }
        }
        if (t != JsonToken.END_OBJECT) {
            throw DebeziumErrors.notAnEvent(JsonRowReader.describe(t));
        }
        if (wrapped && nullPayload && !env.fields) {
            return Event.TOMBSTONE; // the JSON converter's null value with schemas.enable
        }
        return row(env);
    }

    /** One field of the envelope; fields it does not know (transaction, ts_us...) are skipped. */
    private void field(JsonParser p, String name, JsonToken v, Envelope env, DebeziumTypes.Readers readers, byte[] bytes, int offset)
            throws IOException {
        switch (name) {
            case "before" -> env.before = readers.decode(image(p, v, readers.before(), name, bytes, offset), data, name);
            case "after" -> env.after = readers.decode(image(p, v, readers.after(), name, bytes, offset), data, name);
            case "op" -> {
                if (v != JsonToken.VALUE_STRING) {
                    throw DebeziumErrors.envelopeFieldType(name, "a text (c, r, u, d or t)", JsonRowReader.describe(v));
                }
                env.op = p.getText();
            }
            case "source" -> {
                if (v != JsonToken.START_OBJECT && v != JsonToken.VALUE_NULL) {
                    throw DebeziumErrors.envelopeFieldType(name, "an object", JsonRowReader.describe(v));
                }
                env.source = v == JsonToken.VALUE_NULL ? null : TREES.readTree(p);
            }
            case "ts_ms" -> {
                if (v != JsonToken.VALUE_NUMBER_INT && v != JsonToken.VALUE_NULL) {
                    throw DebeziumErrors.envelopeFieldType(name, "a whole number", JsonRowReader.describe(v));
                }
            }
            default -> {
                p.skipChildren();
                return;
            }
        }
        env.fields = true;
    }

    /** A row image ({@code before} or {@code after}): null, or an object read as a row of the table's columns. */
    private static Object[] image(JsonParser p, JsonToken v, JsonRowReader reader, String name, byte[] bytes, int offset)
            throws IOException {
        if (v == JsonToken.VALUE_NULL) {
            return null;
        }
        if (v != JsonToken.START_OBJECT) {
            throw DebeziumErrors.envelopeFieldType(name, "an object or null", JsonRowReader.describe(v));
        }
        try {
            return reader.object(p, bytes, offset, null);
        } catch (BadRecordException e) {
            throw DebeziumErrors.inImage(name, e);
        }
    }

    /**
     * The event of an envelope another reader decoded (Debezium's Avro converter): {@code before} and
     * {@code after} already rows of the data columns (or null), {@code source} the source block as
     * JSON, by the same rules as a JSON event (op c/r/u after, d before, t no row, the sequence).
     *
     * @throws BadRecordException when it is not an event
     */
    public Event event(String op, Object[] before, Object[] after, JsonNode source) {
        Envelope env = new Envelope();
        env.op = op;
        env.before = before;
        env.after = after;
        env.source = source;
        return row(env);
    }

    private Event row(Envelope env) {
        if (env.op == null) {
            throw DebeziumErrors.noOp();
        }
        Object[] image;
        switch (env.op) {
            case "t" -> {
                return Event.TRUNCATE;
            }
            case "c", "r", "u" -> {
                if (env.after == null) {
                    throw DebeziumErrors.noImage(env.op, "after");
                }
                image = env.after;
            }
            case "d" -> {
                if (env.before == null) {
                    throw DebeziumErrors.deleteWithoutBefore();
                }
                image = env.before;
            }
            default -> throw DebeziumErrors.unknownOp(env.op);
        }
        Object[] row = Arrays.copyOf(image, columns + 2);
        row[columns] = env.op;
        row[columns + 1] = sequence(env.source);
        return new Event(row, null);
    }

    /** The {@code lsn} column's value: the sequence's {@code source} fields. */
    private Object sequence(JsonNode source) {
        if (source == null) {
            throw DebeziumErrors.noSource(sequence);
        }
        if (sequence.size() == 1) {
            Long n = whole(source.get(sequence.get(0)), sequence.get(0));
            if (n == null) {
                throw DebeziumErrors.notWholeSequence("source." + sequence.get(0), source.get(sequence.get(0)).toString());
            }
            return n;
        }
        StringBuilder out = new StringBuilder();
        for (String f : sequence) {
            JsonNode n = source.get(f);
            Long whole = whole(n, f);
            if (out.length() > 0) {
                out.append(' ');
            }
            if (whole != null) {
                if (whole < 0) {
                    throw DebeziumErrors.negativeSequence("source." + f, whole);
                }
                String digits = Long.toString(whole);
                out.append("0".repeat(DIGITS - digits.length())).append(digits);
            } else if (n.isTextual()) {
                out.append(n.textValue());
            } else {
                throw DebeziumErrors.sequenceFieldType("source." + f, n.toString());
            }
        }
        return out.toString();
    }

    /** A whole number (a JSON integer, or a text of digits such as Oracle's scn); null for another value; a missing field is a bad record. */
    private static Long whole(JsonNode n, String field) {
        if (n == null || n.isNull()) {
            throw DebeziumErrors.missingSequence("source." + field);
        }
        if (n.isIntegralNumber() && n.canConvertToLong()) {
            return n.longValue();
        }
        if (n.isTextual() && n.textValue().matches("[0-9]{1,19}")) {
            try {
                return Long.parseLong(n.textValue());
            } catch (NumberFormatException e) {
                return null;
            }
        }
        return null;
    }
}
