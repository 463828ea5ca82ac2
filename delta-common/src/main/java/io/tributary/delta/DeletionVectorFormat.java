package io.tributary.delta;

import io.tributary.delta.internal.DeltaErrors;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.zip.CRC32;
import org.roaringbitmap.longlong.Roaring64NavigableMap;

/**
 * Delta's deletion vector format (PROTOCOL.md, "Deletion Vector Format"), with the RoaringBitmap library:
 * a bitmap of a data file's deleted rows (their 0-based positions in the Parquet file) is the magic number
 * {@value #MAGIC} (4 bytes, little endian), then the 64-bit roaring bitmap in its portable serialization
 * (the number of 32-bit bitmaps as 8 bytes little endian, then each one's high 32 bits, 4 bytes little
 * endian, and its 32-bit roaring bitmap). A deletion vector file is a version byte ({@value #FILE_VERSION}),
 * then its bitmaps one after another, each as its size (4 bytes, big endian), its bytes and their CRC-32
 * (4 bytes, big endian); a descriptor's offset points at the size.
 */
public final class DeletionVectorFormat {
    /** The magic number of the portable serialization, the one Delta writes. */
    public static final int MAGIC = 1681511377;
    /** The magic number of the older native serialization, which Delta reads and never writes. */
    static final int NATIVE_MAGIC = 1681511376;
    public static final byte FILE_VERSION = 1;

    private DeletionVectorFormat() {
    }

    /** {@code rows} as a deletion vector's bytes (magic number and bitmap). */
    public static byte[] serialize(Roaring64NavigableMap rows) {
        rows.runOptimize();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream((int) Math.min(Integer.MAX_VALUE, rows.serializedSizeInBytes() + 4));
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(Integer.reverseBytes(MAGIC));
            rows.serializePortable(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // in memory
        }
        return bytes.toByteArray();
    }

    /** The rows a deletion vector's bytes mark; {@code where} names it in an error. */
    public static Roaring64NavigableMap deserialize(byte[] data, String where) {
        if (data.length < 4) {
            throw DeltaErrors.deletionVectorUnreadable(where, data.length + " bytes, fewer than its magic number's 4");
        }
        int magic = ByteBuffer.wrap(data, 0, 4).order(java.nio.ByteOrder.LITTLE_ENDIAN).getInt();
        if (magic == NATIVE_MAGIC) {
            throw DeltaErrors.deletionVectorUnreadable(where, "it is in RoaringBitmapArray's native serialization (magic number "
                    + NATIVE_MAGIC + "), which Delta never writes to tables; Tributary reads the portable one (" + MAGIC + ")");
        }
        if (magic != MAGIC) {
            throw DeltaErrors.deletionVectorUnreadable(where, "its magic number is " + magic + ", not " + MAGIC);
        }
        Roaring64NavigableMap rows = new Roaring64NavigableMap();
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(data, 4, data.length - 4))) {
            rows.deserializePortable(in);
            if (in.available() > 0) {
                throw DeltaErrors.deletionVectorUnreadable(where, in.available() + " bytes follow its bitmap");
            }
        } catch (IOException | RuntimeException e) {
            if (e instanceof io.tributary.schema.TributaryException t) {
                throw t;
            }
            throw DeltaErrors.deletionVectorUnreadable(where, "its bitmap does not parse (" + e + ")");
        }
        return rows;
    }

    /** The CRC-32 a deletion vector file stores after a bitmap's bytes. */
    public static int checksum(byte[] data) {
        CRC32 crc = new CRC32();
        crc.update(data);
        return (int) crc.getValue();
    }

    /** A deletion vector file holding {@code bitmaps} (each as {@link #serialize} gives it), in order. */
    public static byte[] file(List<byte[]> bitmaps) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(FILE_VERSION);
            for (byte[] bitmap : bitmaps) {
                out.writeInt(bitmap.length);
                out.write(bitmap);
                out.writeInt(checksum(bitmap));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e); // in memory
        }
        return bytes.toByteArray();
    }

    /** Where each of {@link #file}'s bitmaps starts (its size field): the offsets of their descriptors. */
    public static int[] offsets(List<byte[]> bitmaps) {
        int[] offsets = new int[bitmaps.size()];
        int at = 1;
        for (int i = 0; i < offsets.length; i++) {
            offsets[i] = at;
            at += 4 + bitmaps.get(i).length + 4;
        }
        return offsets;
    }

    /**
     * A bitmap's bytes from its stored form ({@code stored}: the size field, the bytes and the checksum, as
     * read from a file at a descriptor's offset), checked against the descriptor's {@code sizeInBytes} and the checksum.
     */
    public static byte[] unwrap(byte[] stored, int sizeInBytes, String where) {
        if (stored.length < sizeInBytes + 8) {
            throw DeltaErrors.deletionVectorUnreadable(where, "the file ends " + (sizeInBytes + 8 - stored.length)
                    + " bytes before the " + sizeInBytes + "-byte bitmap and its checksum");
        }
        ByteBuffer in = ByteBuffer.wrap(stored);
        int size = in.getInt();
        if (size != sizeInBytes) {
            throw DeltaErrors.deletionVectorUnreadable(where, "the file gives its size as " + size + " bytes, the log as " + sizeInBytes);
        }
        byte[] data = new byte[size];
        in.get(data);
        int expected = in.getInt();
        int actual = checksum(data);
        if (expected != actual) {
            throw DeltaErrors.deletionVectorUnreadable(where, String.format("its checksum is %08x, the file says %08x", actual, expected));
        }
        return data;
    }
}
