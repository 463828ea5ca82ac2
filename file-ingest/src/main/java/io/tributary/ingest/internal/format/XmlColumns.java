package io.tributary.ingest.internal.format;

import io.tributary.expressions.XmlInput;
import io.tributary.ingest.IngestConfig;
import io.tributary.ingest.internal.FileDiscovery;
import io.tributary.ingest.internal.FileStat;
import io.tributary.schema.DataType;
import io.tributary.schema.Field;
import java.io.IOException;
import java.io.InputStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The columns of XML files as Spark's XML inference finds them ({@code XmlInferSchema}): every record of the {@code rowTag}
 * typed by the expressions module's {@link XmlInput} (as {@code schema_of_xml} types one) and the types merged, columns
 * sorted by name. Text that is not XML adds nothing and ends its file (Spark adds a {@code _corrupt_record} column for it;
 * Tributary sends the record to the dead-letter topic when it reads it). Every record is read, whatever
 * {@code samplingRatio} says.
 */
final class XmlColumns {
    private XmlColumns() {
    }

    static Map<String, DataType> columns(IngestConfig config, FileDiscovery discovery, List<FileStat> files) throws IOException {
        XmlInput xml = config.format().xmlInput();
        for (FileStat f : files) {
            try (InputStream in = Compression.decompress(f.relPath(), discovery.open(f))) {
                XmlInput.Records records = xml.records(XmlRecordReader.reader(in));
                while (records.next()) {
                    records.infer();
                }
            } catch (java.io.UncheckedIOException e) {
                throw e.getCause(); // a file that cannot be read, as a compressed one cut short
            }
        }
        Map<String, DataType> columns = new LinkedHashMap<>();
        for (Field f : xml.inferred()) {
            columns.put(f.name(), f.type());
        }
        return columns;
    }
}
