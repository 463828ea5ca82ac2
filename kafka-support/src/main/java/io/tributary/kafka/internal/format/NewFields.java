package io.tributary.kafka.internal.format;

import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;

/**
 * What a registry's Avro schema with top-level fields the source's schema lacks does to the
 * source's schema, as {@code source.kafka.schemaEvolution} names it (Auto Loader's
 * {@code schemaEvolutionMode}): {@link #IGNORE} ({@code none}: read as the source's schema, the new
 * fields left out), {@link #ADD} ({@code addNewColumns}: the source's schema grows by them, nullable,
 * at the end, and the table by their columns), {@link #FAIL} ({@code failOnNewColumns}: the run stops
 * naming them); for JSON values also {@link #RESCUE} ({@code rescue}: kept in {@code _rescued_data}, with the
 * values their column cannot take).
 */
public enum NewFields {
    IGNORE, ADD, FAIL, RESCUE;

    /** The mode of a {@code schemaEvolution} value (none, addNewColumns, failOnNewColumns, rescue). */
    public static NewFields forName(String mode) {
        return switch (mode) {
            case "addNewColumns" -> ADD;
            case "failOnNewColumns" -> FAIL;
            case "rescue" -> RESCUE;
            default -> IGNORE;
        };
    }

    /** The top-level fields of record {@code writer} that record {@code reader} lacks, in the writer's order. */
    static List<Schema.Field> added(Schema reader, Schema writer) {
        List<Schema.Field> added = new ArrayList<>();
        if (reader.getType() != Schema.Type.RECORD || writer.getType() != Schema.Type.RECORD) {
            return added;
        }
        for (Schema.Field f : writer.getFields()) {
            if (reader.getField(f.name()) == null) {
                added.add(f);
            }
        }
        return added;
    }

    /**
     * {@code reader} with the {@code added} fields after its own, each nullable with a null default
     * (a value written before the field existed reads null, as the table's new column holds for the rows before it).
     */
    static Schema grown(Schema reader, List<Schema.Field> added) {
        List<Schema.Field> fields = new ArrayList<>();
        for (Schema.Field f : reader.getFields()) {
            fields.add(new Schema.Field(f, f.schema()));
        }
        for (Schema.Field f : added) {
            fields.add(new Schema.Field(f.name(), nullable(f.schema()), f.doc(), Schema.Field.NULL_DEFAULT_VALUE));
        }
        Schema grown = Schema.createRecord(reader.getName(), reader.getDoc(), reader.getNamespace(), reader.isError(), fields);
        reader.getObjectProps().forEach(grown::addProp);
        return grown;
    }

    /** {@code s} as a union whose first branch is null (so that null is its default). */
    private static Schema nullable(Schema s) {
        List<Schema> branches = new ArrayList<>(List.of(Schema.create(Schema.Type.NULL)));
        if (s.getType() == Schema.Type.UNION) {
            s.getTypes().stream().filter(b -> b.getType() != Schema.Type.NULL).forEach(branches::add);
        } else {
            branches.add(s);
        }
        return Schema.createUnion(branches);
    }
}
