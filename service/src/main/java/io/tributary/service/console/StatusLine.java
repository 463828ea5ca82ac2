package io.tributary.service.console;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * One line at the bottom of a terminal, redrawn in place with {@code \r}, under the log lines that
 * keep scrolling above it: every write to stderr (logback's console appender looks
 * {@code System.err} up at each write) first blanks the line, and once a log line is complete the
 * line is drawn again.
 */
public final class StatusLine extends OutputStream {
    private final PrintStream terminal;
    private String shown = "";
    /** Whether the output of others ended with a newline (the status line then has the cursor's line). */
    private boolean othersAtLineStart = true;

    public StatusLine(PrintStream terminal) {
        this.terminal = terminal;
    }

    /** Makes this the process's stderr until {@link #finish}. */
    public static StatusLine install() {
        StatusLine line = new StatusLine(System.err);
        System.setErr(new PrintStream(line, true, StandardCharsets.UTF_8));
        return line;
    }

    /** Draws {@code text} in place of the line shown. */
    public synchronized void show(String text) {
        if (!othersAtLineStart) {
            return; // someone is half-way through a line; the next complete line brings the status back
        }
        String pad = " ".repeat(Math.max(0, shown.length() - text.length()));
        terminal.print("\r" + text + pad);
        terminal.flush();
        shown = text;
    }

    /** Leaves {@code text} as the last line, ends it, and gives stderr back. */
    public synchronized void finish(String text) {
        show(text);
        terminal.print("\n");
        terminal.flush();
        shown = "";
        if (System.err != terminal) {
            System.setErr(terminal);
        }
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public synchronized void write(byte[] b, int off, int len) {
        if (len == 0) {
            return;
        }
        if (othersAtLineStart && !shown.isEmpty()) {
            terminal.print("\r" + " ".repeat(shown.length()) + "\r");
        }
        terminal.write(b, off, len);
        othersAtLineStart = b[off + len - 1] == '\n';
        if (othersAtLineStart && !shown.isEmpty()) {
            terminal.print(shown);
        }
        terminal.flush();
    }

    @Override
    public void flush() {
        terminal.flush();
    }
}
