package io.tributary.tests;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * The {@code tributary} command as a separate process, started from the distribution the build
 * made ({@code service/target/dist}), the way the container's entrypoint starts it: a process a
 * test can SIGKILL. Started and ended by test-support's {@link io.tributary.testing.ChildProcess}.
 */
final class ChildProcess {
    static final Path LAUNCHER = Path.of("..", "service", "target", "dist", "bin", "tributary").toAbsolutePath().normalize();

    private final io.tributary.testing.ChildProcess process;

    private ChildProcess(io.tributary.testing.ChildProcess process) {
        this.process = process;
    }

    static ChildProcess start(Path workDir, Map<String, String> env, String... args) throws IOException {
        if (!Files.isExecutable(LAUNCHER)) {
            throw new IllegalStateException("no distribution at " + LAUNCHER + "; build it first: ./mvnw -DskipTests -pl service -am package");
        }
        List<String> cmd = new ArrayList<>();
        cmd.add(LAUNCHER.toString());
        cmd.addAll(List.of(args));
        Path out = Files.createTempFile(workDir, "stdout-", ".log");
        Path err = Files.createTempFile(workDir, "stderr-", ".log");
        return new ChildProcess(io.tributary.testing.ChildProcess.command(cmd).output(out, err)
                .env("TRIBUTARY_HTTP_PORT", "0") // a continuous run serves HTTP: any free port, never a taken 8080
                .env(env).start());
    }

    /** SIGKILL, as a crash would: no shutdown hook runs. */
    void kill() throws InterruptedException {
        process.kill();
    }

    /** SIGTERM, as a service manager stops it; its exit code, or -1 if it did not end within {@code seconds} (it is then killed). */
    int stop(long seconds) throws InterruptedException {
        return process.stop(seconds);
    }

    /** SIGTERM without waiting (several processes stopped at once). */
    void destroyGently() {
        process.destroyGently();
    }

    /** Waits for the process to end; -1 if it did not within the timeout (it is then killed). */
    int waitFor(long seconds) throws InterruptedException {
        return process.waitFor(seconds);
    }

    long pid() {
        return process.pid();
    }

    boolean alive() {
        return process.alive();
    }

    /** Milliseconds from start to the first progress line of a batch; -1 if none yet. */
    long millisToFirstBatch() throws IOException {
        return out().lines().anyMatch(l -> l.startsWith("{\"name\"")) ? process.nanosSinceStart() / 1_000_000 : -1;
    }

    /**
     * Polls {@code done} every {@code poll} until it holds, at most {@code atMost} (Awaitility); fails at once,
     * showing the output, if the process ends meanwhile.
     */
    void awaitWhileAlive(String what, Duration atMost, Duration poll, Callable<Boolean> done) {
        process.awaitWhileAlive(what, atMost, poll, done);
    }

    String out() throws IOException {
        return process.out();
    }

    String err() throws IOException {
        return process.err();
    }
}
