package io.tributary.expressions.internal;

import static io.tributary.schema.DataType.BINARY;
import static io.tributary.schema.DataType.STRING;

import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Spark's {@code aes_encrypt}, {@code aes_decrypt} and {@code try_aes_decrypt}: AES with a key of 16, 24 or 32 bytes in
 * mode GCM (the default; no padding, a 12-byte iv, a 128-bit tag, optional additional authenticated data), CBC (PKCS5
 * padding, a 16-byte iv) or ECB (PKCS5 padding, no iv). The iv, given or random, leads the ciphertext, as Spark writes it.
 */
final class AesFunctions {
    private static final SecureRandom RANDOM = new SecureRandom();

    /** A mode and padding Spark accepts: the JCE transformation, the iv's length (0 for none). */
    private enum Mode {
        ECB("AES/ECB/PKCS5Padding", 0), CBC("AES/CBC/PKCS5Padding", 16), GCM("AES/GCM/NoPadding", 12);

        final String transformation;
        final int ivLength;

        Mode(String transformation, int ivLength) {
            this.transformation = transformation;
            this.ivLength = ivLength;
        }

        /** Spark's {@code CipherMode.fromString}: GCM with padding NONE or DEFAULT, CBC and ECB with PKCS or DEFAULT. */
        static Mode of(String mode, String padding) {
            String m = mode.toUpperCase(Locale.ROOT);
            String p = padding.toUpperCase(Locale.ROOT);
            if (m.equals("GCM") && (p.equals("NONE") || p.equals("DEFAULT"))) {
                return GCM;
            }
            if ((m.equals("CBC") || m.equals("ECB")) && (p.equals("PKCS") || p.equals("DEFAULT"))) {
                return valueOf(m);
            }
            throw Failure.of("UNSUPPORTED_FEATURE.AES_MODE", "AES in mode " + mode + " with padding " + padding
                    + " is not supported: use GCM (padding NONE or DEFAULT), CBC or ECB (padding PKCS or DEFAULT)");
        }
    }

    private AesFunctions() {
    }

    static void register(Consumer<FunctionDef> add) {
        add.accept(Fn.custom("aes_encrypt", 2, 6, "aes_encrypt(input BINARY, key BINARY[, mode STRING[, padding STRING[, iv BINARY[, aad BINARY]]]])"
                + " → BINARY", FunctionDef.NULL_IN_NULL_OUT, "input encrypted with AES: key of 16, 24 or 32 bytes; mode GCM (default), CBC or ECB;"
                + " padding DEFAULT, NONE (GCM) or PKCS (CBC, ECB); iv of 12 (GCM) or 16 (CBC) bytes, random when empty; aad for GCM only;"
                + " the iv leads the result; INVALID_PARAMETER_VALUE.AES_KEY_LENGTH, UNSUPPORTED_FEATURE.AES_MODE ... as Spark's",
                (call, args) -> resolve(call, args, true, false)));
        add.accept(Fn.custom("aes_decrypt", 2, 5, "aes_decrypt(input BINARY, key BINARY[, mode STRING[, padding STRING[, aad BINARY]]]) → BINARY",
                FunctionDef.NULL_IN_NULL_OUT, "what aes_encrypt encrypted with the same key, mode, padding and aad;"
                        + " INVALID_PARAMETER_VALUE.AES_CRYPTO_ERROR when it does not decrypt", (call, args) -> resolve(call, args, false, false)));
        add.accept(Fn.custom("try_aes_decrypt", 2, 5, "try_aes_decrypt(input BINARY, key BINARY[, mode STRING[, padding STRING[, aad BINARY]]])"
                + " → BINARY", "null if any argument is null, or where aes_decrypt fails", "aes_decrypt, or null where it fails",
                (call, args) -> resolve(call, args, false, true)));
    }

    private static Bound resolve(Analyzer.Call call, List<Bound> args, boolean encrypt, boolean orNull) {
        List<Bound> typed = new ArrayList<>();
        typed.add(EncodingFunctions.bytes(call, args.get(0)));
        typed.add(EncodingFunctions.bytes(call, args.get(1)));
        typed.add(args.size() > 2 ? call.as(args.get(2), STRING) : literal("GCM", STRING));
        typed.add(args.size() > 3 ? call.as(args.get(3), STRING) : literal("DEFAULT", STRING));
        if (encrypt) {
            typed.add(args.size() > 4 ? EncodingFunctions.bytes(call, args.get(4)) : literal(new byte[0], BINARY));
        }
        int aad = encrypt ? 5 : 4;
        typed.add(args.size() > aad ? EncodingFunctions.bytes(call, args.get(aad)) : literal(new byte[0], BINARY));
        Kernel kernel = encrypt
                ? a -> encrypt((byte[]) a[0], (byte[]) a[1], (String) a[2], (String) a[3], (byte[]) a[4], (byte[]) a[5])
                : a -> decrypt((byte[]) a[0], (byte[]) a[1], (String) a[2], (String) a[3], (byte[]) a[4], orNull);
        return call.apply(typed, BINARY, kernel);
    }

    private static Bound literal(Object value, io.tributary.schema.DataType type) {
        return new Bound.Literal(value, type, value instanceof String s ? "'" + s + "'" : "X''");
    }

    static byte[] encrypt(byte[] input, byte[] key, String modeName, String padding, byte[] iv, byte[] aad) {
        Mode mode = Mode.of(modeName, padding);
        SecretKeySpec secret = key(key);
        try {
            Cipher cipher = Cipher.getInstance(mode.transformation);
            if (mode == Mode.ECB) {
                if (iv.length > 0) {
                    throw Failure.of("UNSUPPORTED_FEATURE.AES_MODE_IV", "AES in mode ECB takes no iv");
                }
                noAad(mode, aad);
                cipher.init(Cipher.ENCRYPT_MODE, secret);
                return cipher.doFinal(input);
            }
            if (iv.length == 0) {
                iv = new byte[mode.ivLength];
                RANDOM.nextBytes(iv);
            } else if (iv.length != mode.ivLength) {
                throw Failure.of("INVALID_PARAMETER_VALUE.AES_IV_LENGTH", "AES in mode " + mode + " needs an iv of " + mode.ivLength
                        + " bytes, not " + iv.length);
            }
            if (mode == Mode.GCM) {
                cipher.init(Cipher.ENCRYPT_MODE, secret, new GCMParameterSpec(128, iv));
                cipher.updateAAD(aad);
            } else {
                noAad(mode, aad);
                cipher.init(Cipher.ENCRYPT_MODE, secret, new IvParameterSpec(iv));
            }
            byte[] out = Arrays.copyOf(iv, iv.length + cipher.getOutputSize(input.length));
            int n = cipher.doFinal(input, 0, input.length, out, iv.length);
            return Arrays.copyOf(out, iv.length + n);
        } catch (GeneralSecurityException e) {
            throw cryptoError(e);
        }
    }

    static byte[] decrypt(byte[] input, byte[] key, String modeName, String padding, byte[] aad, boolean orNull) {
        try {
            Mode mode = Mode.of(modeName, padding);
            SecretKeySpec secret = key(key);
            if (mode != Mode.GCM) {
                noAad(mode, aad);
            }
            try {
                Cipher cipher = Cipher.getInstance(mode.transformation);
                if (mode == Mode.ECB) {
                    cipher.init(Cipher.DECRYPT_MODE, secret);
                    return cipher.doFinal(input);
                }
                if (input.length < mode.ivLength) {
                    throw new GeneralSecurityException("the input of " + input.length + " bytes is shorter than its iv of " + mode.ivLength);
                }
                if (mode == Mode.GCM) {
                    cipher.init(Cipher.DECRYPT_MODE, secret, new GCMParameterSpec(128, input, 0, mode.ivLength));
                    cipher.updateAAD(aad);
                } else {
                    cipher.init(Cipher.DECRYPT_MODE, secret, new IvParameterSpec(input, 0, mode.ivLength));
                }
                return cipher.doFinal(input, mode.ivLength, input.length - mode.ivLength);
            } catch (GeneralSecurityException e) {
                throw cryptoError(e);
            }
        } catch (Failure f) {
            if (orNull) {
                return null;
            }
            throw f;
        }
    }

    private static SecretKeySpec key(byte[] key) {
        if (key.length != 16 && key.length != 24 && key.length != 32) {
            throw Failure.of("INVALID_PARAMETER_VALUE.AES_KEY_LENGTH", "an AES key has 16, 24 or 32 bytes, not " + key.length);
        }
        return new SecretKeySpec(key, "AES");
    }

    private static void noAad(Mode mode, byte[] aad) {
        if (aad.length > 0) {
            throw Failure.of("UNSUPPORTED_FEATURE.AES_MODE_AAD", "AES in mode " + mode + " takes no additional authenticated data (aad)");
        }
    }

    private static Failure cryptoError(GeneralSecurityException e) {
        return Failure.of("INVALID_PARAMETER_VALUE.AES_CRYPTO_ERROR", "the input does not decrypt with this key, mode and padding: "
                + e.getMessage());
    }
}
