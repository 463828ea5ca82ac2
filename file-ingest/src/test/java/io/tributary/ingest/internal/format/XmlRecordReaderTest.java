package io.tributary.ingest.internal.format;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.ingest.FileFormat;
import io.tributary.schema.BadRecordException;
import io.tributary.schema.Schema;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a user sees of the xml format's records: their rows, the lines bad records name, a byte order mark and CRLF lines. */
class XmlRecordReaderTest {
    private static final Schema SCHEMA = Schema.parse("id BIGINT, name STRING");

    @Test
    void aBadValueFailsItsRecordAloneAtItsLine() throws Exception {
        List<String> got = read("\uFEFF<?xml version=\"1.0\"?>\r\n<rows>\r\n  <r><id>1</id><name>a</name></r>\r\n"
                + "  <r><id>two</id><name>b</name></r>\r\n\r\n  <r><id>3</id>\r\n    <name> c </name>\r\n  </r>\r\n</rows>\r\n");
        assertThat(got).containsExactly("3: [1, a]", "4: bad: malformed XML record: 'two' is not a BIGINT", "6: [3, c]");
    }

    @Test
    void textThatIsNotXmlEndsTheFileAsInSpark() throws Exception {
        List<String> got = read("<rows>\n<r><id>1</id></r>\n<r><id>2</name></r>\n<r><id>3</id></r>\n</rows>\n");
        assertThat(got).hasSize(2);
        assertThat(got.get(0)).isEqualTo("2: [1, null]");
        assertThat(got.get(1)).startsWith("3: bad: malformed XML record: the file is not XML from here on (the rest of it is not read)");
    }

    @Test
    void aCompressedFileCutShortIsADamagedFileNotABadRecord() throws Exception {
        java.io.ByteArrayOutputStream gz = new java.io.ByteArrayOutputStream();
        try (java.util.zip.GZIPOutputStream out = new java.util.zip.GZIPOutputStream(gz)) {
            StringBuilder xml = new StringBuilder("<rows>\n");
            for (int i = 0; i < 2000; i++) {
                xml.append("<r><id>").append(i).append("</id><name>n").append(i).append("</name></r>\n");
            }
            out.write(xml.append("</rows>\n").toString().getBytes(StandardCharsets.UTF_8));
        }
        byte[] cut = java.util.Arrays.copyOf(gz.toByteArray(), gz.size() / 2);
        RecordReaders readers = new RecordReaders(FileFormat.of("xml", Map.of("rowTag", "r")), SCHEMA, ZoneOffset.UTC, 1 << 20);
        int rows = 0;
        Throwable thrown = null;
        try (RawInput raw = new RawInput(new ByteArrayInputStream(cut)); RecordReader records = readers.open("a.xml.gz", raw, null)) {
            while (records.next()) {
                records.row();
                rows++;
            }
        } catch (java.io.IOException | RuntimeException e) {
            thrown = e;
        }
        assertThat(CorruptFileException.in(thrown)).as("thrown: %s", thrown).isNotNull();
        assertThat(CorruptFileException.in(thrown).codec()).isEqualTo("gzip");
        assertThat(rows).isBetween(1, 1999);
    }

    private static List<String> read(String file) throws Exception {
        RecordReaders readers = new RecordReaders(FileFormat.of("xml", Map.of("rowTag", "r")), SCHEMA, ZoneOffset.UTC, 1 << 20);
        byte[] bytes = file.getBytes(StandardCharsets.UTF_8);
        List<String> out = new ArrayList<>();
        try (RawInput raw = new RawInput(new ByteArrayInputStream(bytes));
             RecordReader records = readers.open("a.xml", raw, null)) {
            while (records.next()) {
                try {
                    out.add(records.line() + ": " + java.util.Arrays.toString(records.row()));
                } catch (BadRecordException b) {
                    out.add(records.line() + ": bad: " + b.getMessage());
                }
            }
            assertThat(raw.count()).as("every byte read").isEqualTo(bytes.length);
        }
        return out;
    }
}
