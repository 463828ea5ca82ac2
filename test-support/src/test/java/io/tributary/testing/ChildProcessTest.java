package io.tributary.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChildProcessTest {
    @TempDir
    Path dir;

    @Test
    void aChildJvmsOutputAndExitCodeAreTheTests() throws Exception {
        ChildProcess p = ChildProcess.command(ChildProcess.java(), "-version")
                .output(dir.resolve("out"), dir.resolve("err")).start();
        assertThat(p.waitFor(60)).isZero();
        assertThat(p.err()).contains("version");
        assertThat(p.out()).isEmpty();
    }

    @Test
    void aWaitOnAProcessThatEndedFailsAtOnceAndShowsItsOutput() throws Exception {
        ChildProcess p = ChildProcess.command("sh", "-c", "echo going away; exit 3").env("X", "1").log(dir.resolve("log")).start();
        assertThatThrownBy(() -> p.awaitWhileAlive("a line that never comes", Duration.ofMinutes(1), Duration.ofMillis(50), () -> false))
                .isInstanceOf(AssertionError.class).hasMessageContaining("exited (3)").hasMessageContaining("going away");
    }

    @Test
    void closeKillsTheProcessAndWhatItStarted() throws Exception {
        ChildProcess p = ChildProcess.command("sh", "-c", "sleep 600 & wait").log(dir.resolve("log")).start();
        p.awaitWhileAlive("its child", Duration.ofSeconds(30), Duration.ofMillis(50), () -> ProcessHandle.of(p.pid())
                .map(h -> h.children().findAny().isPresent()).orElse(false));
        ProcessHandle child = ProcessHandle.of(p.pid()).orElseThrow().children().findFirst().orElseThrow();
        p.close();
        assertThat(p.alive()).isFalse();
        assertThat(child.onExit().get().isAlive()).isFalse();
    }
}
