package io.tributary.service;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.testing.Specs;
import io.tributary.testing.InputFiles;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * A spec the run cannot use stops {@code tributary run} at start: exit 1, one line on stderr,
 * no broker started, no state folder, no table, no row sent.
 */
class SpecErrorsAtStartTest {
    static final String SPEC = Specs.quickstart("t");

    @TempDir
    Path dir;

    private String runFailing(String yaml, String... args) throws IOException {
        Files.createDirectories(dir.resolve("in"));
        InputFiles.place(dir.resolve("in"), "a.json", "{\"id\": 1, \"user\": \"a\", \"amt\": 1.0, \"ts\": \"2026-10-05T10:01:00Z\"}");
        Path spec = dir.resolve("pipeline.yaml");
        Files.writeString(spec, yaml);
        CommandLine cl = Main.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        String[] all = new String[args.length + 2];
        all[0] = "run";
        all[1] = spec.toString();
        System.arraycopy(args, 0, all, 2, args.length);
        int code = cl.execute(all);
        assertThat(code).as("exit code; stderr: %s", err).isEqualTo(1);
        assertThat(out.toString()).as("stdout").isEmpty();
        assertThat(err.toString().lines().toList()).as("stderr").hasSize(1);
        assertThat(dir.resolve(".tributary")).as("no state folder").doesNotExist();
        return err.toString().strip();
    }

    @Test
    void anHttpPortOutOfRange() throws IOException {
        assertThat(runFailing(SPEC, "--set", "http.port=70000"))
                .startsWith("tributary: error: --set http.port: key 'http.port' is '70000'").contains("65535");
    }

    @Test
    void aSinkPathThatIsAFile() throws IOException {
        Files.writeString(dir.resolve("out"), "not a table");
        assertThat(runFailing(SPEC)).startsWith("tributary: error: ").contains("sink.delta.path").contains(dir.resolve("out").toString());
        assertThat(dir.resolve("out")).hasContent("not a table");
    }

    @Test
    void aYamlSyntaxError() throws IOException {
        assertThat(runFailing(SPEC.replace("    format: json", "   format: json"))).startsWith("tributary: error: ").contains("line 5, column 4");
    }

    @Test
    void anEmptySpec() throws IOException {
        assertThat(runFailing("# nothing yet\n")).startsWith("tributary: error: ").contains("the spec is empty");
    }
}
