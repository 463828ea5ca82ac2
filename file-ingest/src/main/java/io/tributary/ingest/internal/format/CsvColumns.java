package io.tributary.ingest.internal.format;

import io.tributary.ingest.FileFormat;
import io.tributary.ingest.IngestConfig;
import io.tributary.ingest.internal.FileDiscovery;
import io.tributary.ingest.internal.FileStat;
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
                 CsvReader reader = new CsvReader(in, FileFormat.of("csv", withoutHeader(format)), new CsvValues(placeholder, format, times),
                         config.maxLineBytes())) {
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
                            types.set(i, mergeCsv(types.get(i), typed ? csvType(t, times) : DataType.STRING));
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

    private static final java.util.regex.Pattern BIG_INTEGER = java.util.regex.Pattern.compile("[+-]?\\d+");
    private static final java.util.regex.Pattern ISO_DATE = java.util.regex.Pattern.compile("\\d{4}-\\d{1,2}-\\d{1,2}");

    /** Spark's CSV inference of one value: INT, BIGINT, DOUBLE, DATE, TIMESTAMP, BOOLEAN, else STRING. */
    static DataType csvType(String t, TimeFormats times) {
        try {
            Integer.parseInt(t);
            return DataType.INT;
        } catch (NumberFormatException e) {
            // wider
        }
        try {
            Long.parseLong(t);
            return DataType.LONG;
        } catch (NumberFormatException e) {
            // wider
        }
        if (BIG_INTEGER.matcher(t).matches()) {
            int digits = t.replaceFirst("^[+-]?0*", "").length();
            return digits <= 38 ? DataType.decimal(Math.max(digits, 1), 0) : DataType.DOUBLE; // Spark: DECIMAL(n, 0) past BIGINT
        }
        try {
            Double.parseDouble(t);
            return DataType.DOUBLE;
        } catch (NumberFormatException e) {
            // not a number
        }
        if (t.equalsIgnoreCase("true") || t.equalsIgnoreCase("false")) {
            return DataType.BOOLEAN;
        }
        if (times.isDefault() ? ISO_DATE.matcher(t).matches() && times.days(t) != null : times.days(t) != null) {
            return DataType.DATE; // Spark's prefersDate: a date before a timestamp
        }
        if (t.length() >= 10 && times.micros(t, true) != null) {
            return DataType.TIMESTAMP;
        }
        return DataType.STRING;
    }

    private static DataType mergeCsv(DataType a, DataType b) {
        if (a == null || a.equals(b)) {
            return b;
        }
        if (isNumber(a) && isNumber(b)) {
            if (a.kind() == DataType.Kind.DOUBLE || b.kind() == DataType.Kind.DOUBLE) {
                return DataType.DOUBLE;
            }
            if (a.kind() != DataType.Kind.DECIMAL && b.kind() != DataType.Kind.DECIMAL) {
                return DataType.LONG;
            }
            int digits = Math.max(integerDigits(a), integerDigits(b));
            return digits > 38 ? DataType.DOUBLE : DataType.decimal(digits, 0);
        }
        boolean times = (a.kind() == DataType.Kind.DATE || a.kind() == DataType.Kind.TIMESTAMP)
                && (b.kind() == DataType.Kind.DATE || b.kind() == DataType.Kind.TIMESTAMP);
        if (times) {
            return DataType.TIMESTAMP; // Spark: a date column with a timestamp in it is a timestamp column
        }
        return DataType.STRING;
    }

    private static boolean isNumber(DataType t) {
        return switch (t.kind()) {
            case INT, LONG, DOUBLE, DECIMAL -> true;
            default -> false;
        };
    }

    private static int integerDigits(DataType t) {
        return switch (t.kind()) {
            case INT -> 10;
            case LONG -> 20;
            default -> t.precision() - t.scale();
        };
    }
}
