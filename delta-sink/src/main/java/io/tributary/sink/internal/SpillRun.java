package io.tributary.sink.internal;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A cursor over one run of {@link SpilledChanges}, entry by entry. */
final class SpillRun {
    /** The row of an entry a merge of keys alone skipped: not null (not deleted); its order column is never compared. */
    static final Object[] SKIPPED = new Object[0];

    final int number;
    final DataInputStream in;
    final boolean decode;
    private final SpillRows codec;
    int flags;
    boolean nullKey;
    long key;
    Object[] row;

    SpillRun(int number, Path file, SpillRows codec, boolean decode) throws IOException {
        this.number = number;
        this.codec = codec;
        this.decode = decode;
        this.in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file), 1 << 16));
    }

    /** Reads the next entry; false at the end of the run. */
    boolean advance() throws IOException {
        int f;
        try {
            f = in.readUnsignedByte();
        } catch (EOFException end) {
            return false;
        }
        flags = f;
        nullKey = (f & SpilledChanges.NULL_KEY) != 0;
        key = nullKey ? 0 : in.readLong();
        if ((f & SpilledChanges.DELETED) != 0) {
            row = null;
        } else if (decode) {
            row = codec.read(in);
        } else {
            codec.skip(in);
            row = SKIPPED;
        }
        return true;
    }
}
