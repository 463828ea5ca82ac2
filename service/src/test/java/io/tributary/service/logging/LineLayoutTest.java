package io.tributary.service.logging;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.LoggingEvent;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.schema.TributaryException;
import java.util.List;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;

/** A log shipper reads each JSON line as one object; a person reads the text line. */
class LineLayoutTest {
    private final LoggerContext context = new LoggerContext();

    private LoggingEvent event(String message, Throwable t) {
        return new LoggingEvent("x", context.getLogger("io.tributary.service.internal.Pipeline"), Level.WARN, message, t, null);
    }

    @Test
    void jsonLineIsOneObjectWithEscapedMessageAndStackTrace() throws Exception {
        String line = LineLayout.json(event("file \"in/a.json\"\nline 2\ttab", new IllegalStateException("boom")));
        assertThat(line).endsWith(System.lineSeparator());
        assertThat(line.strip()).doesNotContain("\n");
        JsonNode n = new ObjectMapper().readTree(line);
        assertThat(n.get("level").asText()).isEqualTo("WARN");
        assertThat(n.get("logger").asText()).isEqualTo("io.tributary.service.internal.Pipeline");
        assertThat(n.get("message").asText()).isEqualTo("file \"in/a.json\"\nline 2\ttab");
        assertThat(n.get("exception").asText()).contains("IllegalStateException: boom");
        assertThat(n.get("ts").asText()).matches("\\d{4}-\\d\\d-\\d\\dT.*Z");
    }

    @Test
    void textLineHasTimeLevelShortLoggerAndMessage() {
        assertThat(LineLayout.text(event("3 rows published", null)))
                .matches("\\d\\d:\\d\\d:\\d\\d\\.\\d{3} WARN Pipeline - 3 rows published\\R");
    }

    /** A file name with a line end and terminal escape codes stays inside its own line, escaped. */
    @Test
    void aFileNameCannotForgeATextLineNorDriveTheTerminal() {
        String name = "in/a.json\n10:15:30.123 ERROR Pipeline - forged\r\u001B[31mred\u009B2J\u007F\tend";
        String text = LineLayout.text(event("file " + name + ": 2 rows published", new IllegalStateException("cannot read " + name)));
        String escaped = "in/a.json\\n10:15:30.123 ERROR Pipeline - forged\\r\\x1B[31mred\\u009B2J\\x7F\\tend";
        List<String> lines = text.lines().filter(l -> !l.isEmpty()).toList();
        assertThat(lines.get(0)).endsWith(" WARN Pipeline - file " + escaped + ": 2 rows published");
        assertThat(lines.get(1)).isEqualTo("java.lang.IllegalStateException: cannot read " + escaped);
        assertThat(lines.subList(2, lines.size())).allMatch(l -> l.startsWith("\tat ") || l.startsWith("\t..."));
        assertThat(text).doesNotContain("\u001B", "\r", "\u009B", "\u007F");
    }

    @Test
    void formatIsTextOrJson() {
        assertThat(LogFormat.parse("json")).isEqualTo(LogFormat.JSON);
        assertThat(LogFormat.parse(" TEXT ")).isEqualTo(LogFormat.TEXT);
        Assertions.assertThatThrownBy(() -> LogFormat.parse("xml")).isInstanceOf(TributaryException.class).hasMessageContaining("text, json");
    }
}
