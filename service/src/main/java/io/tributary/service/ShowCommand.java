package io.tributary.service;

import io.tributary.expressions.SelectItems;
import io.tributary.expressions.Transform;
import io.tributary.schema.DataType;
import io.tributary.schema.Field;
import io.tributary.schema.RowJson;
import io.tributary.schema.Schema;
import io.tributary.service.internal.ServiceErrors;
import io.tributary.sink.DeltaTables;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code tributary show TABLE}: a Delta table's rows, as Spark's {@code df.show()} prints them. */
@Command(name = "show", mixinStandardHelpOptions = true,
        description = "Prints a Delta table's rows as Spark's df.show() does (or as JSON lines), optionally filtered and projected by "
                + "Spark SQL, at its latest version or an older one; rows in no particular order, as Spark's.")
final class ShowCommand implements Callable<Integer> {
    /** Spark's {@code show()}: cells longer than this are cut to 17 characters and "...". */
    private static final int TRUNCATE = 20;

    @Parameters(index = "0", paramLabel = "TABLE", description = "the Delta table's folder: a path or a URI (s3a://bucket/table)")
    String table;

    @Mixin
    StorageOptions storage;

    @Option(names = {"-n", "--limit"}, paramLabel = "N", defaultValue = "20", description = "at most this many rows (default ${DEFAULT-VALUE})")
    int limit;

    @Option(names = "--where", paramLabel = "PREDICATE", description = "only rows where this Spark SQL predicate is true, e.g. \"amt > 0\"")
    String where;

    @Option(names = "--select", paramLabel = "LIST", description = "Spark SQL select items, e.g. \"user, amt * 2 AS twice\" (default: every column)")
    String select;

    @Option(names = "--version", paramLabel = "V", description = "the table's version to read (Delta's versionAsOf; default the latest)")
    Long version;

    @Option(names = "--json", description = "one JSON object per row instead of a table")
    boolean json;

    @Option(names = "--no-truncate", description = "print whole cells (Spark's show(n, truncate=false))")
    boolean noTruncate;

    @Spec
    CommandSpec command;

    @Override
    public Integer call() {
        if (limit < 0) {
            throw ServiceErrors.negativeLimit(limit);
        }
        List<Object[]> rows = new ArrayList<>();
        Transform[] transform = new Transform[1];
        boolean[] more = new boolean[1];
        Optional<DeltaTables.ReadVersion> read = DeltaTables.readRows(table, storage.forTable(table), version, (schema, fileRows) -> {
            if (transform[0] == null) {
                transform[0] = compile(schema);
            }
            for (Object[] row : fileRows) {
                for (Object[] out : transform[0].rows(row)) {
                    if (rows.size() == limit) {
                        more[0] = true;
                        return false;
                    }
                    rows.add(out);
                }
            }
            return true;
        });
        if (read.isEmpty()) {
            throw ServiceErrors.noTableToShow(table);
        }
        Schema schema = (transform[0] != null ? transform[0] : compile(read.get().schema())).output();
        PrintWriter out = command.commandLine().getOut();
        if (json) {
            RowJson writer = new RowJson(schema);
            rows.forEach(r -> out.println(new String(writer.write(r), StandardCharsets.UTF_8)));
        } else {
            out.print(table(schema, rows, more[0]));
        }
        out.flush();
        return 0;
    }

    /** {@code --where} and {@code --select} over the table's columns. */
    private Transform compile(Schema schema) {
        return Transform.compile(schema, where, select == null ? null : SelectItems.split(select), "--where/--select");
    }

    /** Spark's {@code Dataset.showString}: right-aligned cells between {@code +---+} lines, then how many were shown. */
    private String table(Schema schema, List<Object[]> rows, boolean more) {
        Transform asText = Transform.compile(schema, null, textColumns(schema), "--select");
        List<String[]> cells = new ArrayList<>();
        cells.add(schema.fields().stream().map(f -> cut(f.name())).toArray(String[]::new));
        for (Object[] row : rows) {
            Object[] text = asText.apply(row);
            String[] line = new String[text.length];
            for (int i = 0; i < text.length; i++) {
                line[i] = cut(row[i] == null ? "NULL" : schema.field(i).type().kind() == DataType.Kind.BINARY ? bytes((byte[]) row[i])
                        : (String) text[i]);
            }
            cells.add(line);
        }
        int[] widths = new int[schema.size()];
        for (String[] line : cells) {
            for (int i = 0; i < line.length; i++) {
                widths[i] = Math.max(Math.max(widths[i], 3), line[i].codePointCount(0, line[i].length()));
            }
        }
        StringBuilder sep = new StringBuilder("+");
        for (int w : widths) {
            sep.append("-".repeat(w)).append('+');
        }
        StringBuilder b = new StringBuilder();
        b.append(sep).append('\n');
        for (int l = 0; l < cells.size(); l++) {
            b.append('|');
            for (int i = 0; i < widths.length; i++) {
                String c = cells.get(l)[i];
                String pad = " ".repeat(widths[i] - c.codePointCount(0, c.length()));
                b.append(noTruncate ? c + pad : pad + c).append('|');
            }
            b.append('\n');
            if (l == 0) {
                b.append(sep).append('\n');
            }
        }
        b.append(sep).append('\n');
        if (more) {
            b.append("only showing top ").append(rows.size()).append(rows.size() == 1 ? " row" : " rows").append('\n');
        }
        return b.toString();
    }

    /** Each column as Spark casts it to text (a BINARY one as itself: {@link #bytes} prints it). */
    private static List<String> textColumns(Schema schema) {
        List<String> items = new ArrayList<>();
        for (Field f : schema.fields()) {
            String column = "`" + f.name().replace("`", "``") + "`";
            items.add(f.type().kind() == DataType.Kind.BINARY ? column : "CAST(" + column + " AS STRING) AS " + column);
        }
        return items;
    }

    /** Spark's show of a BINARY value: its bytes in hex, {@code [4A 6F]}. */
    private static String bytes(byte[] value) {
        StringBuilder b = new StringBuilder("[");
        for (int i = 0; i < value.length; i++) {
            b.append(i == 0 ? "" : " ").append(String.format("%02X", value[i]));
        }
        return b.append(']').toString();
    }

    private String cut(String cell) {
        return noTruncate || cell.length() <= TRUNCATE ? cell : cell.substring(0, TRUNCATE - 3) + "...";
    }
}
