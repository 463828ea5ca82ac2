package io.tributary.sink;

import io.tributary.kafka.KafkaSubscription;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.ByteString;
import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.EnumDescriptorProto;
import com.google.protobuf.DescriptorProtos.EnumValueDescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto.Label;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto.Type;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorSet;
import com.google.protobuf.DescriptorProtos.MessageOptions;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.Timestamp;
import io.tributary.kafka.KafkaSourceSettings;
import io.tributary.settings.Values;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A topic of Protobuf values landed in a Delta table as Spark's {@code from_protobuf(value,
 * messageName, descFilePath)} reads them: the descriptor file a FileDescriptorSet (as {@code protoc
 * --include_imports --descriptor_set_out} writes), every field type in Spark's column type, proto3
 * fields at their default value null as Spark has them, a value that does not decode dead-lettered.
 */
@Tag("integration")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class KafkaSourceProtobufIT {
    static final String DDL = "i32 INT, i64 BIGINT, u32 INT, u64 BIGINT, s32 INT, f64 BIGINT, f FLOAT, d DOUBLE, flag BOOLEAN,"
            + " s STRING, b BINARY, color STRING, at TIMESTAMP, address STRUCT<city: STRING, zip: INT>, tags ARRAY<STRING>,"
            + " counts MAP<STRING, BIGINT>, lines ARRAY<STRUCT<sku: STRING, qty: INT>>";

    @RegisterExtension
    static final TestKafka KAFKA = new TestKafka();

    @TempDir
    Path dir;

    private static FieldDescriptorProto field(String name, int number, Type type, String typeName, Label label) {
        FieldDescriptorProto.Builder f = FieldDescriptorProto.newBuilder().setName(name).setNumber(number).setType(type).setLabel(label);
        if (typeName != null) {
            f.setTypeName(typeName);
        }
        return f.build();
    }

    private static FieldDescriptorProto field(String name, int number, Type type) {
        return field(name, number, type, null, Label.LABEL_OPTIONAL);
    }

    /** shop/order.proto: message Order, as protoc would describe it. */
    static FileDescriptorProto orderProto() {
        DescriptorProto address = DescriptorProto.newBuilder().setName("Address")
                .addField(field("city", 1, Type.TYPE_STRING)).addField(field("zip", 2, Type.TYPE_INT32)).build();
        DescriptorProto line = DescriptorProto.newBuilder().setName("Line")
                .addField(field("sku", 1, Type.TYPE_STRING)).addField(field("qty", 2, Type.TYPE_INT32)).build();
        DescriptorProto countsEntry = DescriptorProto.newBuilder().setName("CountsEntry")
                .setOptions(MessageOptions.newBuilder().setMapEntry(true))
                .addField(field("key", 1, Type.TYPE_STRING)).addField(field("value", 2, Type.TYPE_INT64)).build();
        EnumDescriptorProto color = EnumDescriptorProto.newBuilder().setName("Color")
                .addValue(EnumValueDescriptorProto.newBuilder().setName("RED").setNumber(0))
                .addValue(EnumValueDescriptorProto.newBuilder().setName("GREEN").setNumber(1)).build();
        DescriptorProto order = DescriptorProto.newBuilder().setName("Order")
                .addField(field("i32", 1, Type.TYPE_INT32)).addField(field("i64", 2, Type.TYPE_INT64))
                .addField(field("u32", 3, Type.TYPE_UINT32)).addField(field("u64", 4, Type.TYPE_UINT64))
                .addField(field("s32", 5, Type.TYPE_SINT32)).addField(field("f64", 6, Type.TYPE_FIXED64))
                .addField(field("f", 7, Type.TYPE_FLOAT)).addField(field("d", 8, Type.TYPE_DOUBLE))
                .addField(field("flag", 9, Type.TYPE_BOOL)).addField(field("s", 10, Type.TYPE_STRING))
                .addField(field("b", 11, Type.TYPE_BYTES))
                .addField(field("color", 12, Type.TYPE_ENUM, ".shop.Order.Color", Label.LABEL_OPTIONAL))
                .addField(field("at", 13, Type.TYPE_MESSAGE, ".google.protobuf.Timestamp", Label.LABEL_OPTIONAL))
                .addField(field("address", 14, Type.TYPE_MESSAGE, ".shop.Order.Address", Label.LABEL_OPTIONAL))
                .addField(field("tags", 15, Type.TYPE_STRING, null, Label.LABEL_REPEATED))
                .addField(field("counts", 16, Type.TYPE_MESSAGE, ".shop.Order.CountsEntry", Label.LABEL_REPEATED))
                .addField(field("lines", 17, Type.TYPE_MESSAGE, ".shop.Order.Line", Label.LABEL_REPEATED))
                .addNestedType(address).addNestedType(line).addNestedType(countsEntry).addEnumType(color).build();
        return FileDescriptorProto.newBuilder().setName("shop/order.proto").setPackage("shop").setSyntax("proto3")
                .addDependency("google/protobuf/timestamp.proto").addMessageType(order).build();
    }

    static Descriptor order() throws Exception {
        return FileDescriptor.buildFrom(orderProto(), new FileDescriptor[] {Timestamp.getDescriptor().getFile()})
                .findMessageTypeByName("Order");
    }

    /** The FileDescriptorSet of shop/order.proto and its import. */
    static Path descriptorFile(Path dir) throws Exception {
        Path file = dir.resolve("order.desc");
        Files.write(file, FileDescriptorSet.newBuilder().addFile(Timestamp.getDescriptor().getFile().toProto())
                .addFile(orderProto()).build().toByteArray());
        return file;
    }

    static byte[] fullOrder(Descriptor d) {
        Descriptor address = d.findNestedTypeByName("Address");
        Descriptor line = d.findNestedTypeByName("Line");
        Descriptor entry = d.findNestedTypeByName("CountsEntry");
        return DynamicMessage.newBuilder(d)
                .setField(d.findFieldByName("i32"), 7).setField(d.findFieldByName("i64"), 8_000_000_000L)
                .setField(d.findFieldByName("u32"), -1).setField(d.findFieldByName("u64"), 5L)
                .setField(d.findFieldByName("s32"), -3).setField(d.findFieldByName("f64"), 6L)
                .setField(d.findFieldByName("f"), 1.5f).setField(d.findFieldByName("d"), 2.25)
                .setField(d.findFieldByName("flag"), true).setField(d.findFieldByName("s"), "héllo")
                .setField(d.findFieldByName("b"), ByteString.copyFrom(new byte[] {1, 2}))
                .setField(d.findFieldByName("color"), d.findEnumTypeByName("Color").findValueByName("GREEN"))
                .setField(d.findFieldByName("at"), Timestamp.newBuilder().setSeconds(1_700_000_000L).setNanos(123_456_789).build())
                .setField(d.findFieldByName("address"), DynamicMessage.newBuilder(address)
                        .setField(address.findFieldByName("city"), "Oslo").setField(address.findFieldByName("zip"), 150).build())
                .addRepeatedField(d.findFieldByName("tags"), "a").addRepeatedField(d.findFieldByName("tags"), "b")
                .addRepeatedField(d.findFieldByName("counts"), DynamicMessage.newBuilder(entry)
                        .setField(entry.findFieldByName("key"), "x").setField(entry.findFieldByName("value"), 1L).build())
                .addRepeatedField(d.findFieldByName("lines"), DynamicMessage.newBuilder(line)
                        .setField(line.findFieldByName("sku"), "s1").setField(line.findFieldByName("qty"), 3).build())
                .build().toByteArray();
    }

    private String table() {
        return dir.resolve("t").toString();
    }

    @Test
    void everyProtobufTypeLandsInItsSparkColumnTypeAndABadValueIsDeadLettered() throws Exception {
        Descriptor d = order();
        String topic = KAFKA.newTopic("proto", 1);
        KAFKA.inTransaction(p -> {
            p.send(new ProducerRecord<>(topic, 0, null, fullOrder(d)));
            p.send(new ProducerRecord<>(topic, 0, null, "not protobuf".getBytes(StandardCharsets.UTF_8)));
            p.send(new ProducerRecord<>(topic, 0, null, DynamicMessage.newBuilder(d).setField(d.findFieldByName("s"), "only s")
                    .build().toByteArray()));
        });
        KafkaSubscription subscription = KafkaSubscription.of(Values.of(KafkaSourceSettings.ALL, Map.of("topics", topic,
                "format", "protobuf", "protobufDescriptorFile", descriptorFile(dir).toString(), "protobufMessage", "Order")));
        SinkConfig config = SinkConfig.builder(table(), subscription.rowSchema(), subscription.description(), "proto-sink", "proto/sink")
                .badRecords(SinkBadRecords.forName("deadLetter", topic + ".deadletter")).build();
        try (DeltaSink sink = DeltaSink.builder(config, KAFKA.client()).subscription(subscription).availableNow(true).build()) {
            assertThat(sink.runBatch()).isPresent();
        }

        assertThat(DeltaTables.schema(table()).orElseThrow().toDdl()).isEqualTo(io.tributary.schema.Schema.parse(DDL).toDdl());
        List<Object[]> rows = new ArrayList<>(DeltaTables.readRows(table()));
        rows.sort(Comparator.comparing(r -> (String) r[9]));
        assertThat(rows).hasSize(2);
        Object[] a = rows.get(0);
        assertThat(a).startsWith(7, 8_000_000_000L, -1, 5L, -3, 6L, 1.5f, 2.25, true, "héllo");
        assertThat((byte[]) a[10]).containsExactly(1, 2);
        assertThat(a[11]).isEqualTo("GREEN");
        assertThat(a[12]).as("Timestamp: microseconds").isEqualTo(1_700_000_000_123_456L);
        assertThat((Object[]) a[13]).containsExactly("Oslo", 150);
        assertThat(a[14]).isEqualTo(List.of("a", "b"));
        assertThat(a[15]).isEqualTo(Map.of("x", 1L));
        assertThat((Object[]) ((List<?>) a[16]).get(0)).containsExactly("s1", 3);

        Object[] b = rows.get(1);
        assertThat(b[9]).isEqualTo("only s");
        assertThat(b).as("proto3 fields not set: null, as Spark; repeated and maps empty")
                .containsExactly(null, null, null, null, null, null, null, null, null, "only s", null, null, null, null, List.of(),
                        Map.of(), List.of());

        List<ConsumerRecord<byte[], byte[]>> letters = TopicTail.records(KAFKA.client(), topic + ".deadletter", Map.of());
        assertThat(letters).hasSize(1);
        var letter = new ObjectMapper().readTree(letters.get(0).value());
        assertThat(letter.path("offset").asLong()).isEqualTo(1);
        assertThat(letter.path("reason").asText()).startsWith("the value does not decode as Protobuf shop.Order");
    }
}
