package io.tributary.kafka.internal.format;

import io.tributary.schema.BadRecordException;
import io.tributary.schema.TributaryException;
import org.apache.kafka.common.errors.RetriableException;

/** The errors of a Kafka source's Avro and Protobuf values: their schemas, the schema registry, and values that are not rows. */
public final class FormatErrors {
    private FormatErrors() {
    }

    /**
     * The registry did not answer: a cause Kafka calls retriable, so the run loop waits the outage
     * out as it does a broker's, then stops naming it.
     */
    static final class RegistryOutage extends RetriableException {
        RegistryOutage(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** When a setting's schema is not one: {@code key} as the user wrote it is added by the caller. */
    public static TributaryException badSetting(String problem, Throwable cause) {
        return new TributaryException(problem, cause);
    }

    /** When an Avro type has no Spark column type. */
    static TributaryException unsupportedAvro(String path, String what) {
        return new TributaryException("the Avro schema's " + (path.isEmpty() ? "value" : "field " + path) + " is " + what
                + "; Spark's from_avro has no column for it either: change the schema");
    }

    /** When a Protobuf field has no column type here. */
    static TributaryException unsupportedProtobuf(String field, String what) {
        return new TributaryException("the Protobuf message's field " + field + " is " + what + ", which has no column type here;"
                + " change the message or read the values as format: bytes");
    }

    /** When a setting names a file that cannot be read. */
    public static TributaryException unreadableFile(String what, String path, Throwable cause) {
        return new TributaryException(what + " " + path + " cannot be read (" + cause + "); give a readable file", cause);
    }

    /** When a FileDescriptorSet is not one, or does not hold the message. */
    static TributaryException badDescriptor(String path, String problem, Throwable cause) {
        return new TributaryException("the Protobuf descriptor file " + path + " " + problem
                + "; make it with protoc --include_imports --descriptor_set_out=FILE", cause);
    }

    /** When a registry's Protobuf schema (.proto text) cannot be made a descriptor: the caller adds which schema it is. */
    static TributaryException badProtoText(String problem, Throwable cause) {
        return new TributaryException(problem, cause);
    }

    /** When the registry has no subject {@code subject}. */
    static TributaryException noSubject(String url, String subject) {
        return new TributaryException("the schema registry " + url + " has no subject " + subject + "; register the values'"
                + " schema under it, name another with source.kafka.schemaRegistry.subject, or give source.kafka.avroSchema");
    }

    /** When the registry's URL is not one. */
    static TributaryException badRegistryUrl(String url, String why) {
        return new TributaryException("source.kafka.schemaRegistry.url " + url + " is not a URL (" + why + "); give one such as"
                + " http://registry:8081");
    }

    /** When the registry does not answer or answers 5xx: retried by the run loop, as a broker outage is. */
    static TributaryException registryUnreachable(String request, String why, Throwable cause) {
        String message = "the schema registry does not answer GET " + request + " (" + why + "); a run waits such an outage out"
                + " for a while, as a broker's, then stops: check source.kafka.schemaRegistry.url and that the registry runs";
        return new TributaryException(message, new RegistryOutage(message, cause));
    }

    /** When the registry refuses a request (401, 403, 400...). */
    static TributaryException registryRefused(String request, int status, String body) {
        return new TributaryException("the schema registry refused GET " + request + ": HTTP " + status + " " + body
                + (status == 401 || status == 403 ? "; give its credentials as source.kafka.schemaRegistry.basic.auth.user.info"
                + " (user:password)" : ""));
    }

    /** When a record's schema id names a schema the values' own schema cannot read (Avro's schema resolution). */
    static TributaryException incompatibleSchema(String where, int id, String url, String why) {
        return new TributaryException(where + ": its schema id " + id + " in the registry " + url + " cannot be read as the"
                + " source's schema (" + why + "); the run stops rather than guess: give source.kafka.avroSchema as a schema both"
                + " read as (new fields with defaults), or land the topic anew");
    }

    /** Under schemaEvolution failOnNewColumns, a record whose schema id names a schema with fields the source's schema lacks. */
    static TributaryException newFields(String where, int id, String url, java.util.List<String> fields) {
        return new TributaryException(where + ": its schema id " + id + " in the registry " + url + " has fields the source's"
                + " schema lacks: " + String.join(", ", fields) + "; source.kafka.schemaEvolution is failOnNewColumns: set it to"
                + " addNewColumns to add them to the table (with sink.delta.mergeSchema), or none to read on without them");
    }

    /** A value that is not in Confluent's wire format. */
    /** A JSON value with fields the schema lacks, under schemaEvolution failOnNewColumns. */
    static TributaryException newJsonFields(String where, java.util.List<String> fields) {
        return new TributaryException(where + ": the JSON value has fields the source's schema lacks " + fields
                + ", and source.kafka.schemaEvolution is failOnNewColumns; add them to source.kafka.schema, or set schemaEvolution"
                + " to addNewColumns (with sink.delta.mergeSchema: true) or none");
    }

    static BadRecordException notWireFormat(String what) {
        return new BadRecordException(null, "not in a schema registry's wire format (a 0 byte, a 4-byte schema id): " + what);
    }

    /** A value whose schema id the registry does not have. */
    static BadRecordException unknownSchemaId(int id, String url) {
        return new BadRecordException(null, "schema id " + id + " is not in the schema registry " + url);
    }

    /** A value whose schema id names a schema of another kind, or one that does not parse. */
    static BadRecordException unusableSchema(int id, String url, String why) {
        return new BadRecordException(null, "schema id " + id + " in the schema registry " + url + " " + why);
    }

    /** A value that does not decode. */
    static BadRecordException undecodable(String format, String why) {
        return new BadRecordException(null, "the value does not decode as " + format + " of the source's schema: " + why);
    }
}
