package io.tributary.service.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.tributary.broker.BrokerExtension;
import io.tributary.service.spec.PipelineSpec;
import io.tributary.sink.DeltaTables;
import io.tributary.testing.SchemaRegistryServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
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
 * A Kafka source whose columns come from a schema registry (the subject's latest version, fetched
 * as the sink opens) while the registry does not answer yet: the run waits it out as it does a
 * broker outage, then lands the topic. The registry is a real one (Apicurio Registry,
 * {@code -Pregistry}); what the run reaches at its URL refuses every connection until the test
 * lets it through to the registry, as a registry still starting or behind a network outage does.
 */
@Tag("integration")
@Tag("registry")
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class RegistryAtStartIT {
    private static final String ORDER = "{\"type\": \"record\", \"name\": \"Order\", \"fields\": [{\"name\": \"id\", \"type\": \"int\"},"
            + " {\"name\": \"name\", \"type\": \"string\"}]}";

    @RegisterExtension
    static final BrokerExtension KAFKA = new BrokerExtension();

    @TempDir
    Path dir;

    @Test
    void aRegistryThatAnswersOnlyAfterTheRunStartedIsWaitedOutAndTheTopicLands() throws Exception {
        String unavailable = SchemaRegistryServer.unavailable();
        assumeTrue(unavailable == null, unavailable);
        try (SchemaRegistryServer registry = SchemaRegistryServer.start(dir, null);
             Outage outage = new Outage()) {
            int id = registry.register("orders-value", null, ORDER);
            try (Admin admin = Admin.create(KAFKA.client())) {
                admin.createTopics(List.of(new NewTopic("orders", 1, (short) 1))).all().get();
            }
            try (KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(KAFKA.client(), new ByteArraySerializer(), new ByteArraySerializer())) {
                p.send(new ProducerRecord<>("orders", framed(id, avro(1, "a")))).get();
                p.send(new ProducerRecord<>("orders", framed(id, avro(2, "b")))).get();
            }
            Path specFile = dir.resolve("pipeline.yaml");
            Files.writeString(specFile, """
                    name: orders
                    source:
                      kafka:
                        topics: [orders]
                        format: avro
                        schemaRegistry:
                          url: http://127.0.0.1:%d/apis/ccompat/v7
                    sink:
                      delta:
                        path: out/
                    trigger: availableNow
                    kafka:
                      bootstrap.servers: "%s"
                    """.formatted(outage.port(), KAFKA.broker().bootstrapServers()));
            PipelineSpec spec = PipelineSpec.load(specFile, Map.of(), Map.of());

            try (Pipeline pipeline = Pipeline.open(spec, RunOptions.DEFAULT)) {
                // the sink's opening asked for the subject's latest version, was refused, and asked again after a pause
                await().atMost(Duration.ofMinutes(1)).until(() -> outage.refused() >= 2);
                outage.forwardTo(registry.port());
                pipeline.run(spec.trigger(), p -> { });
            }
        }

        List<Object[]> rows = DeltaTables.readRows(dir.resolve("out").toString()).stream()
                .sorted(Comparator.comparing(r -> (Integer) r[0])).toList();
        assertThat(rows).extracting(r -> r[0] + ":" + r[1]).containsExactly("1:a", "2:b");
    }

    private static byte[] avro(int id, String name) throws IOException {
        Schema schema = new Schema.Parser().parse(ORDER);
        GenericRecord r = new GenericData.Record(schema);
        r.put("id", id);
        r.put("name", name);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryEncoder e = EncoderFactory.get().binaryEncoder(out, null);
        new GenericDatumWriter<GenericRecord>(schema).write(r, e);
        e.flush();
        return out.toByteArray();
    }

    /** Confluent's wire format: 0, the schema id, the value. */
    private static byte[] framed(int id, byte[] value) {
        return ByteBuffer.allocate(5 + value.length).put((byte) 0).putInt(id).put(value).array();
    }

    /**
     * What the run reaches at the registry's URL: a port that accepts and at once closes every
     * connection (a registry not answering), until {@link #forwardTo} passes them through to the registry.
     */
    private static final class Outage implements AutoCloseable {
        private final ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        private final AtomicInteger refused = new AtomicInteger();
        private volatile int target = -1;

        Outage() throws IOException {
            Thread accept = new Thread(this::accept, "registry-outage");
            accept.setDaemon(true);
            accept.start();
        }

        int port() {
            return server.getLocalPort();
        }

        int refused() {
            return refused.get();
        }

        void forwardTo(int port) {
            target = port;
        }

        private void accept() {
            while (!server.isClosed()) {
                try {
                    Socket client = server.accept();
                    if (target < 0) {
                        refused.incrementAndGet();
                        client.close();
                        continue;
                    }
                    Socket upstream = new Socket(InetAddress.getLoopbackAddress(), target);
                    pipe(client.getInputStream(), upstream.getOutputStream(), upstream);
                    pipe(upstream.getInputStream(), client.getOutputStream(), client);
                } catch (IOException e) {
                    // closed
                }
            }
        }

        private static void pipe(InputStream in, OutputStream out, Socket to) {
            Thread t = new Thread(() -> {
                try (in; out) {
                    in.transferTo(out);
                } catch (IOException e) {
                    // one side closed
                } finally {
                    try {
                        to.close();
                    } catch (IOException e) {
                        // already closed
                    }
                }
            }, "registry-forward");
            t.setDaemon(true);
            t.start();
        }

        @Override
        public void close() throws IOException {
            server.close();
        }
    }
}
