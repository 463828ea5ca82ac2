package io.tributary.delta.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.delta.kernel.engine.Engine;
import io.delta.kernel.internal.actions.DeletionVectorDescriptor;
import io.delta.kernel.internal.deletionvectors.DeletionVectorStoredBitmap;
import io.tributary.delta.DeletionVector;
import io.tributary.delta.DeletionVectorFormat;
import io.tributary.delta.DeletionVectorStore;
import io.tributary.delta.KernelEngines;
import io.tributary.schema.TributaryException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.roaringbitmap.longlong.Roaring64NavigableMap;

/**
 * Deletion vectors written by {@link DeletionVectorStore} read back by Delta Kernel's own reader
 * ({@code DeletionVectorStoredBitmap}, what a Kernel scan uses to drop deleted rows) as the same rows, in a
 * file and inline; and the door's Z85 and path handling as Kernel has them. A Kernel upgrade that changes
 * its reader or the descriptor fails here.
 */
class KernelDeletionVectorsTest {
    @TempDir
    Path dir;

    private final Engine engine = KernelEngines.create();

    /** A few rows, a run of rows, and rows past 2^32 (a second 32-bit bitmap), as a large file would have. */
    private static final List<long[]> ROWS = List.of(
            new long[] {0, 3, 7},
            LongStream.range(1000, 70_000).toArray(),
            new long[] {5, (1L << 32) + 1, (1L << 33) + 17});

    private static Roaring64NavigableMap bitmap(long[] rows) {
        Roaring64NavigableMap b = new Roaring64NavigableMap();
        b.add(rows);
        return b;
    }

    private long[] kernelReads(DeletionVector dv) throws IOException {
        DeletionVectorDescriptor d = new DeletionVectorDescriptor(dv.storageType(), dv.pathOrInlineDv(),
                dv.offset().isPresent() ? Optional.of(dv.offset().getAsInt()) : Optional.empty(), dv.sizeInBytes(), dv.cardinality());
        long[] rows = new DeletionVectorStoredBitmap(d, Optional.of(dir.toString())).load(engine.getFileSystemClient()).toArray();
        Arrays.sort(rows);
        return rows;
    }

    @Test
    void kernelReadsTheDeletionVectorsOfOneFileAsWritten() throws IOException {
        DeletionVectorStore store = new DeletionVectorStore(engine, dir.toString());
        List<DeletionVector> dvs = store.write(ROWS.stream().map(KernelDeletionVectorsTest::bitmap).toList());

        assertThat(dvs).hasSize(3).allMatch(dv -> dv.storageType().equals("u") && dv.pathOrInlineDv().length() == 20)
                .extracting(DeletionVector::pathOrInlineDv).containsOnly(dvs.get(0).pathOrInlineDv());
        try (var files = Files.list(dir)) {
            List<Path> written = files.toList();
            assertThat(written).hasSize(1);
            assertThat(written.get(0).getFileName().toString()).matches("deletion_vector_[0-9a-f-]{36}\\.bin");
            assertThat(KernelDeletionVectors.absolutePath(dvs.get(0), dir.toString())).endsWith(written.get(0).getFileName().toString());
            assertThat(Files.readAllBytes(written.get(0))[0]).as("the file's version byte").isEqualTo((byte) 1);
        }
        assertThat(dvs.get(0).offset()).hasValue(1);
        for (int i = 0; i < ROWS.size(); i++) {
            assertThat(dvs.get(i).cardinality()).isEqualTo(ROWS.get(i).length);
            assertThat(kernelReads(dvs.get(i))).as("Kernel's reading of bitmap %d", i).containsExactly(ROWS.get(i));
            assertThat(store.read(dvs.get(i)).toArray()).as("Tributary's reading of bitmap %d", i).containsExactly(ROWS.get(i));
        }
    }

    @Test
    void kernelReadsAnInlineDeletionVector() throws IOException {
        DeletionVector dv = DeletionVectorStore.inline(bitmap(ROWS.get(2)));
        assertThat(dv.storageType()).isEqualTo("i");
        assertThat(kernelReads(dv)).containsExactly(ROWS.get(2));
        assertThat(new DeletionVectorStore(engine, dir.toString()).read(dv).toArray()).containsExactly(ROWS.get(2));
    }

    @Test
    void theBitmapStartsWithTheMagicNumberLittleEndian() {
        byte[] bytes = DeletionVectorFormat.serialize(bitmap(new long[] {1}));
        assertThat(Arrays.copyOf(bytes, 4)).containsExactly(0xD1, 0xD3, 0x39, 0x64); // 1681511377 = 0x6439D3D1
    }

    @Test
    void aDamagedFileIsRefusedNamingTheFileAndOffset() throws IOException {
        DeletionVectorStore store = new DeletionVectorStore(engine, dir.toString());
        DeletionVector dv = store.write(List.of(bitmap(ROWS.get(0)))).get(0);
        Path file = Path.of(KernelDeletionVectors.absolutePath(dv, dir.toString()).replaceFirst("^file:", ""));
        byte[] bytes = Files.readAllBytes(file);
        bytes[bytes.length - 6] ^= 0x01; // a bit of the bitmap
        Files.write(file, bytes);
        assertThatThrownBy(() -> store.read(dv)).isInstanceOf(TributaryException.class)
                .hasMessageContaining(file.getFileName().toString() + " at offset 1 is unreadable: its checksum is");
    }
}
