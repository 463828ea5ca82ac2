package io.tributary.service.internal;

import io.tributary.schema.TributaryException;
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
                throw new TributaryException("kafka.bootstrap.servers: '" + url + "' is not host:port; give the broker's address"
                        + " as host:port (e.g. kafka:9092), several separated by commas");
            }
            try {
                InetAddress.getAllByName(host);
                resolved++;
            } catch (UnknownHostException e) {
                unresolved.add(host);
            }
        }
        if (resolved == 0 && unresolved.isEmpty()) {
            throw new TributaryException("kafka.bootstrap.servers is empty; give the broker's address as host:port,"
                    + " or leave the setting out to run the embedded broker");
        }
        if (resolved == 0) {
            throw new TributaryException("kafka.bootstrap.servers: host " + String.join(", ", unresolved) + " does not resolve to an"
                    + " address (" + servers.strip() + "); fix the host name, or leave the setting out to run the embedded broker");
        }
    }
}
