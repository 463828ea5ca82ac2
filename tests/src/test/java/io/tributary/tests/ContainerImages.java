package io.tributary.tests;

import com.github.dockerjava.api.model.ExposedPort;
import com.github.dockerjava.api.model.PortBinding;
import com.github.dockerjava.api.model.Ports;
import java.util.List;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * The images the container tests run, from system properties the {@code containers} profile sets:
 * {@code tests.kafka.image} (default {@code apache/kafka:4.1.0}; without a registry
 * {@code localhost/kafka:4.4.0}, built by {@code examples/compose/offline-images.sh}) and
 * {@code tests.tributary.image} (default {@code localhost/tributary:latest}, built by the same script
 * or by {@code docker build -t localhost/tributary:latest .}).
 */
final class ContainerImages {
    private ContainerImages() {
    }

    static DockerImageName kafka() {
        return DockerImageName.parse(System.getProperty("tests.kafka.image", "apache/kafka:4.1.0"))
                .asCompatibleSubstituteFor("apache/kafka");
    }

    static DockerImageName tributary() {
        return DockerImageName.parse(System.getProperty("tests.tributary.image", "localhost/tributary:latest"));
    }

    /** Publishes the container's exposed ports on 127.0.0.1 only (engines publish on every interface by default), each on a free port. */
    static <T extends GenericContainer<?>> T onLoopback(T container) {
        container.withCreateContainerCmdModifier(cmd -> {
            List<ExposedPort> exposed = List.of(cmd.getExposedPorts());
            Ports bindings = new Ports();
            exposed.forEach(port -> bindings.add(new PortBinding(Ports.Binding.bindIp("127.0.0.1"), port)));
            cmd.getHostConfig().withPublishAllPorts(false).withPortBindings(bindings);
        });
        return container;
    }
}
