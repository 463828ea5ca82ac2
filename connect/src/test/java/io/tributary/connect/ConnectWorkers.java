package io.tributary.connect;

import io.tributary.broker.LoopbackPorts;
import io.tributary.testing.ChildProcess;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

/**
 * Real Kafka Connect workers in distributed mode, each a child JVM started through Connect's own
 * entry point ({@code org.apache.kafka.connect.cli.ConnectDistributed}) with the plugin zip
 * unpacked into its {@code plugin.path}; their classpath is connect-runtime's jars only, so the
 * connectors come from the plugin's own lib/ as on any worker. REST on 127.0.0.1.
 */
final class ConnectWorkers implements AutoCloseable {
    /** The classpath entries a worker must not see: the plugin's own classes and libraries come from plugin.path. */
    private static final List<String> NOT_ON_WORKER = List.of("/target/", "/io/tributary/", "/io/delta/",
            "/org/apache/hadoop/", "/org/apache/parquet/", "/org/junit/", "/org/assertj/", "/org/opentest4j/", "/org/apiguardian/",
            "/org/scala-lang/", "/kafka_2.13/", "/kafka-server/", "/kafka-raft/", "/kafka-metadata/", "/kafka-storage", "coordinator",
            "surefire", "failsafe", "/net/bytebuddy/", "/org/awaitility/", "/org/hamcrest/");
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final Path dir;
    private final Path pluginPath;
    private final String bootstrap;
    private final String group = "connect-" + UUID.randomUUID().toString().substring(0, 8);
    private final List<Worker> workers = new ArrayList<>();
    private final List<String> jvmOptions;

    /**
     * The tests' worker JVM: a small heap, the serial collector and C1 only (a worker of a test lives
     * for a minute; C2 would compile more than it runs), as three workers share two cores with the broker.
     */
    static final List<String> TEST_JVM = List.of("-Xmx512m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");

    private final class Worker {
        final int index;
        final int port;
        final Path config;
        final Path log;
        ChildProcess process;

        Worker(int index) throws IOException {
            this.index = index;
            this.port = LoopbackPorts.stable(1)[0]; // kept when the worker starts again
            this.config = dir.resolve("worker-" + index + ".properties");
            this.log = dir.resolve("worker-" + index + ".log");
            Files.writeString(config, String.join("\n",
                    "bootstrap.servers=" + bootstrap,
                    "group.id=" + group,
                    "config.storage.topic=" + group + "-configs",
                    "offset.storage.topic=" + group + "-offsets",
                    "status.storage.topic=" + group + "-status",
                    "config.storage.replication.factor=1",
                    "offset.storage.replication.factor=1",
                    "status.storage.replication.factor=1",
                    "offset.storage.partitions=3",
                    "status.storage.partitions=1",
                    "key.converter=org.apache.kafka.connect.storage.StringConverter",
                    "value.converter=org.apache.kafka.connect.storage.StringConverter",
                    "exactly.once.source.support=enabled",
                    // Kafka's advice for every consumer of an exactly-once source: read only committed transactions
                    "consumer.isolation.level=" + System.getProperty("connect.it.isolation", "read_committed"),
                    "listeners=http://127.0.0.1:" + port,
                    "rest.advertised.host.name=127.0.0.1",
                    "rest.advertised.port=" + port,
                    "plugin.path=" + pluginPath,
                    // the plugins (this one and the worker's own) declare themselves: no scan of every jar (minutes on a small host)
                    "plugin.discovery=service_load",
                    // test pace: offsets (and the sink's commits) every 2 s, a dead worker's tasks and partitions moved within 10 s
                    "offset.flush.interval.ms=2000",
                    "scheduled.rebalance.max.delay.ms=5000",
                    "consumer.session.timeout.ms=10000",
                    "task.shutdown.graceful.timeout.ms=10000",
                    ""));
        }

        void start() throws IOException {
            List<String> cmd = new ArrayList<>(List.of(ChildProcess.java(),
                    "-Djava.net.preferIPv4Stack=true",
                    "-Dorg.slf4j.simpleLogger.showDateTime=true",
                    "-Dorg.slf4j.simpleLogger.log.org.apache.kafka.clients=warn",
                    "-Dorg.slf4j.simpleLogger.log.org.apache.kafka.common=warn",
                    "-Dorg.slf4j.simpleLogger.log.org.reflections=warn",
                    "-cp", workerClasspath(), "org.apache.kafka.connect.cli.ConnectDistributed", config.toString()));
            cmd.addAll(1, jvmOptions);
            String extra = System.getProperty("connect.worker.jvmArgs", "").replace("{index}", String.valueOf(index));
            if (!extra.isBlank()) {
                cmd.addAll(1, Arrays.asList(extra.trim().split("\\s+"))); // e.g. a flight recording of the worker
            }
            process = ChildProcess.command(cmd).log(log).start();
        }

        String url() {
            return "http://127.0.0.1:" + port;
        }
    }

    ConnectWorkers(Path dir, String bootstrap, Path pluginZip, int count) throws IOException {
        this(dir, bootstrap, pluginZip, count, TEST_JVM);
    }

    ConnectWorkers(Path dir, String bootstrap, Path pluginZip, int count, List<String> jvmOptions) throws IOException {
        this.jvmOptions = List.copyOf(jvmOptions);
        this.dir = Files.createDirectories(dir);
        this.bootstrap = bootstrap;
        this.pluginPath = Files.createDirectories(dir.resolve("plugins"));
        unzip(pluginZip, pluginPath);
        for (int i = 0; i < count; i++) {
            workers.add(new Worker(i));
        }
        // a test JVM stopped early must not leave workers behind
        Runtime.getRuntime().addShutdownHook(new Thread(() -> workers.forEach(w -> {
            if (w.process != null) {
                ProcessHandle.of(w.process.pid()).ifPresent(ProcessHandle::destroyForcibly);
            }
        })));
        for (Worker w : workers) {
            w.start();
        }
        for (int i = 0; i < workers.size(); i++) {
            try {
                awaitRest(workers.get(i));
            } catch (AssertionError e) {
                if (!String.valueOf(e.getMessage()).contains("Address already in use")) {
                    throw e;
                }
                // another test's server took the port between its choice and the worker's bind: once more on a new port
                Worker again = new Worker(i);
                workers.set(i, again);
                again.start();
                awaitRest(again);
            }
        }
    }

    /** The plugin zip the build made: target/tributary-connect-*.zip. */
    static Path pluginZip() throws IOException {
        try (var s = Files.list(Path.of("target"))) {
            return s.filter(p -> p.getFileName().toString().matches("tributary-connect-.*\\.zip")).findFirst()
                    .orElseThrow(() -> new IllegalStateException("no plugin zip in target/: run the package phase first"))
                    .toAbsolutePath();
        }
    }

    int size() {
        return workers.size();
    }

    String url(int i) {
        return workers.get(i).url();
    }

    /** Stops worker {@code i} (SIGTERM, Connect's clean shutdown; or SIGKILL with {@code hard}) and starts it again on the same port. */
    void restart(int i, boolean hard) throws IOException, InterruptedException {
        Worker w = workers.get(i);
        if (hard) {
            w.process.kill();
        } else {
            w.process.stop(60);
        }
        w.start();
        awaitRest(w);
    }

    /** Kills every worker at once (SIGKILL: the whole cluster crashes), then starts them all again on their ports. */
    void killAllAndRestart() throws IOException, InterruptedException {
        for (Worker w : workers) {
            w.process.kill();
        }
        for (Worker w : workers) {
            w.start();
        }
        for (Worker w : workers) {
            awaitRest(w);
        }
    }

    /** Freezes worker {@code i} (SIGSTOP): none of its threads runs, nothing it has open moves on, until {@link #resume}. */
    void suspend(int i) throws IOException, InterruptedException {
        signal(i, "STOP");
    }

    /** Lets a frozen worker run again (SIGCONT). */
    void resume(int i) throws IOException, InterruptedException {
        signal(i, "CONT");
    }

    private void signal(int i, String signal) throws IOException, InterruptedException {
        workers.get(i).process.signal(signal);
    }

    private void awaitRest(Worker w) {
        w.process.awaitWhileAlive("worker " + w.index + " to answer on " + w.url(), Duration.ofSeconds(300), Duration.ofMillis(250), () -> {
            try {
                return HTTP.send(HttpRequest.newBuilder(URI.create(w.url() + "/connectors")).timeout(Duration.ofSeconds(5))
                        .GET().build(), HttpResponse.BodyHandlers.ofString()).statusCode() == 200;
            } catch (IOException e) {
                return false; // not listening yet
            }
        });
    }

    /** A REST call on worker 0 (any worker forwards to the leader): status code and body. */
    HttpResponse<String> call(String method, String path, String json) throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url(0) + path)).timeout(Duration.ofSeconds(60))
                .header("Content-Type", "application/json");
        b.method(method, json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json));
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The last lines of each worker's log, for a failing test's message. */
    String logs() {
        return workers.stream().map(w -> "--- worker " + w.index + "\n" + tail(w.log)).collect(Collectors.joining("\n"));
    }

    /** How many lines of all workers' logs contain {@code text}. */
    long logLines(String text) {
        long n = 0;
        for (Worker w : workers) {
            try (var lines = Files.lines(w.log)) {
                n += lines.filter(l -> l.contains(text)).count();
            } catch (IOException | java.io.UncheckedIOException e) {
                // no log yet
            }
        }
        return n;
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    @Override
    public void close() {
        for (Worker w : workers) {
            if (w.process != null) {
                w.process.destroyGently();
            }
        }
        for (Worker w : workers) {
            try {
                if (w.process != null) {
                    w.process.waitFor(30);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static String workerClasspath() {
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        return Arrays.stream(cp.split(File.pathSeparator))
                .filter(e -> NOT_ON_WORKER.stream().noneMatch(e.replace(File.separatorChar, '/')::contains))
                .collect(Collectors.joining(File.pathSeparator));
    }

    private static void unzip(Path zip, Path into) throws IOException {
        try (ZipInputStream in = new ZipInputStream(Files.newInputStream(zip))) {
            for (ZipEntry e = in.getNextEntry(); e != null; e = in.getNextEntry()) {
                Path target = into.resolve(e.getName()).normalize();
                if (!target.startsWith(into)) {
                    throw new IOException("zip entry outside the folder: " + e.getName());
                }
                if (e.isDirectory()) {
                    Files.createDirectories(target);
                } else {
                    Files.createDirectories(target.getParent());
                    Files.copy(in, target);
                    in.closeEntry();
                }
            }
        }
    }
}
