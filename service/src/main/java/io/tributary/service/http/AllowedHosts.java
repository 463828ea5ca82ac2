package io.tributary.service.http;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The names a request's {@code Host} header may give, so that a web page of another site cannot
 * read the endpoints through DNS rebinding (its name made to resolve to 127.0.0.1: the browser then
 * sends that name as the Host). Accepted: the loopback names ({@code localhost}, {@code 127.0.0.1},
 * {@code [::1]}), the address the server is bound to, and the names of {@code http.allowedHosts};
 * {@code *} there accepts any. Bound to a wildcard address ({@code 0.0.0.0}, {@code ::}: a
 * container, reached by names this process cannot know) any name is accepted unless
 * {@code http.allowedHosts} is set. The port is not compared, so that a forwarded port works; a
 * request without a Host (HTTP/1.0, not a browser) is accepted.
 */
final class AllowedHosts {
    private static final List<String> LOOPBACK = List.of("localhost", "127.0.0.1", "::1");

    /** Any name: bound to a wildcard address without the setting, or {@code *} in it. */
    private static final AllowedHosts ANY = new AllowedHosts(Set.of(), true);

    private final Set<String> names;
    private final boolean any;

    private AllowedHosts(Set<String> names, boolean any) {
        this.names = names;
        this.any = any;
    }

    /**
     * @param bindHost {@code http.host}
     * @param configured {@code http.allowedHosts}, empty when not set
     */
    static AllowedHosts of(String bindHost, List<String> configured) {
        String bound = name(bindHost);
        boolean wildcard = bound.isEmpty() || bound.equals("0.0.0.0") || bound.equals("::") || bound.equals("0:0:0:0:0:0:0:0");
        if (configured.contains("*") || wildcard && configured.isEmpty()) {
            return ANY;
        }
        Set<String> names = new LinkedHashSet<>(LOOPBACK);
        if (!wildcard) {
            names.add(bound);
        }
        configured.forEach(n -> names.add(name(n)));
        return new AllowedHosts(Set.copyOf(names), false);
    }

    /** Whether a request with this {@code Host} header (null when absent) is answered. */
    boolean allows(String hostHeader) {
        return any || hostHeader == null || names.contains(name(hostPart(hostHeader.strip())));
    }

    /** {@code name:port} → name; {@code [::1]:port} → ::1. */
    private static String hostPart(String host) {
        if (host.startsWith("[")) {
            int end = host.indexOf(']');
            return end < 0 ? host : host.substring(1, end);
        }
        int colon = host.indexOf(':');
        return colon < 0 || host.indexOf(':', colon + 1) >= 0 ? host : host.substring(0, colon);
    }

    /** Lower case, without brackets and a trailing dot: {@code LocalHost.} → localhost. */
    private static String name(String host) {
        String h = host.strip().toLowerCase(Locale.ROOT);
        if (h.startsWith("[") && h.endsWith("]")) {
            h = h.substring(1, h.length() - 1);
        }
        return h.endsWith(".") ? h.substring(0, h.length() - 1) : h;
    }

    /** The names accepted, for the refusal's line. */
    @Override
    public String toString() {
        return any ? "any" : String.join(", ", names.stream().sorted().toList());
    }
}
