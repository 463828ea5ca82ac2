package io.tributary.broker;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class LoopbackPortsTest {
    @Test
    void portsAreDistinctFreeAndBelowTheEphemeralRange() throws Exception {
        int[] ports = LoopbackPorts.stable(6);
        assertThat(Arrays.stream(ports).distinct().count()).isEqualTo(6);
        for (int p : ports) {
            assertThat(p).isBetween(10_000, LoopbackPorts.ephemeralStart() - 1);
            try (ServerSocket s = new ServerSocket(p, 1, InetAddress.getLoopbackAddress())) {
                assertThat(s.getLocalPort()).isEqualTo(p);
            }
        }
    }
}
