package io.tributary.kafka.internal.format;

import java.nio.ByteBuffer;

/**
 * Confluent's wire format of a registry's values: a 0 byte, the schema id as 4 bytes big-endian,
 * for Protobuf the message indexes (a zig-zag varint count, then that many zig-zag varints; a
 * count of 0 for the file's first message), then the value's own bytes.
 *
 * @param schemaId the schema's id in the registry
 * @param messageIndexes Protobuf: the path of the message in its file (the first message: {@code [0]}); else empty
 * @param offset where the value's own bytes start
 */
record WireFormat(int schemaId, int[] messageIndexes, int offset) {
    static final int HEADER = 5;

    /** The header of {@code value}; {@link io.tributary.schema.BadRecordException} when it is not Confluent's. */
    static WireFormat of(byte[] value, boolean protobuf) {
        if (value.length < HEADER || value[0] != 0) {
            throw FormatErrors.notWireFormat(value.length == 0 ? "an empty value" : value.length < HEADER
                    ? "a value of " + value.length + " bytes, shorter than the 5-byte header"
                    : String.format("magic byte 0x%02x, not 0x00", value[0] & 0xff));
        }
        int id = ByteBuffer.wrap(value, 1, 4).getInt();
        if (!protobuf) {
            return new WireFormat(id, new int[0], HEADER);
        }
        int[] at = {HEADER};
        int count = zigzag(value, at, id);
        if (count < 0 || count > value.length) {
            throw FormatErrors.notWireFormat("schema id " + id + ": a message index count of " + count);
        }
        int[] indexes = count == 0 ? new int[] {0} : new int[count];
        for (int i = 0; i < count; i++) {
            indexes[i] = zigzag(value, at, id);
        }
        return new WireFormat(id, indexes, at[0]);
    }

    private static int zigzag(byte[] b, int[] at, int id) {
        int raw = 0;
        for (int shift = 0; shift < 35; shift += 7) {
            if (at[0] >= b.length) {
                throw FormatErrors.notWireFormat("schema id " + id + ": the message indexes end past the value");
            }
            byte x = b[at[0]++];
            raw |= (x & 0x7f) << shift;
            if (x >= 0) {
                return (raw >>> 1) ^ -(raw & 1);
            }
        }
        throw FormatErrors.notWireFormat("schema id " + id + ": a message index is not a varint");
    }
}
