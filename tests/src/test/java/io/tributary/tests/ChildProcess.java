package io.tributary.tests;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The {@code tributary} command as a separate process, started from the distribution the build
 * made ({@code service/target/dist}), the way the container's entrypoint starts it: a process a
 * test can SIGKILL.
 */
final class ChildProcess {
    static final Path LAUNCHER = Path.of("..", "service", "target", "dist", "bin", "tributary").toAbsolutePath().normalize();

    private final Process process;
    private final Path stdout;
    private final Path stderr;
    private final long startNanos = System.nanoTime();

    private ChildProcess(Process process, Path stdout, Path stderr) {
        this.process = process;
        this.stdout = stdout;
        this.stderr = stderr;
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
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile());
        pb.environment().put("TRIBUTARY_HTTP_PORT", "0"); // a continuous run serves HTTP: any free port, never a taken 8080
        pb.environment().putAll(env);
        return new ChildProcess(pb.start(), out, err);
    }

    /** SIGKILL, as a crash would: no shutdown hook runs. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    /** SIGTERM, as a service manager stops it; its exit code, or -1 if it did not end within {@code seconds} (it is then killed). */
    int stop(long seconds) throws InterruptedException {
        process.destroy();
        return waitFor(seconds);
    }

    /** SIGTERM without waiting (several processes stopped at once). */
    void destroyGently() {
        process.destroy();
    }

    /** Waits for the process to end; -1 if it did not within the timeout (it is then killed). */
    int waitFor(long seconds) throws InterruptedException {
        if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
            kill();
            return -1;
        }
        return process.exitValue();
    }

    long pid() {
        return process.pid();
    }

    boolean alive() {
        return process.isAlive();
    }

    /** Milliseconds from start to the first progress line of a batch; -1 if none yet. */
    long millisToFirstBatch() throws IOException {
        List<String> lines = Files.readAllLines(stdout);
        return lines.stream().anyMatch(l -> l.startsWith("{\"name\"")) ? (System.nanoTime() - startNanos) / 1_000_000 : -1;
    }

    String out() throws IOException {
        return Files.readString(stdout);
    }

    String err() throws IOException {
        return Files.readString(stderr);
    }
}
