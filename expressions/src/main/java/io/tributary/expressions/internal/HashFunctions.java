package io.tributary.expressions.internal;

import static io.tributary.schema.DataType.STRING;

import io.tributary.schema.DataType;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.function.Consumer;
import java.util.zip.CRC32;

/** Digests and Spark's row hashes; text is hashed as its UTF-8 bytes, BINARY as its bytes. */
final class HashFunctions {
    private HashFunctions() {
    }

    static void register(Consumer<FunctionDef> add) {
        add.accept(digest("md5", "the MD5 digest as 32 hex digits", "MD5"));
        add.accept(digest("sha1", "the SHA-1 digest as 40 hex digits", "SHA-1"));
        add.accept(Fn.alias("sha", digest("sha1", "", "SHA-1")));
        add.accept(Fn.custom("sha2", 2, 2, "sha2(BINARY or STRING, bits INT) → STRING", FunctionDef.NULL_IN_NULL_OUT,
                "the SHA-2 digest of bits 224, 256 (or 0), 384 or 512 as hex; null for other bits",
                (call, args) -> call.apply(List.of(EncodingFunctions.bytes(call, args.get(0)), call.as(args.get(1), DataType.INT)), STRING,
                        (Kernel.Binary) (v, bits) -> switch ((Integer) bits) {
                            case 0, 256 -> digest("SHA-256", (byte[]) v);
                            case 224 -> digest("SHA-224", (byte[]) v);
                            case 384 -> digest("SHA-384", (byte[]) v);
                            case 512 -> digest("SHA-512", (byte[]) v);
                            default -> null;
                        })));
        add.accept(Fn.custom("crc32", 1, 1, "crc32(BINARY or STRING) → BIGINT", FunctionDef.NULL_IN_NULL_OUT, "the CRC-32 checksum",
                (call, args) -> call.apply(List.of(EncodingFunctions.bytes(call, args.get(0))), DataType.LONG, (Kernel.Unary) v -> {
                    CRC32 c = new CRC32();
                    c.update((byte[]) v);
                    return c.getValue();
                })));
        add.accept(Fn.custom("hash", 1, -1, "hash(any, ...) → INT", "a null argument leaves the hash as it is",
                "Spark's Murmur3 hash of the values, seed 42", (call, args) -> rowHash(call, args, false)));
        add.accept(Fn.custom("xxhash64", 1, -1, "xxhash64(any, ...) → BIGINT", "a null argument leaves the hash as it is",
                "Spark's 64-bit xxHash of the values, seed 42", (call, args) -> rowHash(call, args, true)));
    }

    /** A digest of the bytes (a text's UTF-8, as Spark casts STRING to BINARY) as hex digits. */
    private static FunctionDef digest(String name, String doc, String algorithm) {
        return Fn.custom(name, 1, 1, name + "(BINARY or STRING) → STRING", FunctionDef.NULL_IN_NULL_OUT, doc,
                (call, args) -> call.apply(List.of(EncodingFunctions.bytes(call, args.get(0))), STRING,
                        (Kernel.Unary) v -> digest(algorithm, (byte[]) v)));
    }

    private static String digest(String algorithm, byte[] v) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance(algorithm).digest(v));
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
