package io.tributary.kafka.internal.format;

import io.tributary.kafka.KafkaSourceSettings;
import io.tributary.schema.TributaryException;
import io.tributary.settings.Setting;
import io.tributary.settings.Values;
import io.tributary.kafka.ValueFormat;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.avro.AvroRuntimeException;

/** The {@link ValueFormat} a Kafka source's settings ({@link KafkaSourceSettings}) ask for. */
public final class ValueFormats {
    private ValueFormats() {
    }

    /**
     * The format of {@code source.kafka.format} avro or protobuf, its schema from the settings or
     * the registry, or debezium-json, its columns the schema's plus op and lsn; null for the other
     * formats. A schema that is not one is refused naming its key.
     *
     * @param topics the topics read (the registry's default subject is {@code <topic>-value} of the one topic)
     */
    public static ValueFormat of(Values v, List<String> topics) {
        String format = v.get(KafkaSourceSettings.FORMAT);
        checkSchemaEvolution(v, format);
        if ("debezium-json".equals(format)) {
            return debezium(v);
        }
        if (v.has(KafkaSourceSettings.DEBEZIUM_SEQUENCE) && !"debezium-avro".equals(format)) {
            throw FormatErrors.badSetting(v.name(KafkaSourceSettings.DEBEZIUM_SEQUENCE) + " is set, but the format is " + format
                    + "; it names the source fields of Debezium's events: set the format to debezium-json or debezium-avro, or leave it"
                    + " out", null);
        }
        SchemaRegistry registry = v.has(KafkaSourceSettings.SCHEMA_REGISTRY_URL)
                ? new SchemaRegistry(v.get(KafkaSourceSettings.SCHEMA_REGISTRY_URL), v.get(KafkaSourceSettings.SCHEMA_REGISTRY_USER_INFO))
                : null;
        if ("avro".equals(format)) {
            return avro(v, topics, registry);
        }
        if ("debezium-avro".equals(format)) {
            return debeziumAvro(v, topics, registry);
        }
        if ("protobuf".equals(format) && !v.has(KafkaSourceSettings.PROTOBUF_DESCRIPTOR_FILE)) {
            return protobufFromRegistry(v, topics, registry);
        }
        if ("protobuf".equals(format)) {
            Setting<String> file = KafkaSourceSettings.PROTOBUF_DESCRIPTOR_FILE;
            String path = v.get(file);
            try {
                return new ProtobufFormat(ProtobufFormat.message(read(path), path, v.get(KafkaSourceSettings.PROTOBUF_MESSAGE)), registry);
            } catch (TributaryException e) {
                throw v.invalid(file, e);
            }
        }
        return null;
    }

    /** Debezium's change events read into the columns of {@code schema}, then op and lsn. */
    private static ValueFormat debezium(Values v) {
        if (!v.has(KafkaSourceSettings.SCHEMA)) {
            throw FormatErrors.badSetting(v.name(KafkaSourceSettings.SCHEMA) + " is not given; format debezium-json reads the"
                    + " events' before and after by it: give the table's columns as a DDL string, e.g. \"id INT, name STRING\"", null);
        }
        return new DebeziumFormat(v.get(KafkaSourceSettings.SCHEMA), v.get(KafkaSourceSettings.DEBEZIUM_SEQUENCE),
                v.name(KafkaSourceSettings.SCHEMA), v.name(KafkaSourceSettings.DEBEZIUM_SEQUENCE));
    }

    /** Debezium's Avro change events, read as the envelope of the subject's latest version: its row's columns, then op and lsn. */
    private static ValueFormat debeziumAvro(Values v, List<String> topics, SchemaRegistry registry) {
        if (registry == null) {
            throw FormatErrors.badSetting(v.name(KafkaSourceSettings.SCHEMA_REGISTRY_URL) + " is not given; format debezium-avro"
                    + " reads the events Confluent's Avro converter writes, whose schemas are in a schema registry: give its URL", null);
        }
        String subject = subject(v, topics);
        SchemaRegistry.Registered latest = registry.latest(subject);
        String what = "the latest schema of subject " + subject + " (id " + latest.id() + ") in the registry " + registry.url();
        try {
            if (!"AVRO".equalsIgnoreCase(latest.type())) {
                throw FormatErrors.badSetting("is a " + latest.type() + " schema, not Avro", null);
            }
            return new DebeziumAvroFormat(AvroFormat.parse(latest.schema()), registry, v.get(KafkaSourceSettings.DEBEZIUM_SEQUENCE),
                    v.name(KafkaSourceSettings.SCHEMA_REGISTRY_URL), v.name(KafkaSourceSettings.DEBEZIUM_SEQUENCE));
        } catch (AvroRuntimeException e) {
            throw v.invalid(KafkaSourceSettings.SCHEMA_REGISTRY_URL, FormatErrors.badSetting(what + " is not an Avro schema: "
                    + e.getMessage(), e));
        } catch (TributaryException e) {
            throw v.invalid(KafkaSourceSettings.SCHEMA_REGISTRY_URL, FormatErrors.badSetting(what + " " + e.getMessage(), e));
        }
    }

    /** Protobuf whose message is the latest version of the subject, compiled from its .proto text (protobufMessage, or its first message). */
    private static ValueFormat protobufFromRegistry(Values v, List<String> topics, SchemaRegistry registry) {
        String subject = subject(v, topics);
        SchemaRegistry.Registered latest = registry.latest(subject);
        String what = "the latest schema of subject " + subject + " (id " + latest.id() + ") in the registry " + registry.url();
        if (!"PROTOBUF".equalsIgnoreCase(latest.type())) {
            throw v.invalid(KafkaSourceSettings.SCHEMA_REGISTRY_URL, FormatErrors.badSetting(what + " is a " + latest.type()
                    + " schema, not Protobuf", null));
        }
        try {
            String name = v.has(KafkaSourceSettings.PROTOBUF_MESSAGE) ? v.get(KafkaSourceSettings.PROTOBUF_MESSAGE) : null;
            return new ProtobufFormat(ProtoText.message(ProtoText.compile(latest.schema()), name), registry, true);
        } catch (TributaryException e) {
            throw v.invalid(KafkaSourceSettings.SCHEMA_REGISTRY_URL, FormatErrors.badSetting(what + " " + e.getMessage(), e));
        }
    }

    private static String subject(Values v, List<String> topics) {
        return v.has(KafkaSourceSettings.SCHEMA_REGISTRY_SUBJECT) ? v.get(KafkaSourceSettings.SCHEMA_REGISTRY_SUBJECT)
                : topics.get(0) + "-value";
    }

    private static ValueFormat avro(Values v, List<String> topics, SchemaRegistry registry) {
        Setting<String> key;
        String text;
        if (v.has(KafkaSourceSettings.AVRO_SCHEMA)) {
            key = KafkaSourceSettings.AVRO_SCHEMA;
            text = v.get(key);
        } else if (v.has(KafkaSourceSettings.AVRO_SCHEMA_FILE)) {
            key = KafkaSourceSettings.AVRO_SCHEMA_FILE;
            try {
                text = new String(read(v.get(key)), StandardCharsets.UTF_8);
            } catch (TributaryException e) {
                throw v.invalid(key, e);
            }
        } else {
            key = KafkaSourceSettings.SCHEMA_REGISTRY_URL;
            text = registry.latest(subject(v, topics)).schema();
        }
        try {
            return new AvroFormat(AvroFormat.parse(text), registry, NewFields.forName(v.get(KafkaSourceSettings.SCHEMA_EVOLUTION)));
        } catch (AvroRuntimeException e) { // SchemaParseException among them
            throw v.invalid(key, FormatErrors.badSetting("not an Avro schema: " + e.getMessage(), e));
        } catch (TributaryException e) {
            throw v.invalid(key, e);
        }
    }

    /** Refuses, naming schemaEvolution, a mode other than none where values cannot bring new fields, or with includeMetadata. */
    private static void checkSchemaEvolution(Values v, String format) {
        String mode = v.get(KafkaSourceSettings.SCHEMA_EVOLUTION);
        if ("none".equals(mode)) {
            return;
        }
        if (!"json".equals(format) && (!"avro".equals(format) || !v.has(KafkaSourceSettings.SCHEMA_REGISTRY_URL))) {
            throw v.invalid(KafkaSourceSettings.SCHEMA_EVOLUTION, FormatErrors.badSetting(mode + " applies to format json, and"
                    + " to format avro with schemaRegistry.url, whose records may name a newer schema; here the values' schema is"
                    + " fixed: leave schemaEvolution out", null));
        }
        if ("rescue".equals(mode) && !"json".equals(format)) {
            throw v.invalid(KafkaSourceSettings.SCHEMA_EVOLUTION, FormatErrors.badSetting("rescue applies to format json, whose"
                    + " values may hold fields and values the schema does not take; an Avro record is read as the source's schema:"
                    + " use none, addNewColumns or failOnNewColumns", null));
        }
        if ("addNewColumns".equals(mode) && v.get(KafkaSourceSettings.INCLUDE_METADATA)) {
            throw v.invalid(KafkaSourceSettings.SCHEMA_EVOLUTION, FormatErrors.badSetting("addNewColumns does not go with"
                    + " includeMetadata (new columns would follow the Kafka columns); leave one of them out", null));
        }
    }

    /** The columns includeMetadata adds after the value's, as Spark's Kafka source names them. */
    private static final List<String> METADATA_COLUMNS = List.of("key", "topic", "partition", "offset", "timestamp", "timestamptype",
            "headers");

    /** Refuses, naming includeMetadata, a value's column named as one of the Kafka columns includeMetadata adds. */
    public static void checkNoMetadataColumn(Values v, io.tributary.schema.Schema columns) {
        for (io.tributary.schema.Field f : columns.fields()) {
            if (METADATA_COLUMNS.contains(f.name().toLowerCase(java.util.Locale.ROOT))) {
                throw v.invalid(KafkaSourceSettings.INCLUDE_METADATA, FormatErrors.badSetting("the values' column " + f.name()
                        + " is also one of the Kafka columns " + METADATA_COLUMNS + " includeMetadata adds; rename the field, or"
                        + " leave includeMetadata out", null));
            }
        }
    }

    private static byte[] read(String location) {
        try {
            Path p = location.startsWith("file:") ? Path.of(URI.create(location)) : Path.of(location);
            return Files.readAllBytes(p);
        } catch (IOException | RuntimeException e) {
            throw FormatErrors.unreadableFile("file", location, e);
        }
    }
}
