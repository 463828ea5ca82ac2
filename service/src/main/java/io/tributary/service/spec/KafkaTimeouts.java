package io.tributary.service.spec;

import io.tributary.service.spec.internal.SpecErrors;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * The rule between Kafka's timeouts that its clients check only when one is made: an admin client
 * refuses a {@code default.api.timeout.ms} below {@code request.timeout.ms} (Kafka's default:
 * {@value #DEFAULT_REQUEST_TIMEOUT_MS}), and the error that reaches the user is Kafka's bare
 * "Failed to create new KafkaAdminClient". Checked with the spec, before any client is made.
 */
final class KafkaTimeouts {
    static final String API_TIMEOUT = Settings.KAFKA + ".default.api.timeout.ms";
    static final String REQUEST_TIMEOUT = Settings.KAFKA + ".request.timeout.ms";
    /** {@code request.timeout.ms} when the spec leaves it out: Kafka's default for its admin, consumer and producer clients. */
    static final long DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

    private KafkaTimeouts() {
    }

    /** @param where where a key's value was given (the spec's line, the variable or the --set option) */
    static void check(Map<String, String> values, UnaryOperator<String> where) {
        Long api = millis(values.get(API_TIMEOUT));
        if (api == null) {
            return;
        }
        Long given = millis(values.get(REQUEST_TIMEOUT));
        long request = given == null ? DEFAULT_REQUEST_TIMEOUT_MS : given;
        if (api < request) {
            throw SpecErrors.apiTimeoutBelowRequestTimeout(API_TIMEOUT, api, where.apply(API_TIMEOUT), REQUEST_TIMEOUT, given,
                    request, given == null ? null : where.apply(REQUEST_TIMEOUT));
        }
    }

    /** A whole number of milliseconds, or null when absent or not a number (Kafka's client then names the key). */
    private static Long millis(String v) {
        if (v == null) {
            return null;
        }
        try {
            return Long.parseLong(v.strip());
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
