package io.tributary.testing;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Input files written the way a {@code cp} of a big file, a logger or a shell redirect writes them: in place, a chunk at a time. */
public final class FilesInProgress {
    private FilesInProgress() {
    }

    /** JSON lines {@code {"id": N}} for ids {@code from} (inclusive) to {@code to} (exclusive). */
    public static byte[] lines(int from, int to) {
        StringBuilder b = new StringBuilder();
        for (int i = from; i < to; i++) {
            b.append("{\"id\": ").append(i).append("}\n");
        }
        return b.toString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * A writer, not started, that writes {@code big.json} in {@code dir}, ids 0 to 19,999, in 8 chunks 500 ms
     * apart, and creates {@code late.json} empty, filling it with ids 100,000 to 100,009 after the second chunk.
     */
    public static Thread chunkedWriter(Path dir) {
        return new Thread(() -> {
            try (OutputStream big = Files.newOutputStream(dir.resolve("big.json"))) {
                Path late = Files.createFile(dir.resolve("late.json"));
                for (int chunk = 0; chunk < 8; chunk++) {
                    big.write(lines(chunk * 2_500, (chunk + 1) * 2_500));
                    big.flush();
                    if (chunk == 1) {
                        Files.write(late, lines(100_000, 100_010));
                    }
                    Thread.sleep(500); // the writer's own pace
                }
            } catch (IOException | InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }, "chunked-writer");
    }
}
