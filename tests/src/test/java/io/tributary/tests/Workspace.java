package io.tributary.tests;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.service.Main;
import io.tributary.testing.InputFiles;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;

/**
 * A pipeline folder as a user has it (spec, in/, the table) and the {@code tributary} command
 * run on it in this JVM, as a user would type it.
 */
final class Workspace {
    private static final ObjectMapper JSON = new ObjectMapper();

    final Path dir;
    final Path spec;
    /** The modification time of the last file {@link #addFileInOrder} added, in milliseconds since the epoch. */
    private long lastModified = 1_000_000_000_000L;

    Workspace(Path dir, String specYaml) {
        this.dir = dir;
        this.spec = dir.resolve("pipeline.yaml");
        try {
            Files.createDirectories(dir.resolve("in"));
            Files.writeString(spec, specYaml);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Drops a JSON-lines file into in/, written under a dot-name and renamed (the atomic-rename
     * convention), last modified a while before the rename as such a file is ({@link InputFiles}).
     */
    Path addFile(String name, String... lines) {
        return InputFiles.place(dir.resolve("in"), name, lines);
    }

    /**
     * As {@link #addFile}, last modified a second after the file added before it this way (the first at
     * 2001-09-09): the files are listed in the order they were added, oldest first, as Spark read them.
     */
    Path addFileInOrder(String name, String... lines) {
        Path file = addFile(name, lines);
        if (!file.toFile().setLastModified(lastModified += 1000)) {
            throw new IllegalStateException("cannot set the modification time of " + file);
        }
        return file;
    }

    /** Copies {@code file} into in/ under its own name, as a file put there a while after it was written. */
    Path copyIn(Path file) {
        try {
            return InputFiles.settled(Files.copy(file, dir.resolve("in").resolve(file.getFileName().toString())));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Runs {@code tributary <args>} with the spec as last argument. */
    Result tributary(String command, String... args) {
        List<String> all = new ArrayList<>(List.of(command.split(" ")));
        all.add(spec.toString());
        all.addAll(List.of(args));
        return tributaryRaw(all.toArray(String[]::new));
    }

    /** Runs {@code tributary <args>} as given, without the spec. */
    Result tributaryRaw(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = Main.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute(args);
        return new Result(code, out.toString(), err.toString());
    }

    record Result(int exitCode, String out, String err) {
        /** The progress lines of one stage ({@code quickstart/sink}). */
        List<JsonNode> progress(String stage) {
            List<JsonNode> lines = new ArrayList<>();
            for (String line : out.split("\n")) {
                JsonNode n = parse(line);
                if (n != null && stage.equals(n.path("name").asText())) {
                    lines.add(n);
                }
            }
            return lines;
        }

        JsonNode summary() {
            for (String line : out.split("\n")) {
                JsonNode n = parse(line);
                if (n != null && n.has("summary")) {
                    return n.get("summary");
                }
            }
            throw new AssertionError("no summary line in:\n" + out + "\nstderr:\n" + err);
        }

        Result assertOk() {
            assertThat(exitCode).as("exit code; stderr:\n%s", err).isZero();
            return this;
        }

        private static JsonNode parse(String line) {
            if (!line.startsWith("{")) {
                return null;
            }
            try {
                return JSON.readTree(line);
            } catch (IOException e) {
                return null;
            }
        }
    }
}
