package io.tributary.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * What this JVM writes to standard error (the log, with slf4j-simple) from {@link #start()} until {@link #close()},
 * still written through as well: {@code try (CapturedErr err = CapturedErr.start()) { ...; err.text() }}.
 * For a test that checks a log line; one at a time per JVM.
 */
public final class CapturedErr implements AutoCloseable {
    private final PrintStream original = System.err;
    private final ByteArrayOutputStream captured = new ByteArrayOutputStream();

    private CapturedErr() {
        System.setErr(new PrintStream(new Tee(original, captured), true, StandardCharsets.UTF_8));
    }

    public static CapturedErr start() {
        return new CapturedErr();
    }

    /** What was written so far. */
    public String text() {
        synchronized (captured) {
            return captured.toString(StandardCharsets.UTF_8);
        }
    }

    /** Standard error as it was before. */
    @Override
    public void close() {
        System.setErr(original);
    }

    private static final class Tee extends OutputStream {
        private final OutputStream through;
        private final ByteArrayOutputStream copy;

        Tee(OutputStream through, ByteArrayOutputStream copy) {
            this.through = through;
            this.copy = copy;
        }

        @Override
        public void write(int b) throws IOException {
            through.write(b);
            synchronized (copy) {
                copy.write(b);
            }
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            through.write(b, off, len);
            synchronized (copy) {
                copy.write(b, off, len);
            }
        }
    }
}
