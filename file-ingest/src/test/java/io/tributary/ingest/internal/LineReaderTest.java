package io.tributary.ingest.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

class LineReaderTest {

    /** One line as read: its number, text, problem and whether it had a line end. */
    record Line(long number, String text, LineReader.Problem problem, boolean unterminated, long fullLength) {
    }

    private static List<Line> read(byte[] input, int maxLineBytes) throws IOException {
        return read(new ByteArrayInputStream(input), maxLineBytes);
    }

    private static List<Line> read(InputStream in, int maxLineBytes) throws IOException {
        LineReader r = new LineReader(in, maxLineBytes, null);
        List<Line> out = new ArrayList<>();
        while (r.next()) {
            out.add(new Line(r.lineNumber(), new String(r.bytes(), r.start(), r.length(), StandardCharsets.UTF_8),
                    r.problem(), r.unterminated(), r.fullLength()));
        }
        return out;
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void crlfLineEndsAreReadLikeLf() throws IOException {
        assertThat(read(utf8("{\"a\":1}\r\n{\"a\":2}\r\n"), 1024)).extracting(Line::text)
                .containsExactly("{\"a\":1}", "{\"a\":2}");
    }

    @Test
    void byteOrderMarkAtTheStartIsDropped() throws IOException {
        byte[] bom = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
        byte[] body = utf8("{\"a\":1}\n{\"a\":2}\n");
        byte[] all = new byte[bom.length + body.length];
        System.arraycopy(bom, 0, all, 0, 3);
        System.arraycopy(body, 0, all, 3, body.length);
        List<Line> lines = read(all, 1024);
        assertThat(lines).extracting(Line::text).containsExactly("{\"a\":1}", "{\"a\":2}");
        assertThat(lines).extracting(Line::problem).containsOnly(LineReader.Problem.NONE);
    }

    @Test
    void blankLinesAreSkippedButCounted() throws IOException {
        List<Line> lines = read(utf8("\n{\"a\":1}\n   \n\t\r\n{\"a\":2}\n\n"), 1024);
        assertThat(lines).extracting(Line::text).containsExactly("{\"a\":1}", "{\"a\":2}");
        assertThat(lines).extracting(Line::number).containsExactly(2L, 5L);
    }

    @Test
    void emptyInputHasNoLines() throws IOException {
        assertThat(read(new byte[0], 1024)).isEmpty();
    }

    @Test
    void lastLineWithoutLineEndIsReadAndFlagged() throws IOException {
        List<Line> lines = read(utf8("{\"a\":1}\n{\"a\":"), 1024);
        assertThat(lines).extracting(Line::text).containsExactly("{\"a\":1}", "{\"a\":");
        assertThat(lines).extracting(Line::unterminated).containsExactly(false, true);
    }

    @Test
    void lineLongerThanTheLimitIsReportedAndTheNextLinesGoOn() throws IOException {
        String longLine = "{\"a\":\"" + "x".repeat(500) + "\"}";
        List<Line> lines = read(utf8("{\"a\":1}\n" + longLine + "\n{\"a\":3}\n"), 100);
        assertThat(lines).extracting(Line::number).containsExactly(1L, 2L, 3L);
        assertThat(lines.get(1).problem()).isEqualTo(LineReader.Problem.TOO_LONG);
        assertThat(lines.get(1).fullLength()).isEqualTo(longLine.length());
        assertThat(longLine).startsWith(lines.get(1).text());
        assertThat(lines.get(2).text()).isEqualTo("{\"a\":3}");
        assertThat(lines.get(2).problem()).isEqualTo(LineReader.Problem.NONE);
    }

    @Test
    void lineOfExactlyTheLimitIsAccepted() throws IOException {
        String line = "x".repeat(100);
        List<Line> lines = read(utf8(line + "\n" + line), 100);
        assertThat(lines).extracting(Line::problem).containsOnly(LineReader.Problem.NONE);
        assertThat(lines).extracting(Line::text).containsExactly(line, line);
    }

    @Test
    void overLongLastLineWithoutLineEnd() throws IOException {
        List<Line> lines = read(utf8("{\"a\":1}\n" + "y".repeat(1000)), 100);
        assertThat(lines).hasSize(2);
        assertThat(lines.get(1).problem()).isEqualTo(LineReader.Problem.TOO_LONG);
        assertThat(lines.get(1).fullLength()).isEqualTo(1000);
    }

    @Test
    void invalidUtf8IsFlaggedWithItsPlace() throws IOException {
        byte[] input = {'{', '"', 'a', '"', ':', '"', (byte) 0xC3, '(', '"', '}', '\n', '{', '}', '\n'};
        LineReader r = new LineReader(new ByteArrayInputStream(input), 1024, null);
        assertThat(r.next()).isTrue();
        assertThat(r.problem()).isEqualTo(LineReader.Problem.INVALID_UTF8);
        assertThat(r.invalidAt()).isEqualTo(6);
        assertThat(r.next()).isTrue();
        assertThat(r.problem()).isEqualTo(LineReader.Problem.NONE);
        assertThat(r.next()).isFalse();
    }

    @Test
    void validMultiByteUtf8IsAccepted() throws IOException {
        List<Line> lines = read(utf8("{\"u\":\"héllo wörld €𝄞\"}\n"), 1024);
        assertThat(lines).extracting(Line::problem).containsOnly(LineReader.Problem.NONE);
        assertThat(lines.get(0).text()).contains("€𝄞");
    }

    @Test
    void overlongEncodingsAndSurrogatesAreInvalid() {
        assertThat(Utf8.firstInvalid(new byte[] {(byte) 0xC0, (byte) 0x80}, 0, 2)).isZero();
        assertThat(Utf8.firstInvalid(new byte[] {'a', (byte) 0xED, (byte) 0xA0, (byte) 0x80}, 0, 4)).isEqualTo(1);
        assertThat(Utf8.firstInvalid(new byte[] {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}, 0, 4)).isZero();
        assertThat(Utf8.firstInvalid(new byte[] {'a', 'b', (byte) 0xE2, (byte) 0x82}, 0, 4)).isEqualTo(2);
        assertThat(Utf8.firstInvalid(utf8("€"), 0, 3)).isEqualTo(-1);
    }

    @Test
    void linesAcrossManySmallReadsAreWhole() throws IOException {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 2000; i++) {
            sb.append("{\"id\":").append(i).append(",\"pad\":\"").append("p".repeat(i % 97)).append("\"}\n");
        }
        InputStream trickle = new ByteArrayInputStream(utf8(sb.toString())) {
            @Override
            public synchronized int read(byte[] b, int off, int len) {
                return super.read(b, off, Math.min(len, 7));
            }
        };
        List<Line> lines = read(trickle, 1024);
        assertThat(lines).hasSize(2000);
        assertThat(lines.get(1999).text()).startsWith("{\"id\":1999,");
        assertThat(lines).extracting(Line::problem).containsOnly(LineReader.Problem.NONE);
    }

    @Test
    void bufferGrowsForLongLinesUpToTheLimit() throws IOException {
        String big = "z".repeat(200_000);
        List<Line> lines = read(utf8("a\n" + big + "\nb\n"), 300_000);
        assertThat(lines).extracting(Line::text).containsExactly("a", big, "b");
    }

    @Test
    void digestCoversEveryByteRead() throws Exception {
        byte[] input = utf8("{\"a\":1}\r\n\n{\"a\":2}");
        MessageDigest d = MessageDigest.getInstance("SHA-256");
        LineReader r = new LineReader(new ByteArrayInputStream(input), 1024, d);
        while (r.next()) {
            // read all
        }
        assertThat(r.bytesRead()).isEqualTo(input.length);
        assertThat(HexFormat.of().formatHex(d.digest()))
                .isEqualTo(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(input)));
    }
}
