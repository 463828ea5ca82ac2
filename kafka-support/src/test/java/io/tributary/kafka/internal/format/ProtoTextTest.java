package io.tributary.kafka.internal.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import io.tributary.schema.TributaryException;
import org.junit.jupiter.api.Test;

/** A registry's .proto text compiled into the descriptors the values are read with, and the messages its indexes name. */
class ProtoTextTest {
    private static final String PROTO = """
            syntax = "proto3";
            package shop;
            import "google/protobuf/timestamp.proto";

            message Order {
              int32 id = 1;
              repeated Line lines = 2;
              map<string, int64> counts = 3;
              google.protobuf.Timestamp ts = 4;
              Status status = 5;
              message Note { string text = 1; }
            }
            message Line { string sku = 1; }
            enum Status { NEW = 0; PAID = 1; }
            """;

    @Test
    void aProtoFileCompilesIntoTheColumnsOfItsFirstMessageAndIndexesNameItsMessages() {
        FileDescriptor file = ProtoText.compile(PROTO);
        Descriptor order = ProtoText.message(file, (String) null);

        assertThat(ProtobufColumns.of(order).toDdl())
                .isEqualTo("id INT, lines ARRAY<STRUCT<sku: STRING>>, counts MAP<STRING, BIGINT>, ts TIMESTAMP, status STRING");
        assertThat(ProtoText.message(file, new int[] {1}).getFullName()).isEqualTo("shop.Line");
        assertThat(ProtoText.message(file, new int[] {0, 0}).getFullName()).isEqualTo("shop.Order.Note");
        assertThat(ProtoText.message(file, new int[] {2})).isNull();
        assertThat(ProtoText.message(file, "Line").getFullName()).isEqualTo("shop.Line");
    }

    @Test
    void aProtoThatDoesNotCompileOrImportsAnotherSchemaIsOneLineSayingWhy() {
        assertThatThrownBy(() -> ProtoText.compile("syntax = \"proto3\";\nmessage Order {\n  int32 id = 1;\n  Unknown u = 2;\n}\n"))
                .isInstanceOf(TributaryException.class).hasMessageStartingWith("does not compile: ").hasMessageContaining("Unknown")
                .hasMessageNotContaining("\n");
        assertThatThrownBy(() -> ProtoText.compile("syntax = \"proto3\";\nimport \"other.proto\";\nmessage Order {\n  int32 id = 1;\n}\n"))
                .isInstanceOf(TributaryException.class).hasMessageContaining("other.proto").hasMessageNotContaining("\n");
    }
}
