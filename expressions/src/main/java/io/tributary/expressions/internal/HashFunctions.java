package io.tributary.expressions.internal;

import static io.tributary.schema.DataType.STRING;

import io.tributary.schema.DataType;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.function.Consumer;
import java.util.zip.CRC32;

/** Digests and Spark's row hashes; text is hashed as its UTF-8 bytes. */
final class HashFunctions {
    private HashFunctions() {
    }

    static void register(Consumer<FunctionDef> add) {
        add.accept(Fn.unary("md5", "the MD5 digest as 32 hex digits", STRING, STRING, v -> digest("MD5", (String) v)));
        add.accept(Fn.unary("sha1", "the SHA-1 digest as 40 hex digits", STRING, STRING, v -> digest("SHA-1", (String) v)));
        add.accept(Fn.alias("sha", Fn.unary("sha1", "", STRING, STRING, v -> digest("SHA-1", (String) v))));
        add.accept(Fn.binary("sha2", "the SHA-2 digest of bits 224, 256 (or 0), 384 or 512 as hex; null for other bits", STRING,
                DataType.INT, STRING, (v, bits) -> switch ((Integer) bits) {
                    case 0, 256 -> digest("SHA-256", (String) v);
                    case 224 -> digest("SHA-224", (String) v);
                    case 384 -> digest("SHA-384", (String) v);
                    case 512 -> digest("SHA-512", (String) v);
                    default -> null;
                }));
        add.accept(Fn.unary("crc32", "the CRC-32 checksum", STRING, DataType.LONG, v -> {
            CRC32 c = new CRC32();
            c.update(((String) v).getBytes(StandardCharsets.UTF_8));
            return c.getValue();
        }));
        add.accept(Fn.custom("hash", 1, -1, "hash(any, ...) → INT", "a null argument leaves the hash as it is",
                "Spark's Murmur3 hash of the values, seed 42", (call, args) -> rowHash(call, args, false)));
        add.accept(Fn.custom("xxhash64", 1, -1, "xxhash64(any, ...) → BIGINT", "a null argument leaves the hash as it is",
                "Spark's 64-bit xxHash of the values, seed 42", (call, args) -> rowHash(call, args, true)));
    }

    private static String digest(String algorithm, String v) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance(algorithm).digest(v.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Bound rowHash(Analyzer.Call call, List<Bound> args, boolean xx) {
        Hashing.Feed[] feeds = new Hashing.Feed[args.size()];
        for (int i = 0; i < feeds.length; i++) {
            DataType t = args.get(i).type();
            if (Variants.holdsVariant(t)) {
                throw call.typeError("[DATATYPE_MISMATCH.HASH_VARIANT_TYPE] " + call.name() + " cannot hash " + Types.name(t) + ": Spark hashes no"
                        + " VARIANT; hash its JSON, to_json(...)");
            }
            if (StructFunctions.holdsMap(t)) {
                throw call.typeError("[DATATYPE_MISMATCH.HASH_MAP_TYPE] " + call.name() + " cannot hash " + t.ddl()
                        + ": Spark hashes no maps; hash their entries (map_entries) instead");
            }
            feeds[i] = t == null ? null : Hashing.feed(t);
        }
        if (xx) {
            return call.applyTolerant(args, DataType.LONG, a -> {
                long h = 42;
                for (int i = 0; i < a.length; i++) {
                    if (a[i] != null) {
                        h = feeds[i].xx(a[i], h);
                    }
                }
                return h;
            });
        }
        return call.applyTolerant(args, DataType.INT, a -> {
            int h = 42;
            for (int i = 0; i < a.length; i++) {
                if (a[i] != null) {
                    h = feeds[i].murmur(a[i], h);
                }
            }
            return h;
        });
    }
}
