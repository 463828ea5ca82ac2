package io.tributary.broker;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Free ports on 127.0.0.1 for a server that comes back on the same port after a restart (a broker
 * its clients know by address, a cluster node its voters know). A port from the kernel's ephemeral
 * range (what binding port 0 gives) may be taken while the server is down, by another process's
 * bind to port 0 or by any outgoing connection; the ports here lie below that range, where neither
 * lands.
 */
public final class LoopbackPorts {
    private static final int LOWEST = 10_000;

    private LoopbackPorts() {
    }

    /** {@code n} distinct ports free now, below the ephemeral range (or from it, where that range leaves no room below). */
    public static int[] stable(int n) {
        int below = ephemeralStart();
        List<ServerSocket> open = new ArrayList<>();
        try {
            int[] ports = new int[n];
            for (int i = 0; i < n; i++) {
                ServerSocket s = null;
                for (int attempt = 0; s == null && attempt < 100 && below - LOWEST > 1_000; attempt++) {
                    s = bind(ThreadLocalRandom.current().nextInt(LOWEST, below));
                }
                if (s == null) {
                    s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                }
                open.add(s);
                ports[i] = s.getLocalPort();
            }
            return ports;
        } catch (IOException e) {
            throw new UncheckedIOException("no free ports on 127.0.0.1", e);
        } finally {
            for (ServerSocket s : open) {
                try {
                    s.close();
                } catch (IOException e) {
                    // closing a socket that never served
                }
            }
        }
    }

    private static ServerSocket bind(int port) {
        try {
            return new ServerSocket(port, 1, InetAddress.getLoopbackAddress());
        } catch (IOException taken) {
            return null;
        }
    }

    /** The first port of the kernel's ephemeral range (Linux's default 32768 where it cannot be read). */
    static int ephemeralStart() {
        // read as a line: Files.readString trusts the size /proc reports, and some kernels' /proc gives only the first byte
        try (java.io.BufferedReader r = Files.newBufferedReader(Path.of("/proc/sys/net/ipv4/ip_local_port_range"))) {
            return Integer.parseInt(r.readLine().trim().split("\\s+")[0]);
        } catch (IOException | RuntimeException e) {
            return 32_768;
        }
    }
}
