package io.tributary.kafka.internal.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.schema.BadRecordException;
import io.tributary.schema.TributaryException;
import java.io.ByteArrayOutputStream;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.kafka.common.errors.RetriableException;
import org.junit.jupiter.api.Test;

/**
 * Confluent's wire format as its serializers write it (a 0 byte, the schema id big-endian, for
 * Protobuf the zig-zag message indexes), around values made by Apache Avro's own encoder; and a
 * registry that does not answer, which the run loop waits out as a broker outage.
 */
class WireFormatTest {
    private static final org.apache.avro.Schema SCHEMA = AvroFormat.parse(
            "{\"type\": \"record\", \"name\": \"R\", \"fields\": [{\"name\": \"id\", \"type\": \"int\"}]}");

    private static byte[] framed(int id, byte[] indexes, byte[] value) {
        return ByteBuffer.allocate(5 + indexes.length + value.length).put((byte) 0).putInt(id).put(indexes).put(value).array();
    }

    private static byte[] avro(int id) throws Exception {
        GenericRecord r = new GenericData.Record(SCHEMA);
        r.put("id", id);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryEncoder e = EncoderFactory.get().binaryEncoder(out, null);
        new GenericDatumWriter<GenericRecord>(SCHEMA).write(r, e);
        e.flush();
        return out.toByteArray();
    }

    @Test
    void anAvroValueAfterTheHeaderIsReadFromItsSchemaId() throws Exception {
        byte[] value = framed(1234567, new byte[0], avro(42));
        WireFormat w = WireFormat.of(value, false);
        assertThat(w.schemaId()).isEqualTo(1234567);
        assertThat(w.offset()).isEqualTo(5);
        assertThat(new AvroFormat(SCHEMA, null).row("t", 0, 0, java.util.Arrays.copyOfRange(value, w.offset(), value.length)))
                .containsExactly(42);
    }

    @Test
    void protobufMessageIndexesAreZigZagVarints() {
        assertThat(WireFormat.of(framed(7, new byte[] {0}, new byte[] {8, 1}), true).messageIndexes())
                .as("count 0: the file's first message").containsExactly(0);
        WireFormat nested = WireFormat.of(framed(7, new byte[] {4, 2, 6}, new byte[] {8, 1}), true);
        assertThat(nested.messageIndexes()).as("count 2: [1, 3]").containsExactly(1, 3);
        assertThat(nested.offset()).isEqualTo(8);
    }

    @Test
    void aWrongMagicByteOrAShortValueIsABadRecordSayingSo() {
        assertThatThrownBy(() -> WireFormat.of(new byte[] {1, 0, 0, 0, 1, 2}, false)).isInstanceOf(BadRecordException.class)
                .hasMessageContaining("magic byte 0x01, not 0x00");
        assertThatThrownBy(() -> WireFormat.of(new byte[] {0, 0}, false)).isInstanceOf(BadRecordException.class)
                .hasMessageContaining("a value of 2 bytes, shorter than the 5-byte header");
    }

    @Test
    void aRegistryThatDoesNotAnswerIsAnOutageTheRunLoopRetries() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort(); // closed again: nothing listens there
        }
        SchemaRegistry registry = new SchemaRegistry("http://127.0.0.1:" + port, null);
        AvroFormat format = new AvroFormat(SCHEMA, registry);
        assertThatThrownBy(() -> format.row("orders", 2, 17, framed(5, new byte[0], avro(1))))
                .isInstanceOf(TributaryException.class).isNotInstanceOf(BadRecordException.class)
                .hasMessageContaining("the schema registry does not answer GET http://127.0.0.1:" + port + "/schemas/ids/5")
                .satisfies(e -> assertThat(e.getCause()).isInstanceOf(RetriableException.class));
    }
}
