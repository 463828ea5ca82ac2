package io.tributary.storage.internal;

import io.tributary.storage.Storage;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.regions.providers.AwsProfileRegionProvider;
import software.amazon.awssdk.regions.providers.AwsRegionProviderChain;
import software.amazon.awssdk.regions.providers.SystemSettingsRegionProvider;
import software.amazon.awssdk.retries.api.BackoffStrategy;
import software.amazon.awssdk.retries.api.RetryStrategy;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * S3 clients built from the storage settings, one per distinct settings (they are thread-safe
 * and keep a connection pool), for the life of the process. The keys are Hadoop S3A's:
 * {@value #ENDPOINT}, {@value #REGION}, {@value #PATH_STYLE}, {@value #ACCESS_KEY} /
 * {@value #SECRET_KEY} / {@value #SESSION_TOKEN} (absent: AWS's default credentials chain),
 * {@value #ATTEMPTS}, {@value #CONNECT_TIMEOUT}, {@value #SOCKET_TIMEOUT}, {@value #MAX_CONNECTIONS}.
 */
public final class S3Clients {
    public static final String ENDPOINT = "fs.s3a.endpoint";
    public static final String REGION = "fs.s3a.endpoint.region";
    public static final String PATH_STYLE = "fs.s3a.path.style.access";
    public static final String ACCESS_KEY = "fs.s3a.access.key";
    public static final String SECRET_KEY = "fs.s3a.secret.key";
    public static final String SESSION_TOKEN = "fs.s3a.session.token";
    public static final String ATTEMPTS = "fs.s3a.attempts.maximum";
    public static final String CONNECT_TIMEOUT = "fs.s3a.connection.establish.timeout";
    public static final String SOCKET_TIMEOUT = "fs.s3a.connection.timeout";
    public static final String MAX_CONNECTIONS = "fs.s3a.connection.maximum";
    /** Retries of a request that failed on a transient error (a 5xx, throttling, a dropped connection). */
    static final int DEFAULT_ATTEMPTS = 10;

    private static final Map<Storage, Clients> CLIENTS = new ConcurrentHashMap<>();

    /** A client that retries transient errors with back-off, and one that tries twice (for the checks at start). */
    public record Clients(S3Client client, S3Client probe, String endpoint) {
    }

    private S3Clients() {
    }

    public static Clients of(Storage storage) {
        return CLIENTS.computeIfAbsent(storage, S3Clients::build);
    }

    /** The two clients share one connection pool (building an HTTP client, its TLS set-up included, is most of a client's start). */
    private static Clients build(Storage s) {
        int attempts = Integer.parseInt(s.get(ATTEMPTS, String.valueOf(DEFAULT_ATTEMPTS)).strip());
        SdkHttpClient http = Apache5HttpClient.builder()
                .maxConnections(Integer.parseInt(s.get(MAX_CONNECTIONS, "64").strip()))
                .connectionTimeout(duration(s.get(CONNECT_TIMEOUT), Duration.ofSeconds(5)))
                .socketTimeout(duration(s.get(SOCKET_TIMEOUT), Duration.ofSeconds(60)))
                .build();
        return new Clients(client(s, retry(attempts), http), client(s, retry(2), http), endpoint(s));
    }

    /** Exponential back-off with jitter: 100 ms doubling to at most 20 s; throttling (503 Slow Down) from 1 s. */
    private static RetryStrategy retry(int attempts) {
        return AwsRetryStrategy.standardRetryStrategy().toBuilder()
                .maxAttempts(Math.max(1, attempts))
                .backoffStrategy(BackoffStrategy.exponentialDelay(Duration.ofMillis(100), Duration.ofSeconds(20)))
                .throttlingBackoffStrategy(BackoffStrategy.exponentialDelay(Duration.ofSeconds(1), Duration.ofSeconds(20)))
                .circuitBreakerEnabled(false)
                .build();
    }

    private static S3Client client(Storage s, RetryStrategy retry, SdkHttpClient http) {
        var b = S3Client.builder()
                .httpClient(http)
                .region(region(s))
                .forcePathStyle(Boolean.parseBoolean(s.get(PATH_STYLE, "false").strip()))
                .credentialsProvider(credentials(s))
                // checksums only where S3 requires them: S3-compatible servers refuse the newer trailing checksums
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
                .overrideConfiguration(o -> o.retryStrategy(retry));
        String endpoint = s.get(ENDPOINT);
        if (endpoint != null && !endpoint.isBlank()) {
            b.endpointOverride(URI.create(endpoint.contains("://") ? endpoint.strip() : "https://" + endpoint.strip()));
        }
        return b.build();
    }

    private static Region region(Storage s) {
        String r = s.get(REGION);
        if (r != null && !r.isBlank()) {
            return Region.of(r.strip());
        }
        try { // environment, system properties and the profile file; never the instance metadata service
            return new AwsRegionProviderChain(new SystemSettingsRegionProvider(), new AwsProfileRegionProvider()).getRegion();
        } catch (RuntimeException e) {
            return Region.US_EAST_1;
        }
    }

    private static AwsCredentialsProvider credentials(Storage s) {
        String key = s.get(ACCESS_KEY);
        String secret = s.get(SECRET_KEY);
        if (key != null && secret != null) {
            String token = s.get(SESSION_TOKEN);
            return StaticCredentialsProvider.create(token == null
                    ? AwsBasicCredentials.create(key, secret) : AwsSessionCredentials.create(key, secret, token));
        }
        return DefaultCredentialsProvider.builder().build();
    }

    /** The endpoint the settings name, for messages: the configured one or AWS's. */
    static String endpoint(Storage s) {
        String e = s.get(ENDPOINT);
        return e == null || e.isBlank() ? "AWS's S3 endpoint" : e.strip();
    }

    /** {@code 5000} (milliseconds, as Hadoop reads it) or {@code 5s}, {@code 2m}. */
    static Duration duration(String v, Duration defaultValue) {
        if (v == null || v.isBlank()) {
            return defaultValue;
        }
        String t = v.strip().toLowerCase(java.util.Locale.ROOT);
        if (t.matches("\\d+")) {
            return Duration.ofMillis(Long.parseLong(t));
        }
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d+)\\s*(ms|s|m|h)").matcher(t);
        if (!m.matches()) {
            return defaultValue;
        }
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
            case "ms" -> Duration.ofMillis(n);
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            default -> Duration.ofHours(n);
        };
    }
}
