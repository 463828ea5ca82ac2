package io.tributary.compat.spark;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One bounded run of the Tributary distribution, as a user runs it: {@code bin/tributary run pipeline.yaml}
 * in a folder of its own, {@code trigger: availableNow}, the rows of one JSON Lines file in {@code in/}
 * upserted by {@code id} into a Delta table ({@code sink.delta.mode: upsert, keys: [id]}), with an embedded broker.
 */
final class TributaryUpsertRun {
    private final Path launcher;
    private final Path folder;

    /** A run of {@code launcher} ({@code bin/tributary}) in {@code folder}, which it creates. */
    TributaryUpsertRun(Path launcher, Path folder) {
        this.launcher = launcher;
        this.folder = folder;
    }

    /** Writes the spec for {@code table} and the input file of {@code lines}, placed as a finished file. */
    void prepare(Path table, List<String> lines) throws IOException {
        Files.createDirectories(folder.resolve("in"));
        Files.writeString(folder.resolve("pipeline.yaml"), String.join("\n",
                "name: race",
                "source:",
                "  files:",
                "    path: in/",
                "    format: json",
                "    schema: \"id INT, user STRING, amt DOUBLE\"",
                "sink:",
                "  delta:",
                "    path: " + table.toAbsolutePath() + "/",
                "    mode: upsert",
                "    keys: [id]",
                "trigger: availableNow",
                ""));
        Path input = folder.resolve("in").resolve("batch.json");
        Files.write(input, lines);
        // a file renamed into the folder a while ago: the run takes it at once
        Files.setLastModifiedTime(input, FileTime.from(Instant.now().minusSeconds(600)));
    }

    /** Runs it to its end (at most {@code minutes}); its output goes to {@code tributary.log} in the folder. */
    int run(long minutes) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(launcher.toString(), "run", "pipeline.yaml")
                .directory(folder.toFile())
                .redirectErrorStream(true)
                .redirectOutput(folder.resolve("tributary.log").toFile());
        pb.environment().put("TRIBUTARY_CDS", "off");
        Process p = pb.start();
        if (!p.waitFor(minutes, TimeUnit.MINUTES)) {
            p.destroyForcibly().waitFor();
            throw new IllegalStateException("tributary run in " + folder + " did not end within " + minutes + " minutes; see tributary.log");
        }
        return p.exitValue();
    }

    /** The last lines of the run's output. */
    String tail(int lines) throws IOException {
        List<String> all = Files.readAllLines(folder.resolve("tributary.log"));
        return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    }
}
