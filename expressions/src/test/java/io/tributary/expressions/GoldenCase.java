package io.tributary.expressions;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.schema.DataType;
import io.tributary.schema.RowJson;
import io.tributary.schema.Schema;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One golden expression case Spark 4.2 recorded ({@code golden/expressions/spark.tsv}, written by
 * compat/spark's {@code SparkExpressions}): the expression over one input row, Spark's result type
 * ({@code !} when Spark refused it at analysis) and value as canonical text ({@code !CONDITION} when the row failed).
 */
record GoldenCase(int row, String expression, String type, String value) {
    static final Schema SCHEMA;
    static final List<Object[]> ROWS = new ArrayList<>();
    static final List<GoldenCase> CASES = new ArrayList<>();

    static {
        try {
            SCHEMA = Schema.parse(new ObjectMapper().readTree(read("case.json")).get("schema").asText());
            RowJson json = new RowJson(SCHEMA);
            for (String line : read("rows.jsonl").split("\n")) {
                if (!line.isBlank()) {
                    ROWS.add(json.parse(line));
                }
            }
            for (String line : read("spark.tsv").split("\n")) {
                String[] f = line.split("\t", -1);
                CASES.add(new GoldenCase(Integer.parseInt(f[0]), unescape(f[1]), f[2], f[3]));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String read(String name) throws IOException {
        try (InputStream in = GoldenCase.class.getClassLoader().getResourceAsStream("golden/expressions/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    boolean refusedBySpark() {
        return type.equals("!");
    }

    /** The Spark error class when the row failed, else null. */
    String failure() {
        return value.startsWith("!") ? value.substring(1) : null;
    }

    Object[] input() {
        return ROWS.get(row);
    }

    @Override
    public String toString() {
        return "row " + row + ": " + expression;
    }

    static String escape(String s) {
        String e = s.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r");
        return e.startsWith("!") ? "\\" + e : e;
    }

    static String unescape(String s) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 1 < s.length()) {
                char n = s.charAt(++i);
                sb.append(switch (n) {
                    case 't' -> '\t';
                    case 'n' -> '\n';
                    case 'r' -> '\r';
                    default -> n;
                });
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    /** A value as SparkExpressions writes Spark's: the same text for the same value. */
    static String canonical(Object v, DataType type) {
        if (v == null) {
            return "\\N";
        }
        if (type == null) {
            return String.valueOf(v);
        }
        if (io.tributary.expressions.internal.Variants.isVariant(type)) {
            return escape(io.tributary.expressions.internal.Variants.json(v));
        }
        if (io.tributary.expressions.internal.CalendarIntervals.isCalendar(type)) {
            return v.toString(); // Spark's text of a CALENDAR INTERVAL: 1 years 2 months 3 days 4.5 seconds
        }
        if (io.tributary.expressions.internal.Intervals.isInterval(type)) {
            return io.tributary.expressions.internal.Intervals.canonical(v, type);
        }
        if (io.tributary.expressions.internal.Times.isTime(type)) {
            return java.time.LocalTime.ofNanoOfDay((Long) v).toString();
        }
        return switch (type.kind()) {
            case STRING -> escape((String) v);
            case DECIMAL -> ((BigDecimal) v).toPlainString();
            case DATE -> LocalDate.ofEpochDay((Integer) v).toString();
            case BINARY -> {
                StringBuilder sb = new StringBuilder("0x");
                for (byte b : (byte[]) v) {
                    sb.append(String.format("%02X", b));
                }
                yield sb.toString();
            }
            case TIMESTAMP -> Instant.ofEpochSecond(Math.floorDiv((Long) v, 1_000_000L), Math.floorMod((Long) v, 1_000_000L) * 1000).toString();
            case TIMESTAMP_NTZ -> LocalDateTime.ofEpochSecond(Math.floorDiv((Long) v, 1_000_000L),
                    (int) Math.floorMod((Long) v, 1_000_000L) * 1000, ZoneOffset.UTC).toString();
            case ARRAY -> {
                List<String> parts = new ArrayList<>();
                for (Object e : (List<?>) v) {
                    parts.add(canonical(e, type.element()));
                }
                yield "[" + String.join(", ", parts) + "]";
            }
            case STRUCT -> {
                List<String> parts = new ArrayList<>();
                Object[] fields = (Object[]) v;
                for (int i = 0; i < fields.length; i++) {
                    parts.add(canonical(fields[i], type.struct().field(i).type()));
                }
                yield "{" + String.join(", ", parts) + "}";
            }
            case MAP -> {
                List<String> parts = new ArrayList<>();
                for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
                    parts.add(canonical(e.getKey(), type.keyType()) + " -> " + canonical(e.getValue(), type.element()));
                }
                yield "{" + String.join(", ", parts) + "}";
            }
            default -> v.toString();
        };
    }
}
