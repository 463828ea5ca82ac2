package io.tributary.storage;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The one rule for which settings hold a secret, whatever system they are for: Kafka's
 * ({@code ssl.key.password}, {@code sasl.jaas.config}, Schema Registry's
 * {@code basic.auth.user.info}), Hadoop's S3A ({@code fs.s3a.secret.key}, {@code fs.s3a.session.token}),
 * Azure's ({@code fs.azure.account.key.ACCOUNT.dfs.core.windows.net}, {@code fs.azure.sas.*}), GCS's
 * ({@code google.cloud.auth.service.account.json.keyfile}) and AWS's ({@code aws.secretAccessKey}).
 * Every place that shows a setting ({@code checkpoint show}, the live page, {@link Storage#toString()})
 * shows {@link #MASK} for such a key.
 *
 * <p>A key is split into words at dots, dashes, underscores and camel case, in lower case. It is a
 * secret when a word is one of {@link #SECRET_WORDS}, when {@code key} is its last word or follows
 * a word of {@link #KEY_KINDS} ({@code account.key.X}, {@code accessKeyId}, {@code private.key.id}),
 * or when {@code user} is followed by {@code info}. So {@code key.serializer}, {@code key.converter}
 * and {@code sink.delta.keys} stay visible.
 */
public final class SecretKeys {
    /** What a secret's value shows. */
    public static final String MASK = "******";

    /** Words that make a key secret wherever they stand. */
    static final Set<String> SECRET_WORDS = Set.of("password", "passwd", "passphrase", "secret", "secrets", "token", "tokens",
            "credential", "credentials", "jaas", "keyfile", "sas", "apikey", "accesskey", "secretkey", "privatekey", "accountkey",
            "userinfo", "signature");
    /** Words after which {@code key} names a secret even when more words follow. */
    static final Set<String> KEY_KINDS = Set.of("account", "access", "secret", "private", "api", "encryption", "signing", "master",
            "shared");

    private SecretKeys() {
    }

    /** True when the value of {@code key} must never be shown. */
    public static boolean isSecret(String key) {
        List<String> words = words(key);
        for (int i = 0; i < words.size(); i++) {
            String w = words.get(i);
            String before = i == 0 ? "" : words.get(i - 1);
            if (SECRET_WORDS.contains(w)
                    || w.equals("key") && (i == words.size() - 1 || KEY_KINDS.contains(before))
                    || w.equals("info") && before.equals("user")) {
                return true;
            }
        }
        return false;
    }

    /** {@code settings} in their order, each secret's value shown as {@link #MASK}. */
    public static Map<String, String> masked(Map<String, String> settings) {
        Map<String, String> out = new LinkedHashMap<>();
        settings.forEach((k, v) -> out.put(k, isSecret(k) ? MASK : v));
        return out;
    }

    /** {@code fs.azure.account.key.X}: fs, azure, account, key, x; {@code aws.secretAccessKey}: aws, secret, access, key. */
    static List<String> words(String key) {
        List<String> out = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            boolean separator = !Character.isLetterOrDigit(c);
            boolean camel = Character.isUpperCase(c) && i > 0 && Character.isLowerCase(key.charAt(i - 1));
            if ((separator || camel) && word.length() > 0) {
                out.add(word.toString().toLowerCase(Locale.ROOT));
                word.setLength(0);
            }
            if (!separator) {
                word.append(c);
            }
        }
        if (word.length() > 0) {
            out.add(word.toString().toLowerCase(Locale.ROOT));
        }
        return out;
    }
}
