package io.tributary.ingest.internal;

import io.tributary.schema.Printable;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/**
 * A file's name as its identity: its exact bytes. On Linux a name is any bytes, and
 * {@link Path#toString()} decodes it with the platform's encoding, putting {@code U+FFFD} (or
 * {@code ?}) for what does not decode: {@code caf\xE9.json} and {@code caf\xE8.json} (Latin-1
 * names) would both read {@code caf\uFFFD.json}. Here a name that is UTF-8 is that text, as it
 * always was; a byte that is not UTF-8 is kept as the lone surrogate {@code U+DC00 + byte}, which no
 * UTF-8 text decodes to (Python's {@code surrogateescape}), so two names are one only when their
 * bytes are. {@link #bytes} gives the bytes back (the ingest-log key), {@link #resolve} the path,
 * {@link Printable#escape} the printable form ({@code caf\xE9.json}).
 */
public final class FileNames {
    private FileNames() {
    }

    /** The name of {@code file} (the last element of a path listed from its folder) as its identity. */
    public static String of(Path file) {
        Path name = file.getFileName();
        String s = name.toString();
        try {
            if (name.getFileSystem().getPath(s).equals(name)) {
                return s; // the text gives the same bytes back: the common case, no further work
            }
        } catch (InvalidPathException e) {
            // the platform's encoding cannot write the text back (a C locale and a UTF-8 name)
        }
        return fromBytes(rawBytes(file));
    }

    /**
     * The name as {@link #of} would give it, when {@link Path#toString()} gives another text (the
     * name ingest logs of earlier versions hold for it); null when both are the same.
     */
    public static String lossyName(Path file, String identity) {
        if (file == null) {
            return null; // an object in object storage: its key is its name, no lossy form
        }
        String s = file.getFileName().toString();
        return s.equals(identity) ? null : s;
    }

    /** The identity of a name of these bytes: the UTF-8 text, a byte that is not UTF-8 as {@code U+DC00 + byte}. */
    public static String fromBytes(byte[] b) {
        int bad = Utf8.firstInvalid(b, 0, b.length);
        if (bad < 0) {
            return new String(b, StandardCharsets.UTF_8);
        }
        StringBuilder s = new StringBuilder(b.length);
        int i = 0;
        while (bad >= 0) {
            s.append(new String(b, i, bad, StandardCharsets.UTF_8)).append((char) (0xDC00 | (b[i + bad] & 0xFF)));
            i += bad + 1;
            bad = Utf8.firstInvalid(b, i, b.length - i);
        }
        return s.append(new String(b, i, b.length - i, StandardCharsets.UTF_8)).toString();
    }

    /** The bytes of a name {@link #fromBytes} made; UTF-8 for a name that is text. */
    public static byte[] bytes(String identity) {
        if (!hasRawBytes(identity)) {
            return identity.getBytes(StandardCharsets.UTF_8);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(identity.length() + 8);
        int from = 0;
        for (int i = 0; i < identity.length(); i++) {
            if (isRawByte(identity, i)) {
                out.writeBytes(identity.substring(from, i).getBytes(StandardCharsets.UTF_8));
                out.write(identity.charAt(i) & 0xFF);
                from = i + 1;
            }
        }
        out.writeBytes(identity.substring(from).getBytes(StandardCharsets.UTF_8));
        return out.toByteArray();
    }

    /** True when the name holds bytes that are not UTF-8. */
    public static boolean hasRawBytes(String identity) {
        for (int i = 0; i < identity.length(); i++) {
            if (isRawByte(identity, i)) {
                return true;
            }
        }
        return false;
    }

    /** The file named {@code identity} in {@code dir}, with exactly its bytes. */
    public static Path resolve(Path dir, String identity) {
        if (!hasRawBytes(identity)) {
            try {
                Path p = dir.resolve(identity);
                if (p.getFileName().toString().equals(identity)) {
                    return p;
                }
            } catch (InvalidPathException e) {
                // the platform's encoding cannot write it: by its bytes below
            }
        }
        String base = dir.toAbsolutePath().toUri().toString();
        StringBuilder uri = new StringBuilder(base);
        if (!base.endsWith("/")) {
            uri.append('/');
        }
        for (byte x : bytes(identity)) {
            int c = x & 0xFF;
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || "-._~".indexOf(c) >= 0) {
                uri.append((char) c);
            } else {
                uri.append('%').append(Character.forDigit(c >> 4, 16)).append(Character.forDigit(c & 0xF, 16));
            }
        }
        return Path.of(URI.create(uri.toString()));
    }

    /** The last element's bytes, as {@link Path#toUri()} percent-encodes them (the JDK's only lossless view). */
    private static byte[] rawBytes(Path file) {
        String path = file.toAbsolutePath().toUri().getRawPath();
        if (path.endsWith("/")) {
            path = path.substring(0, path.length() - 1); // a folder's URI ends with a slash
        }
        String last = path.substring(path.lastIndexOf('/') + 1);
        ByteArrayOutputStream out = new ByteArrayOutputStream(last.length());
        for (int i = 0; i < last.length(); i++) {
            char c = last.charAt(i);
            if (c == '%' && i + 2 < last.length()) {
                out.write(Integer.parseInt(last, i + 1, i + 3, 16));
                i += 2;
            } else if (c < 0x80) {
                out.write(c);
            } else {
                out.writeBytes(String.valueOf(c).getBytes(StandardCharsets.UTF_8)); // not a URI of the default file system
            }
        }
        return out.toByteArray();
    }

    private static boolean isRawByte(String s, int i) {
        char c = s.charAt(i);
        return c >= 0xDC80 && c <= 0xDCFF && (i == 0 || !Character.isHighSurrogate(s.charAt(i - 1)));
    }
}
