package io.tributary.ingest.internal.format;

import io.tributary.ingest.FileFormat;
import io.tributary.ingest.IngestConfig;
import io.tributary.ingest.internal.FileDiscovery;
import io.tributary.ingest.internal.FileStat;
import io.tributary.schema.CsvTypes;
import io.tributary.schema.CsvValues;
import io.tributary.schema.DataType;
import io.tributary.schema.Field;
import io.tributary.schema.Schema;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The columns of CSV files: named by the header ({@code _c0}, {@code _c1}... without one) and
 * STRING unless {@code inferSchema}, then INT, BIGINT, DECIMAL(n, 0), DOUBLE, DATE, TIMESTAMP,
 * BOOLEAN or STRING, as Spark's CSV inference.
 */
final class CsvColumns {
    private CsvColumns() {
    }

    static Map<String, DataType> columns(IngestConfig config, FileDiscovery discovery, List<FileStat> files) throws IOException {
        FileFormat format = config.format();
        boolean typed = format.flag("inferschema", false);
        boolean header = format.flag("header", false);
        TimeFormats times = format.times(config.timeZone());
        String nullValue = format.option("nullvalue", "");
        List<String> names = new ArrayList<>();
        List<DataType> types = new ArrayList<>();
        Schema placeholder = new Schema(List.of(new Field("value", DataType.STRING, true)));
        for (FileStat f : files) {
            try (InputStream in = Compression.decompress(f.relPath(), discovery.open(f));
                 CsvReader reader = new CsvReader(in, FileFormat.of("csv", withoutHeader(format)),
                         new CsvValues(placeholder, times, key -> format.option(key, null)), config.maxLineBytes(), null)) {
                boolean first = true;
                while (reader.next()) {
                    String[] tokens = reader.tokens();
                    if (tokens == null) {
                        continue;
                    }
                    if (first && header) {
                        first = false;
                        if (names.isEmpty()) {
                            for (int i = 0; i < tokens.length; i++) {
                                names.add(tokens[i] == null || tokens[i].isBlank() ? "_c" + i : tokens[i].strip());
                            }
                        }
                        continue;
                    }
                    first = false;
                    for (int i = 0; i < tokens.length; i++) {
                        while (types.size() <= i) {
                            types.add(null);
                        }
                        String t = tokens[i];
                        if (t != null && !t.equals(nullValue)) {
                            types.set(i, CsvTypes.merge(types.get(i), typed ? CsvTypes.of(t, times, times.isDefault()) : DataType.STRING));
                        }
                    }
                }
            }
        }
        Map<String, DataType> out = new LinkedHashMap<>();
        int n = Math.max(names.size(), types.size());
        for (int i = 0; i < n; i++) {
            String name = i < names.size() ? names.get(i) : "_c" + i;
            DataType t = i < types.size() ? types.get(i) : null;
            out.putIfAbsent(name, t == null ? DataType.STRING : t);
        }
        return out;
    }

    private static Map<String, String> withoutHeader(FileFormat format) {
        Map<String, String> o = new LinkedHashMap<>(format.options());
        o.remove("header");
        o.remove("inferschema");
        return o;
    }
}
