package io.tributary.expressions;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.schema.RowJson;
import io.tributary.schema.Schema;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

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
}
