package io.tributary.service.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** When a bounded run draws its progress bar: only for a person at a terminal. */
class TerminalTest {
    @Test
    void theLaunchersAnswerDecides() {
        assertThat(Terminal.stderrIsTerminal(Map.of("TERM", "xterm-256color"), "true", false, false)).isTrue();
        assertThat(Terminal.stderrIsTerminal(Map.of("TERM", "xterm-256color"), "false", true, false))
                .as("stderr redirected, stdin and stdout still a terminal").isFalse();
    }

    @Test
    void withoutTheLauncherTheJvmsConsoleStandsIn() {
        assertThat(Terminal.stderrIsTerminal(Map.of(), null, true, false)).isTrue();
        assertThat(Terminal.stderrIsTerminal(Map.of(), null, false, false)).as("CI, a pipe, a container").isFalse();
    }

    @Test
    void aDumbTerminalAndJsonLogsNeverGetABar() {
        assertThat(Terminal.stderrIsTerminal(Map.of("TERM", "dumb"), "true", true, false)).isFalse();
        assertThat(Terminal.stderrIsTerminal(Map.of(), "true", true, true)).isFalse();
    }

    @Test
    void theWidthIsColumnsOrAHundred() {
        assertThat(Terminal.columns(Map.of("COLUMNS", "132"))).isEqualTo(132);
        assertThat(Terminal.columns(Map.of())).isEqualTo(100);
        assertThat(Terminal.columns(Map.of("COLUMNS", "x"))).isEqualTo(100);
    }
}
