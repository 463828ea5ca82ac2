package io.tributary.connect;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigValue;
import org.apache.kafka.connect.connector.Connector;

/** What the REST API's validation of a connector's config says: each key's error messages, keys without one left out. */
final class ValidationErrors {
    private ValidationErrors() {
    }

    static Map<String, List<String>> of(Connector connector, Map<String, String> config) {
        Map<String, List<String>> out = new HashMap<>();
        for (ConfigValue v : connector.validate(config).configValues()) {
            if (!v.errorMessages().isEmpty()) {
                out.put(v.name(), v.errorMessages());
            }
        }
        return out;
    }
}
