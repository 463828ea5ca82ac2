package io.tributary.kafka.internal.format;

import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorSet;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.DescriptorValidationException;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.InvalidProtocolBufferException;
import io.tributary.schema.Schema;
import io.tributary.kafka.ValueFormat;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Protobuf values, as Spark's {@code from_protobuf(value, messageName, descFilePath)}: each value
 * is the binary encoding of the message; or, with a {@link SchemaRegistry}, Confluent's wire
 * format ({@link WireFormat}), whose schema id must be a Protobuf schema in the registry. A value
 * is read as the source's message, by field numbers, as Protobuf reads a newer or older
 * writer's message: fields it does not know are skipped, fields missing are null.
 */
public final class ProtobufFormat implements ValueFormat {
    private final Descriptor message;
    private final Schema columns;
    private final SchemaRegistry registry;
    private final Set<Integer> checkedIds = ConcurrentHashMap.newKeySet();
    /** With the message from the registry alone: each schema id's file, compiled, to find the message its indexes name. */
    private final Map<Integer, FileDescriptor> files;

    public ProtobufFormat(Descriptor message, SchemaRegistry registry) {
        this(message, registry, false);
    }

    /**
     * @param byIndexes {@code message} came from the registry ({@link ProtoText}): a value's schema id and message
     *                  indexes must name a message of that full name (a writer's version of it), else the value is a bad record
     */
    public ProtobufFormat(Descriptor message, SchemaRegistry registry, boolean byIndexes) {
        this.message = message;
        this.columns = ProtobufColumns.of(message);
        this.registry = registry;
        this.files = byIndexes ? new ConcurrentHashMap<>() : null;
    }

    /** The message {@code name} (a full name, or a name that one message has) in FileDescriptorSet {@code bytes} read from {@code path}. */
    public static Descriptor message(byte[] bytes, String path, String name) {
        FileDescriptorSet set;
        try {
            set = FileDescriptorSet.parseFrom(bytes);
        } catch (InvalidProtocolBufferException e) {
            throw FormatErrors.badDescriptor(path, "is not a FileDescriptorSet (" + e.getMessage() + ")", e);
        }
        Map<String, FileDescriptorProto> protos = new HashMap<>();
        set.getFileList().forEach(f -> protos.put(f.getName(), f));
        Map<String, FileDescriptor> built = new HashMap<>();
        List<Descriptor> found = new ArrayList<>();
        for (FileDescriptorProto f : set.getFileList()) {
            for (Descriptor d : build(f.getName(), protos, built, path).getMessageTypes()) {
                collect(d, name, found);
            }
        }
        if (found.size() != 1) {
            throw FormatErrors.badDescriptor(path, found.isEmpty() ? "holds no message " + name
                    : "holds several messages named " + name + " (" + found.stream().map(Descriptor::getFullName).toList()
                    + "): give the full name", null);
        }
        return found.get(0);
    }

    private static void collect(Descriptor d, String name, List<Descriptor> found) {
        if (d.getFullName().equals(name) || d.getName().equals(name) && !name.contains(".")) {
            found.add(d);
        }
        d.getNestedTypes().forEach(n -> collect(n, name, found));
    }

    private static FileDescriptor build(String file, Map<String, FileDescriptorProto> protos, Map<String, FileDescriptor> built,
                                        String path) {
        FileDescriptor done = built.get(file);
        if (done != null) {
            return done;
        }
        FileDescriptorProto proto = protos.get(file);
        if (proto == null) {
            throw FormatErrors.badDescriptor(path, "lacks " + file + ", which another file imports", null);
        }
        List<FileDescriptor> deps = new ArrayList<>();
        for (String dep : proto.getDependencyList()) {
            deps.add(build(dep, protos, built, path));
        }
        try {
            FileDescriptor fd = FileDescriptor.buildFrom(proto, deps.toArray(new FileDescriptor[0]));
            built.put(file, fd);
            return fd;
        } catch (DescriptorValidationException e) {
            throw FormatErrors.badDescriptor(path, "has an invalid " + file + " (" + e.getMessage() + ")", e);
        }
    }

    @Override
    public Schema columns() {
        return columns;
    }

    @Override
    public Object[] row(String topic, int partition, long offset, byte[] value) {
        int start = 0;
        if (registry != null) {
            WireFormat wire = WireFormat.of(value, true);
            check(wire.schemaId());
            if (files != null) {
                checkMessage(wire);
            }
            start = wire.offset();
        }
        try {
            DynamicMessage m = DynamicMessage.parseFrom(message, com.google.protobuf.CodedInputStream.newInstance(value, start,
                    value.length - start));
            return ProtobufValues.row(m, columns);
        } catch (java.io.IOException | RuntimeException e) { // InvalidProtocolBufferException among them
            throw FormatErrors.undecodable("Protobuf " + message.getFullName(), e.getMessage());
        }
    }

    private void check(int id) {
        if (checkedIds.contains(id)) {
            return;
        }
        SchemaRegistry.Registered registered = registry.byId(id, false);
        if (registered == null) {
            throw FormatErrors.unknownSchemaId(id, registry.url());
        }
        if (!"PROTOBUF".equalsIgnoreCase(registered.type())) {
            throw FormatErrors.unusableSchema(id, registry.url(), "is a " + registered.type() + " schema, not Protobuf");
        }
        checkedIds.add(id);
    }

    /** The message a value's schema id and indexes name is the source's (by full name), or the value is a bad record. */
    private void checkMessage(WireFormat wire) {
        int id = wire.schemaId();
        FileDescriptor file = files.get(id);
        if (file == null) {
            String text = registry.byId(id, false).schema(); // check(id) found it; a registry outage is not a bad record
            try {
                file = ProtoText.compile(text);
            } catch (io.tributary.schema.TributaryException e) {
                throw FormatErrors.unusableSchema(id, registry.url(), e.getMessage());
            }
            files.put(id, file);
        }
        Descriptor named = ProtoText.message(file, wire.messageIndexes());
        if (named == null || !named.getFullName().equals(message.getFullName())) {
            throw FormatErrors.unusableSchema(id, registry.url(), "names " + (named == null ? "no message" : "message " + named.getFullName())
                    + " at message indexes " + ProtoText.indexes(wire.messageIndexes()) + ", not the source's " + message.getFullName());
        }
    }
}
