package io.tributary.service.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.tributary.broker.BrokerExtension;
import io.tributary.schema.Timestamps;
import io.tributary.schema.Topics;
import io.tributary.service.spec.PipelineSpec;
import io.tributary.sink.DeltaTables;
import io.tributary.sink.TopicTail;
import io.tributary.testing.SchemaRegistryServer;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Debezium's Avro change events (Confluent's wire format, the schemas in a real Apicurio Registry,
 * {@code -Pregistry}) under a windowed aggregation: the aggregation's source tasks decode them as the
 * sink does ({@code after}, {@code before} for a delete, then {@code op} and {@code lsn}), skip the
 * tombstone, dead-letter a value not in the wire format naming topic, partition and offset, and the
 * table holds the closed window's counts per {@code op}.
 */
@Tag("integration")
@Tag("registry")
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class DebeziumAvroAggregationIT {
    private static final String TOPIC = "dbz.shop.orders";
    private static final String ENVELOPE = """
            {"type":"record","name":"Envelope","namespace":"dbz.shop.orders","fields":[
              {"name":"before","type":["null",{"type":"record","name":"Value","fields":[
                {"name":"id","type":"int"},{"name":"amount","type":"double"},
                {"name":"updated_at","type":{"type":"long","logicalType":"timestamp-millis"}}]}],"default":null},
              {"name":"after","type":["null","Value"],"default":null},
              {"name":"source","type":{"type":"record","name":"Source","namespace":"io.debezium.connector.postgresql","fields":[
                {"name":"connector","type":"string"},{"name":"lsn","type":["null","long"],"default":null}]}},
              {"name":"op","type":"string"},
              {"name":"ts_ms","type":["null","long"],"default":null}]}""";

    @RegisterExtension
    static final BrokerExtension KAFKA = new BrokerExtension();

    @TempDir
    Path dir;

    @Test
    void aWindowedCountOverDebeziumAvroEventsWritesTheClosedWindowAndDeadLettersABadValue() throws Exception {
        String unavailable = SchemaRegistryServer.unavailable();
        assumeTrue(unavailable == null, unavailable);
        List<JsonNode> letters;
        try (SchemaRegistryServer registry = SchemaRegistryServer.start(dir, null)) {
            int id = registry.register(TOPIC + "-value", null, ENVELOPE);
            try (Admin admin = Admin.create(KAFKA.client())) {
                admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 1))).all().get();
            }
            List<byte[]> values = new ArrayList<>();
            values.add(event(id, "c", null, order(1, 5.0, "10:00"), 100));
            values.add(event(id, "c", null, order(2, 3.0, "10:01"), 200));
            values.add(event(id, "u", order(1, 5.0, "10:00"), order(1, 7.0, "10:02"), 300));
            values.add(event(id, "d", order(2, 3.0, "10:03"), null, 400));
            values.add(null); // the tombstone after the delete: no row
            values.add("junk".getBytes(StandardCharsets.UTF_8)); // offset 5: not in the wire format
            values.add(event(id, "c", null, order(3, 1.0, "10:30"), 500)); // moves the watermark past 10:10
            try (KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(KAFKA.client(), new ByteArraySerializer(), new ByteArraySerializer())) {
                for (byte[] v : values) {
                    p.send(new ProducerRecord<>(TOPIC, 0, "{\"id\":0}".getBytes(StandardCharsets.UTF_8), v)).get();
                }
            }
            Path specFile = dir.resolve("pipeline.yaml");
            Files.writeString(specFile, """
                    name: dbzagg
                    source:
                      kafka:
                        topics: [%s]
                        format: debezium-avro
                        schemaRegistry:
                          url: %s
                    aggregate:
                      eventTime: updated_at
                      watermark: 5 minutes
                      window: 10 minutes
                      groupBy: [op]
                      select: { n: "count(*)", total: "sum(amount)" }
                    outputMode: append
                    sink:
                      delta:
                        path: out/
                    trigger: availableNow
                    kafka:
                      bootstrap.servers: "%s"
                    """.formatted(TOPIC, registry.url(), KAFKA.broker().bootstrapServers()));
            PipelineSpec spec = PipelineSpec.load(specFile, Map.of(), Map.of());
            try (Pipeline pipeline = Pipeline.open(spec, RunOptions.DEFAULT)) {
                pipeline.run(spec.trigger(), p -> { });
                letters = TopicTail.json(pipeline.clientProps(), Topics.deadLetter("dbzagg"));
            }
        }
        List<String> windows = DeltaTables.readRows(dir.resolve("out").toString()).stream()
                .map(r -> Timestamps.formatMicros((Long) ((Object[]) r[0])[0]) + "|" + r[1] + "|" + r[2] + "|" + r[3]).toList();
        // the delete counts with its before row; the 10:30 window is still open at the watermark 10:25
        assertThat(windows).containsExactlyInAnyOrder("2026-01-01T10:00:00Z|c|2|8.0", "2026-01-01T10:00:00Z|u|1|7.0",
                "2026-01-01T10:00:00Z|d|1|3.0");
        assertThat(letters).extracting(l -> l.path("topic").asText() + ":" + l.path("partition").asInt() + ":" + l.path("offset").asLong())
                .containsExactly(TOPIC + ":0:5");
    }

    private static Object[] order(int id, double amount, String time) {
        return new Object[] {id, amount, Instant.parse("2026-01-01T" + time + ":00Z").toEpochMilli()};
    }

    /** One change event in Confluent's wire format of schema {@code id}. */
    private static byte[] event(int id, String op, Object[] before, Object[] after, long lsn) throws Exception {
        Schema envelope = new Schema.Parser().parse(ENVELOPE);
        Schema value = envelope.getField("before").schema().getTypes().get(1);
        GenericRecord source = new GenericData.Record(envelope.getField("source").schema());
        source.put("connector", "postgresql");
        source.put("lsn", lsn);
        GenericRecord e = new GenericData.Record(envelope);
        e.put("before", row(value, before));
        e.put("after", row(value, after));
        e.put("source", source);
        e.put("op", op);
        e.put("ts_ms", 1767261600000L);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryEncoder enc = EncoderFactory.get().binaryEncoder(out, null);
        new GenericDatumWriter<GenericRecord>(envelope).write(e, enc);
        enc.flush();
        byte[] avro = out.toByteArray();
        return ByteBuffer.allocate(5 + avro.length).put((byte) 0).putInt(id).put(avro).array();
    }

    private static GenericRecord row(Schema value, Object[] fields) {
        if (fields == null) {
            return null;
        }
        GenericRecord r = new GenericData.Record(value);
        for (int i = 0; i < fields.length; i++) {
            r.put(i, fields[i]);
        }
        return r;
    }
}
