package io.tributary.service.internal;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.utils.Utils;

/**
 * Checks {@code kafka.bootstrap.servers} before any client is made: Kafka's own check fails deep
 * inside the first client with "No resolvable bootstrap urls", naming neither the setting nor the
 * host. As Kafka does, a list with at least one host that resolves is accepted (the clients skip
 * the others with a warning).
 */
final class BootstrapServers {
    private BootstrapServers() {
    }

    static void check(String servers) {
        List<String> unresolved = new ArrayList<>();
        int resolved = 0;
        for (String raw : servers.split(",")) {
            String url = raw.strip();
            if (url.isEmpty()) {
                continue;
            }
            String host = Utils.getHost(url);
            Integer port = Utils.getPort(url);
            if (host == null || port == null) {
                throw ServiceErrors.notHostPort(url);
            }
            try {
                InetAddress.getAllByName(host);
                resolved++;
            } catch (UnknownHostException e) {
                unresolved.add(host);
            }
        }
        if (resolved == 0 && unresolved.isEmpty()) {
            throw ServiceErrors.noBootstrapServers();
        }
        if (resolved == 0) {
            throw ServiceErrors.unresolvedHost(String.join(", ", unresolved), servers.strip());
        }
    }
}
