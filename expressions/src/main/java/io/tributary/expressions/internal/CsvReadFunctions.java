package io.tributary.expressions.internal;

import com.univocity.parsers.common.TextParsingException;
import com.univocity.parsers.csv.CsvParser;
import com.univocity.parsers.csv.CsvParserSettings;
import io.tributary.schema.BadRecordException;
import io.tributary.schema.CsvTypes;
import io.tributary.schema.CsvValues;
import io.tributary.schema.DataType;
import io.tributary.schema.DataType.Kind;
import io.tributary.schema.Field;
import io.tributary.schema.Schema;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Spark's {@code from_csv} (one CSV record into a STRUCT of a DDL schema) and {@code schema_of_csv} (the type Spark infers
 * for a constant CSV record), with the CSV value rules the file source reads with ({@link CsvValues}, {@link CsvTypes}) and the
 * parser Spark uses (univocity) set up from the same options ({@link CsvReadOptions}).
 */
final class CsvReadFunctions {
    private CsvReadFunctions() {
    }

    static void register(Consumer<FunctionDef> add) {
        add.accept(Fn.custom("from_csv", 2, 3, "from_csv(csv STRING, schema STRING[, options MAP<STRING, STRING>]) → STRUCT",
                FunctionDef.NULL_IN_NULL_OUT, "the CSV record read into a STRUCT of the DDL schema (a literal, 'a INT, b STRING'), as"
                        + " Spark's CSV reader: in PERMISSIVE mode a value that does not read is null and the others are read, a field"
                        + " _corrupt_record STRING (or columnNameOfCorruptRecord) holds the text of a malformed record; FAILFAST fails the"
                        + " row (MALFORMED_RECORD_IN_PARSING); options sep (or delimiter), quote, escape, comment, nullValue, emptyValue,"
                        + " nanValue, positiveInf, negativeInf, ignoreLeadingWhiteSpace, ignoreTrailingWhiteSpace, dateFormat,"
                        + " timestampFormat, timestampNTZFormat, locale, timeZone, enableDateTimeParsingFallback, unescapedQuoteHandling,"
                        + " charToEscapeQuoteEscaping, maxCharsPerColumn, mode, columnNameOfCorruptRecord", CsvReadFunctions::fromCsv));
        add.accept(Fn.custom("schema_of_csv", 1, 2, "schema_of_csv(csv STRING[, options MAP<STRING, STRING>]) → STRING", "never null",
                "the type of the CSV record (a constant) as Spark infers it, as DDL text: STRUCT<_c0: INT, _c1: STRING>; INT, BIGINT,"
                        + " DECIMAL(n,0), DOUBLE, BOOLEAN, DATE (TIMESTAMP with preferDate false), TIMESTAMP, else STRING; options as"
                        + " from_csv's",
                CsvReadFunctions::schemaOfCsv));
    }

    private static Bound fromCsv(Analyzer.Call call, List<Bound> args) {
        Bound csv = args.get(0);
        if (csv.type() != null && !Types.VOID.equals(csv.type()) && !Types.is(csv.type(), Kind.STRING)) {
            throw call.typeError("[DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE] the csv of from_csv is text, and '" + csv.text() + "' is "
                    + Types.name(csv.type()));
        }
        Schema schema = schema(call, args.get(1));
        CsvReadOptions options = CsvReadOptions.of(call, args, 2);
        int corrupt = schema.fieldIndex(options.corruptColumn());
        String corruptType = corrupt >= 0 && schema.field(corrupt).type().kind() != Kind.STRING
                ? "the column " + options.corruptColumn() + " for corrupt records is " + Types.name(schema.field(corrupt).type())
                + "; it must be STRING" : null;
        String nested = schema.fields().stream().filter(f -> f.type().isNested()).map(f -> f.name() + " " + Types.name(f.type()))
                .findFirst().orElse(null);
        List<Field> read = new ArrayList<>();
        List<Integer> slots = new ArrayList<>();
        for (int i = 0; i < schema.size(); i++) {
            if (i != corrupt) {
                read.add(schema.field(i));
                slots.add(i);
            }
        }
        CsvValues values = new CsvValues(Schema.withRepeatedNames(read), options.times(), options::get);
        CsvParserSettings settings = options.parserSettings();
        ThreadLocal<CsvParser> parsers = ThreadLocal.withInitial(() -> new CsvParser(settings));
        int width = schema.size();
        if (csv.type() == null || Types.VOID.equals(csv.type())) {
            return new Bound.Literal(null, DataType.struct(schema), call.text());
        }
        boolean localDecimals = !options.locale().equals(java.util.Locale.US);
        String nullValue = options.options().getOrDefault("nullvalue", "");
        return call.apply(List.of(csv), DataType.struct(schema), (Kernel.Unary) text -> {
            options.check(); // Spark reads the options as the first row is read, and fails each row on one it cannot read
            if (options.mode().equals("DROPMALFORMED")) {
                throw Failure.of("PARSE_MODE_UNSUPPORTED", "from_csv does not take the mode DROPMALFORMED; use PERMISSIVE or FAILFAST");
            }
            if (corruptType != null) {
                throw Failure.of("INVALID_CORRUPT_RECORD_TYPE", corruptType);
            }
            if (nested != null) {
                throw Failure.of("UNSUPPORTED_DATATYPE", "from_csv does not read the column " + nested);
            }
            String[] tokens;
            try {
                tokens = parsers.get().parseLine((String) text);
            } catch (TextParsingException e) {
                parsers.remove(); // a parser that failed starts afresh; Spark fails the row, whatever the mode
                throw e.getCause() instanceof ArrayIndexOutOfBoundsException
                        ? Failure.of("MALFORMED_CSV_RECORD", "a value of the record is longer than maxCharsPerColumn: " + text)
                        : Failure.of("TextParsingException", "the record is not CSV: " + String.valueOf(e.getMessage()).lines().findFirst().orElse(""));
            }
            Object[] row = new Object[width];
            String condition = tokens == null || tokens.length != read.size() ? "MALFORMED_CSV_RECORD" : null;
            String reason = condition == null ? null : "the record has " + (tokens == null ? 0 : tokens.length) + " values for "
                    + read.size() + " columns";
            for (int i = 0; tokens != null && i < read.size(); i++) {
                String token = i < tokens.length ? tokens[i] : null;
                try {
                    row[slots.get(i)] = localDecimals && read.get(i).type().kind() == Kind.DECIMAL && token != null && !token.equals(nullValue)
                            ? decimal(token, read.get(i).type(), options.locale()) : values.value(i, token);
                } catch (BadRecordException | XmlValues.Bad e) {
                    if (condition == null) {
                        condition = failure(read.get(i).type(), options);
                        reason = e.getMessage();
                    }
                }
            }
            if (condition != null) {
                if (options.failFast()) {
                    throw Failure.of(condition, "the text is not a CSV record of the schema: " + reason);
                }
                if (corrupt >= 0) {
                    row[corrupt] = text;
                }
            }
            return row;
        });
    }

    /** A DECIMAL in a locale other than en-US, by its separators ({@code 1.234,5} in {@code de-DE}), rounded half up to the scale. */
    private static java.math.BigDecimal decimal(String token, DataType type, java.util.Locale locale) {
        java.math.BigDecimal d = XmlValues.parseDecimal(token, locale).setScale(type.scale(), java.math.RoundingMode.HALF_UP);
        if (d.precision() > type.precision()) {
            throw new XmlValues.Bad("MALFORMED_RECORD_IN_PARSING.WITHOUT_SUGGESTION", "'" + token + "' does not fit " + Types.name(type));
        }
        return d;
    }

    /**
     * Spark's error class when a value of {@code type} does not read under FAILFAST: a TIMESTAMP by the default forms fails as
     * Spark's ANSI cast fails (CAST_INVALID_INPUT), any other value as a malformed record.
     */
    private static String failure(DataType type, CsvReadOptions options) {
        boolean defaultTimestamp = type.kind() == Kind.TIMESTAMP && options.get("timestampformat") == null
                || type.kind() == Kind.TIMESTAMP_NTZ && options.get("timestampntzformat") == null;
        return defaultTimestamp ? "CAST_INVALID_INPUT" : "MALFORMED_RECORD_IN_PARSING.WITHOUT_SUGGESTION";
    }

    /** The schema argument: a constant DDL text of atomic fields, made nullable as Spark makes it. */
    private static Schema schema(Analyzer.Call call, Bound ddlArg) {
        Schema schema = SchemaArgument.parse(call, ddlArg, "from_csv");
        List<Field> fields = new ArrayList<>();
        for (Field f : schema.fields()) {
            if (Intervals.isInterval(f.type())) {
                throw call.typeError("from_csv of an interval column is not supported yet, and '" + f.name() + "' is "
                        + Types.name(f.type()));
            }
            fields.add(new Field(f.name(), f.type(), true));
        }
        return Schema.withRepeatedNames(fields);
    }

    /**
     * Spark's CSV inference of one value ({@link CsvTypes}), with its locale's numbers (a whole number by the locale's
     * separators a DECIMAL) and, without preferDate, a date read as a TIMESTAMP.
     */
    private static DataType inferred(String t, CsvReadOptions options) {
        DataType type = CsvTypes.of(t, options.times(), options.defaultDates(), options.specialDoubles());
        if (!options.locale().equals(java.util.Locale.US) && (type.kind() == Kind.DECIMAL || type.kind() == Kind.DOUBLE
                || type.kind() == Kind.STRING)) {
            try {
                java.math.BigDecimal d = XmlValues.parseDecimal(t, options.locale());
                if (d.scale() <= 0 && d.precision() <= 38) {
                    return DataType.decimal(d.precision(), 0);
                }
            } catch (XmlValues.Bad e) {
                // not a number of the locale
            }
        }
        if (type.kind() == Kind.DATE && !options.preferDate()) {
            return options.times().micros(t, true) != null ? DataType.TIMESTAMP : DataType.STRING;
        }
        return type;
    }

    private static Bound schemaOfCsv(Analyzer.Call call, List<Bound> args) {
        Bound csv = args.get(0);
        if (csv.type() == null || !Types.is(csv.type(), Kind.STRING) || !Bound.constant(csv)) {
            throw call.typeError("[DATATYPE_MISMATCH.NON_FOLDABLE_INPUT] the csv of schema_of_csv must be a constant text such as"
                    + " '1,abc', and '" + csv.text() + "' is not one");
        }
        Object text = Interpreter.eval(csv, new Object[0]);
        if (text == null) {
            throw call.typeError("[DATATYPE_MISMATCH.UNEXPECTED_NULL] the csv of schema_of_csv must not be null");
        }
        CsvReadOptions options = CsvReadOptions.of(call, args, 1);
        if (options.problem() != null) {
            return call.apply(List.of(csv), DataType.STRING, (Kernel.Unary) x -> {
                throw options.problem();
            });
        }
        String[] tokens;
        try {
            tokens = new CsvParser(options.parserSettings()).parseLine((String) text);
        } catch (TextParsingException e) { // Spark fails the row with the parser's exception (a value past maxCharsPerColumn)
            Failure failure = Failure.of("TextParsingException", "schema_of_csv of '" + text + "': it is not a CSV record ("
                    + String.valueOf(e.getMessage()).lines().findFirst().orElse("") + ")");
            return call.apply(List.of(csv), DataType.STRING, (Kernel.Unary) x -> {
                throw failure;
            });
        }
        if (tokens == null) {
            throw call.typeError("schema_of_csv of '" + text + "': it holds no CSV record");
        }
        String nullValue = options.options().getOrDefault("nullvalue", "");
        List<Field> fields = new ArrayList<>();
        for (int i = 0; i < tokens.length; i++) {
            String t = tokens[i];
            DataType type = t == null || t.isEmpty() || t.equals(nullValue) ? DataType.STRING : inferred(t, options);
            fields.add(new Field("_c" + i, type, true));
        }
        return new Bound.Literal(Types.name(DataType.struct(new Schema(fields))), DataType.STRING, call.text());
    }
}
