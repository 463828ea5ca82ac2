package io.tributary.kafka.internal.format;

import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.DescriptorValidationException;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.InvalidProtocolBufferException;
import com.squareup.wire.schema.Location;
import com.squareup.wire.schema.ProtoFile;
import com.squareup.wire.schema.SchemaLoader;
import com.squareup.wire.schema.internal.SchemaEncoder;
import io.tributary.schema.TributaryException;
import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A Protobuf schema as a schema registry serves it, the text of a {@code .proto} file, compiled
 * into protobuf-java's descriptors by Square's Wire schema compiler (parsed, linked, and encoded
 * as the FileDescriptorProto protoc would give; the well-known {@code google/protobuf/*.proto} it
 * imports are protobuf-java's own). A file importing another file of the registry (a schema reference) is
 * not compiled: the registry's references are not fetched.
 */
final class ProtoText {
    private static final String FILE = "schema.proto";
    /** The well-known files a .proto may import, as protobuf-java builds them in (Wire links them, but leaves their messages out). */
    private static final Map<String, FileDescriptor> WELL_KNOWN = Map.of(
            "google/protobuf/timestamp.proto", com.google.protobuf.Timestamp.getDescriptor().getFile(),
            "google/protobuf/duration.proto", com.google.protobuf.Duration.getDescriptor().getFile(),
            "google/protobuf/any.proto", com.google.protobuf.Any.getDescriptor().getFile(),
            "google/protobuf/empty.proto", com.google.protobuf.Empty.getDescriptor().getFile(),
            "google/protobuf/field_mask.proto", com.google.protobuf.FieldMask.getDescriptor().getFile(),
            "google/protobuf/struct.proto", com.google.protobuf.Struct.getDescriptor().getFile(),
            "google/protobuf/wrappers.proto", com.google.protobuf.Int32Value.getDescriptor().getFile(),
            "google/protobuf/descriptor.proto", com.google.protobuf.DescriptorProtos.getDescriptor());

    private ProtoText() {
    }

    /** The file of {@code text}; a {@link TributaryException} saying why when it does not compile. */
    static FileDescriptor compile(String text) {
        Path dir = null;
        try {
            dir = Files.createTempDirectory("tributary-proto");
            Files.writeString(dir.resolve(FILE), text);
            SchemaLoader loader = new SchemaLoader(FileSystems.getDefault());
            loader.initRoots(List.of(Location.get(dir.toString(), FILE)), List.of());
            com.squareup.wire.schema.Schema schema = loader.loadSchema();
            return build(schema, FILE, new HashMap<>());
        } catch (IOException e) {
            throw FormatErrors.badProtoText("cannot be compiled here (" + e + ")", e);
        } catch (TributaryException e) {
            throw e;
        } catch (RuntimeException e) { // Wire's SchemaException and parse errors
            throw FormatErrors.badProtoText("does not compile: " + oneLine(e.getMessage()), e);
        } finally {
            delete(dir);
        }
    }

    private static FileDescriptor build(com.squareup.wire.schema.Schema schema, String file, Map<String, FileDescriptor> built) {
        FileDescriptor done = built.get(file);
        if (done == null) {
            done = WELL_KNOWN.get(file);
        }
        if (done != null) {
            return done;
        }
        ProtoFile protoFile = schema.protoFile(file);
        if (protoFile == null) {
            throw FormatErrors.badProtoText("imports " + file + ", another schema of the registry (a reference), which is not read"
                    + " here", null);
        }
        try {
            FileDescriptorProto proto = FileDescriptorProto.parseFrom(new SchemaEncoder(schema).encode(protoFile).toByteArray());
            List<FileDescriptor> deps = new ArrayList<>();
            for (String dep : proto.getDependencyList()) {
                deps.add(build(schema, dep, built));
            }
            FileDescriptor fd = FileDescriptor.buildFrom(proto, deps.toArray(new FileDescriptor[0]));
            built.put(file, fd);
            return fd;
        } catch (InvalidProtocolBufferException | DescriptorValidationException e) {
            throw FormatErrors.badProtoText("does not give a valid descriptor of " + file + " (" + e.getMessage() + ")", e);
        }
    }

    /**
     * The message at {@code indexes} in {@code file}, as Confluent's wire format names it (the first
     * index a message of the file, each next one a message nested in the one before); null when there is none.
     */
    static Descriptor message(FileDescriptor file, int[] indexes) {
        List<Descriptor> level = file.getMessageTypes();
        Descriptor d = null;
        for (int i : indexes) {
            if (i < 0 || i >= level.size()) {
                return null;
            }
            d = level.get(i);
            level = d.getNestedTypes();
        }
        return d;
    }

    /** The message {@code name} (a full name, or a name one message has) of {@code file}; its first message when {@code name} is null. */
    static Descriptor message(FileDescriptor file, String name) {
        if (name == null) {
            if (file.getMessageTypes().isEmpty()) {
                throw FormatErrors.badProtoText("holds no message", null);
            }
            return file.getMessageTypes().get(0);
        }
        List<Descriptor> found = new ArrayList<>();
        file.getMessageTypes().forEach(d -> collect(d, name, found));
        if (found.size() != 1) {
            throw FormatErrors.badProtoText(found.isEmpty() ? "holds no message " + name : "holds several messages named " + name
                    + " (" + found.stream().map(Descriptor::getFullName).toList() + "): give the full name", null);
        }
        return found.get(0);
    }

    private static void collect(Descriptor d, String name, List<Descriptor> found) {
        if (d.getFullName().equals(name) || d.getName().equals(name) && !name.contains(".")) {
            found.add(d);
        }
        d.getNestedTypes().forEach(n -> collect(n, name, found));
    }

    static String indexes(int[] indexes) {
        return Arrays.toString(indexes);
    }

    private static String oneLine(String text) {
        return text == null ? "" : text.strip().replaceAll("\\s*\\n\\s*", "; ");
    }

    private static void delete(Path dir) {
        if (dir == null) {
            return;
        }
        try (Stream<Path> all = Files.walk(dir)) {
            all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a temporary folder left behind
        }
    }
}
