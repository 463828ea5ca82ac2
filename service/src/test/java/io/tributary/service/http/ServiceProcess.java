package io.tributary.service.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.testing.ChildProcess;
import io.tributary.testing.InputFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The distribution's {@code bin/tributary run} as a continuous service in a child process, with
 * its HTTP port on 127.0.0.1 (the port the log names), its progress records read from stdout and
 * files dropped into its input folder as producers should (written aside, then renamed in).
 */
final class ServiceProcess implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path BIN = Path.of("target", "dist", "bin", "tributary").toAbsolutePath();
    private static final Pattern SERVING = Pattern.compile("serving http://127\\.0\\.0\\.1:(\\d+)/");

    private final ChildProcess process;
    private final Path in;
    private final Path out;
    private final Path err;
    private final int port;

    private ServiceProcess(ChildProcess process, Path in, Path out, Path err) throws Exception {
        this.process = process;
        this.in = in;
        this.out = out;
        this.err = err;
        int[] found = {-1};
        await("the HTTP port in the log", () -> {
            Matcher m = SERVING.matcher(Files.exists(err) ? Files.readString(err) : "");
            if (m.find()) {
                found[0] = Integer.parseInt(m.group(1));
            }
            return found[0] > 0;
        });
        this.port = found[0];
    }

    /**
     * Starts {@code run SPEC --trigger default --set http.port=0} with {@code env} added to the
     * environment; the spec's input folder is {@code in/} beside it, the output files go beside it.
     */
    static ServiceProcess start(Path spec, Map<String, String> env) throws Exception {
        Path folder = spec.getParent();
        Files.createDirectories(folder.resolve("in"));
        Path out = folder.resolve("service.out");
        Path err = folder.resolve("service.err");
        ChildProcess p = ChildProcess.command(BIN.toString(), "run", spec.toString(), "--trigger", "default", "--set", "http.port=0")
                .output(out, err).env("JAVA_HOME", System.getProperty("java.home")).env(env).start();
        try {
            return new ServiceProcess(p, folder.resolve("in"), out, err);
        } catch (Exception | AssertionError e) {
            p.close();
            throw e;
        }
    }

    int port() {
        return port;
    }

    /** Writes a file aside and renames it in, then waits for the ingest batch that read it. */
    void drop(String ingestStage, String name, String... lines) throws Exception {
        int before = records(ingestStage).size();
        InputFiles.place(in, name, lines);
        await("the ingest batch of " + name, () -> records(ingestStage).stream().skip(before)
                .anyMatch(r -> r.at("/sources/0/metrics/files").toString().contains("\"" + name + "\"")));
    }

    /** The progress records the service printed so far, of one stage or (null) all. */
    List<JsonNode> records(String stage) {
        List<JsonNode> list = new ArrayList<>();
        String text;
        try {
            text = Files.readString(out);
        } catch (IOException e) {
            return list;
        }
        for (String line : text.split("\n")) {
            try {
                JsonNode n = JSON.readTree(line);
                if (n != null && n.has("batchId") && (stage == null || stage.equals(n.get("name").asText()))) {
                    list.add(n);
                }
            } catch (IOException e) {
                // a line being written
            }
        }
        return list;
    }

    /** The last progress record of a stage. */
    JsonNode last(String stage) {
        List<JsonNode> r = records(stage);
        assertThat(r).as("progress records of %s", stage).isNotEmpty();
        return r.get(r.size() - 1);
    }

    /** Polls {@code done} until it holds (at most 2 minutes); the service must stay up meanwhile. */
    void await(String what, Callable<Boolean> done) {
        await(() -> what, done);
    }

    /** As {@link #await(String, Callable)}, saying what it waited for as it stands when it gives up. */
    void await(Supplier<String> what, Callable<Boolean> done) {
        process.awaitWhileAlive(what, Duration.ofMinutes(2), Duration.ofMillis(200), done);
    }

    String stderr() throws IOException {
        return Files.exists(err) ? Files.readString(err) : "";
    }

    @Override
    public void close() throws InterruptedException {
        process.close();
    }
}
