package io.tributary.service;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import picocli.CommandLine;

/** One command of the CLI run in this JVM as a user runs it: its exit code and what it printed on stdout and stderr. */
record CliRun(int code, String out, String err) {
    static CliRun of(String... args) {
        CommandLine cl = Main.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int code = cl.execute(args);
        return new CliRun(code, out.toString(), err.toString());
    }

    /** The lines on stdout. */
    List<String> lines() {
        return out.strip().lines().toList();
    }

    /** The one line on stderr (the test fails when there are more). */
    String line() {
        List<String> lines = err.strip().lines().toList();
        assertThat(lines).as("stderr is one line:\n%s", err).hasSize(1);
        return lines.get(0);
    }
}
