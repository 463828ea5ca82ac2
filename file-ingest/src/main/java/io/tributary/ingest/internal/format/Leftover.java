package io.tributary.ingest.internal.format;

import io.tributary.ingest.SchemaEvolution;
import io.tributary.schema.DataType;
import io.tributary.schema.JsonTypes;
import io.tributary.schema.RescuedData;
import io.tributary.schema.Schema;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What one JSON record holds beside its schema's columns, and what {@link SchemaEvolution} does
 * with it once the record is parsed: rescue puts it into {@code _rescued_data} as a JSON object
 * with the file's path (Auto Loader's form); failOnNewColumns stops the run; addNewColumns stops
 * the batch ({@link NewColumnsException}), or, while the batch's new columns are being collected,
 * adds the fields' types to the collection.
 *
 * <p>A field goes to the column of exactly its name ({@link io.tributary.schema.Schema#fieldIndex}). A
 * field whose name differs from a column's only in case ({@code USER} beside {@code user}) is no new
 * column (column names are case-insensitive): rescue keeps it, as Auto Loader rescues a field whose
 * case does not match; the other modes leave it, as Spark's JSON reader does.
 */
final class Leftover implements InputJson.Leftovers {
    /** The new columns of a batch and their types, in the order they were first met. */
    static final class Collected {
        private final boolean typed;
        private final Map<String, DataType> types = new LinkedHashMap<>();

        Collected(boolean typed) {
            this.typed = typed;
        }

        void add(String name, String json) {
            DataType t = JsonTypes.infer(json, typed);
            types.put(name, types.containsKey(name) ? JsonTypes.merge(types.get(name), t) : t);
        }

        /** The columns found, typed (a column only ever null is STRING; one only ever {} is left out, as Spark drops it). */
        public Map<String, DataType> columns() {
            return JsonTypes.finish(types);
        }
    }

    private final SchemaEvolution mode;
    private final Schema schema;
    private final String file;
    private final String location;
    private final int rescued;
    private final Collected collected;
    private final Map<String, String> fields = new LinkedHashMap<>();
    private long line = 1;

    Leftover(SchemaEvolution mode, Schema schema, String file, String location, int rescuedColumn, Collected collected) {
        this.mode = mode;
        this.schema = schema;
        this.file = file;
        this.location = location;
        this.rescued = rescuedColumn;
        this.collected = collected;
    }

    /** The line of the records that follow (JSON Lines; a document's objects are all at line 1). */
    void line(long n) {
        this.line = n;
    }

    @Override
    public void start() {
        fields.clear();
    }

    @Override
    public Object[] end(Object[] row) {
        return finish(row, line);
    }

    @Override
    public void unknown(String name, String json) {
        if (mode != SchemaEvolution.RESCUE && schema.indexOf(name) >= 0) {
            return; // a column's name in another case: not a new column, and not the column either
        }
        if (mode != SchemaEvolution.RESCUE && JsonTypes.dropped(json)) {
            return; // only {} (or arrays of them): Spark's inference drops such a field, so it is no new column either
        }
        fields.put(name, json);
    }

    @Override
    public boolean rescues() {
        return mode == SchemaEvolution.RESCUE;
    }

    @Override
    public void mismatched(String name, String json) {
        fields.put(name, json);
    }

    /** Applies the mode to the parsed record at {@code line}; the row to publish. */
    Object[] finish(Object[] row, long line) {
        if (fields.isEmpty()) {
            return row;
        }
        switch (mode) {
            case RESCUE -> row[rescued] = rescuedJson();
            case FAIL_ON_NEW_COLUMNS -> throw FormatErrors.newFieldRefused(file, line, fields.keySet().iterator().next(), io.tributary.schema.RescuedData.COLUMN);
            case ADD_NEW_COLUMNS -> {
                if (collected == null) {
                    throw new NewColumnsException(file, line, new ArrayList<>(fields.keySet()));
                }
                fields.forEach(collected::add);
            }
            default -> { }
        }
        return row;
    }

    private String rescuedJson() {
        return RescuedData.json(fields, Map.of("_file_path", location));
    }
}
