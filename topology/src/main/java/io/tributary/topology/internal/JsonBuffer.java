package io.tributary.topology.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Writes one JSON value after another with one generator and one buffer, instead of a new
 * generator per value (a marker emits a result row and a key per closed window).
 */
final class JsonBuffer {
    /** Writes one value with the generator. */
    interface Body {
        void write(JsonGenerator g) throws IOException;
    }

    private final JsonFactory factory;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream(256);
    private JsonGenerator g;

    JsonBuffer(JsonFactory factory) {
        this.factory = factory;
    }

    byte[] write(Body body) {
        out.reset();
        try {
            if (g == null) {
                g = factory.createGenerator(out);
                g.setRootValueSeparator(null);
            }
            body.write(g);
            g.flush();
        } catch (IOException | RuntimeException e) {
            g = null; // a value left half-written: start the next one with a new generator
            if (e instanceof IOException io) {
                throw new UncheckedIOException(io);
            }
            throw (RuntimeException) e;
        }
        return out.toByteArray();
    }
}
