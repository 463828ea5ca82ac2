package io.tributary.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

/**
 * A process a test starts (the distribution's {@code bin/tributary}, a broker or Kafka Connect
 * worker JVM, a browser), its output in files a failing test shows, and the ways a test ends it:
 * SIGTERM as a service manager stops it, SIGKILL as a crash would, SIGSTOP/SIGCONT to freeze it.
 * {@link #close()} kills it and every process it started.
 */
public final class ChildProcess implements AutoCloseable {
    private final Process process;
    private final Path stdout;
    private final Path stderr;
    private final long startNanos = System.nanoTime();

    private ChildProcess(Process process, Path stdout, Path stderr) {
        this.process = process;
        this.stdout = stdout;
        this.stderr = stderr;
    }

    /** A process of {@code command}; {@link Builder#start()} starts it. */
    public static Builder command(List<String> command) {
        return new Builder(command);
    }

    /** A process of {@code command}; {@link Builder#start()} starts it. */
    public static Builder command(String... command) {
        return new Builder(List.of(command));
    }

    /** {@code java} of the running JDK ({@code java.home}), for a child JVM. */
    public static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** How a process is started: its command, environment, folder and where its output goes. */
    public static final class Builder {
        private final List<String> command;
        private final Map<String, String> env = new LinkedHashMap<>();
        private Path directory;
        private Path stdout;
        private Path stderr;
        private boolean append;

        private Builder(List<String> command) {
            this.command = new ArrayList<>(command);
        }

        /** Adds {@code env} to the environment the process inherits. */
        public Builder env(Map<String, String> env) {
            this.env.putAll(env);
            return this;
        }

        public Builder env(String key, String value) {
            env.put(key, value);
            return this;
        }

        /** The process's working folder; absent: the test's. */
        public Builder directory(Path directory) {
            this.directory = directory;
            return this;
        }

        /** Standard output and standard error each to a file of its own, replaced. */
        public Builder output(Path stdout, Path stderr) {
            this.stdout = stdout;
            this.stderr = stderr;
            this.append = false;
            return this;
        }

        /** Standard output and standard error together, appended to {@code log} (kept across restarts). */
        public Builder log(Path log) {
            this.stdout = log;
            this.stderr = null;
            this.append = true;
            return this;
        }

        public ChildProcess start() throws IOException {
            if (stdout == null) {
                throw new IllegalStateException("say where the output of " + command + " goes: output(...) or log(...)");
            }
            ProcessBuilder pb = new ProcessBuilder(command);
            if (directory != null) {
                pb.directory(directory.toFile());
            }
            pb.environment().putAll(env);
            pb.redirectOutput(append ? ProcessBuilder.Redirect.appendTo(stdout.toFile()) : ProcessBuilder.Redirect.to(stdout.toFile()));
            if (stderr == null) {
                pb.redirectErrorStream(true);
            } else {
                pb.redirectError(stderr.toFile());
            }
            return new ChildProcess(pb.start(), stdout, stderr);
        }
    }

    public long pid() {
        return process.pid();
    }

    public boolean alive() {
        return process.isAlive();
    }

    /** The exit code of a process that ended. */
    public int exitValue() {
        return process.exitValue();
    }

    /** Nanoseconds since the process was started. */
    public long nanosSinceStart() {
        return System.nanoTime() - startNanos;
    }

    /** SIGKILL, as a crash would: no shutdown hook runs; then waits (at most 30 s) for it to end. */
    public void kill() throws InterruptedException {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    /** SIGTERM, as a service manager stops it; its exit code, or -1 if it did not end within {@code seconds} (it is then killed). */
    public int stop(long seconds) throws InterruptedException {
        process.destroy();
        return waitFor(seconds);
    }

    /** SIGTERM without waiting (several processes stopped at once). */
    public void destroyGently() {
        process.destroy();
    }

    /** Waits for the process to end; its exit code, or -1 if it did not end within {@code seconds} (it is then killed). */
    public int waitFor(long seconds) throws InterruptedException {
        if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
            kill();
            return -1;
        }
        return process.exitValue();
    }

    /** Sends {@code signal} ({@code STOP}, {@code CONT}, ...) with {@code kill}: SIGSTOP freezes every thread until SIGCONT. */
    public void signal(String signal) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + signal, String.valueOf(pid())).redirectErrorStream(true).start();
        if (kill.waitFor() != 0) {
            throw new IllegalStateException("kill -" + signal + " " + pid() + " failed: " + new String(kill.getInputStream().readAllBytes()));
        }
    }

    /** What the process wrote to standard output (with standard error, for a process started with {@code log(...)}). */
    public String out() throws IOException {
        return Files.exists(stdout) ? Files.readString(stdout) : "";
    }

    /** What the process wrote to standard error; empty for a process started with {@code log(...)}. */
    public String err() throws IOException {
        return stderr != null && Files.exists(stderr) ? Files.readString(stderr) : "";
    }

    /** The last {@code chars} characters of each of its outputs, for a failing test's message; never throws. */
    public String tail(int chars) {
        try {
            String out = out();
            String err = err();
            return stderr == null ? last(out, chars) : "stdout:\n" + last(out, chars) + "\nstderr:\n" + last(err, chars);
        } catch (IOException e) {
            return "(no output: " + e + ")";
        }
    }

    private static String last(String s, int chars) {
        return s.substring(Math.max(0, s.length() - chars));
    }

    /**
     * Polls {@code done} every {@code poll} until it holds, at most {@code atMost}, with Awaitility; fails at once if the
     * process ends meanwhile. {@code done} runs on the caller's thread. Either failure says what it waited for, as {@code what} tells it then, and shows the output.
     */
    public void awaitWhileAlive(Supplier<String> what, Duration atMost, Duration poll, Callable<Boolean> done) {
        try {
            Awaitility.await().atMost(atMost).pollInterval(poll).pollDelay(Duration.ZERO).pollInSameThread().until(() -> {
                if (!alive()) {
                    throw new AssertionError("the process exited (" + exitValue() + ") while waiting for " + what.get() + "; its output:\n" + tail(8000));
                }
                return done.call();
            });
        } catch (ConditionTimeoutException e) {
            throw new AssertionError("waited " + atMost.toSeconds() + " s for " + what.get() + " in vain; its output:\n" + tail(8000), e);
        }
    }

    /** As {@link #awaitWhileAlive(Supplier, Duration, Duration, Callable)}, saying {@code what}. */
    public void awaitWhileAlive(String what, Duration atMost, Duration poll, Callable<Boolean> done) {
        awaitWhileAlive(() -> what, atMost, poll, done);
    }

    /** Kills the process and every process it started, and waits for it to end. */
    @Override
    public void close() throws InterruptedException {
        kill();
    }
}
