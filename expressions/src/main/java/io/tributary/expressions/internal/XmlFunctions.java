package io.tributary.expressions.internal;

import io.tributary.schema.DataType;
import io.tributary.schema.DataType.Kind;
import io.tributary.schema.Field;
import io.tributary.schema.Schema;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import javax.xml.stream.XMLStreamException;
import javax.xml.validation.Validator;

/**
 * Spark's XML functions: {@code from_xml} (an XML text into a STRUCT of a DDL schema, {@link XmlReader}), {@code
 * schema_of_xml} (the type Spark infers for a constant XML text, {@link XmlSchemaInference}) and {@code to_xml} (a STRUCT as
 * XML text, {@link XmlWriter}), with Spark's XML options ({@link XmlOptions}); a VARIANT read by {@link XmlVariants}.
 */
final class XmlFunctions {
    private static final String MALFORMED = "MALFORMED_RECORD_IN_PARSING.WITHOUT_SUGGESTION";

    private XmlFunctions() {
    }

    static void register(Consumer<FunctionDef> add) {
        add.accept(Fn.custom("from_xml", 2, 3, "from_xml(xml STRING, schema STRING[, options MAP<STRING, STRING>]) → STRUCT | VARIANT",
                FunctionDef.NULL_IN_NULL_OUT, "the XML text read into a STRUCT of the DDL schema (a literal, 'a INT, b STRING', or"
                        + " schema_of_xml(...)), as Spark's XML reader: the first element is the row, its attributes the fields _name,"
                        + " its child elements the fields of their names, its text the field _VALUE, a repeated element an ARRAY;"
                        + " in PERMISSIVE mode a value that does not read is null and the others are read, a field _corrupt_record"
                        + " STRING (or columnNameOfCorruptRecord) holds the text of a malformed record; FAILFAST fails the row"
                        + " (MALFORMED_RECORD_IN_PARSING); options attributePrefix, valueTag, ignoreSurroundingSpaces, nullValue,"
                        + " excludeAttribute, mode, columnNameOfCorruptRecord, timestampFormat, timestampNTZFormat, dateFormat, locale,"
                        + " timeZone, ignoreNamespace, wildcardColName (a field xs_any STRING or ARRAY<STRING> holds the elements the"
                        + " schema does not name); a field may be VARIANT (the element as an object of its attributes, children and"
                        + " _VALUE, text typed BOOLEAN, BIGINT, DECIMAL or STRING), and the schema 'variant' reads the first element"
                        + " whole as one VARIANT (text that is not XML fails the row in any mode)", XmlFunctions::fromXml));
        add.accept(Fn.custom("schema_of_xml", 1, 2, "schema_of_xml(xml STRING[, options MAP<STRING, STRING>]) → STRING", "never null",
                "the type of the XML text (a constant) as Spark infers it, as DDL text: STRUCT<_id: BIGINT, a: ARRAY<DOUBLE>>;"
                        + " fields sorted by name, a repeated element an ARRAY, text BIGINT, DOUBLE, DATE, TIMESTAMP, BOOLEAN or"
                        + " STRING (DECIMAL with prefersDecimal; all STRING with inferSchema false); options as from_xml's",
                XmlFunctions::schemaOfXml));
        add.accept(Fn.custom("to_xml", 1, 2, "to_xml(STRUCT | VARIANT[, options MAP<STRING, STRING>]) → STRING", FunctionDef.NULL_IN_NULL_OUT,
                "the struct as XML text, as Spark's XML writer: an element <ROW> (rowTag), fields named _name as its attributes,"
                        + " _VALUE as its text, the others as child elements indented by four spaces (indent), an ARRAY as its"
                        + " element repeated, null fields left out (or nullValue); options rowTag, attributePrefix, valueTag,"
                        + " nullValue, arrayElementName, indent, timestampFormat, timestampNTZFormat, dateFormat, locale, timeZone,"
                        + " validateName; a VARIANT as the element of its object's fields, its array's elements repeated or its"
                        + " value's text", XmlFunctions::toXml));
    }

    private static Bound fromXml(Analyzer.Call call, List<Bound> args) {
        Bound xml = args.get(0);
        if (xml.type() != null && !Types.VOID.equals(xml.type()) && !Types.is(xml.type(), Kind.STRING)) {
            throw call.typeError("[DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE] the xml of from_xml is text, and '" + xml.text() + "' is "
                    + Types.name(xml.type()));
        }
        if (args.get(1) instanceof Bound.Literal l && l.value() instanceof String ddl && FromJsonVariant.isVariant(ddl)) {
            return variant(call, xml, XmlOptions.of(call, args, 2)); // the whole record one VARIANT
        }
        Schema schema = schema(call, args.get(1));
        XmlOptions options = XmlOptions.of(call, args, 2);
        int corrupt = schema.fieldIndex(options.corruptColumn());
        String corruptType = corrupt >= 0 && schema.field(corrupt).type().kind() != Kind.STRING ? "the column " + options.corruptColumn()
                + " for corrupt records is " + Types.name(schema.field(corrupt).type()) + "; it must be STRING" : null;
        DataType type = DataType.struct(schema);
        if (xml.type() == null || Types.VOID.equals(xml.type())) {
            return new Bound.Literal(null, type, call.text());
        }
        XmlReader reader = new XmlReader(options);
        ThreadLocal<Validator> xsd = XmlValidation.validators(XmlValidation.load(call, options.get("rowvalidationxsdpath")));
        int width = schema.size();
        return call.apply(List.of(xml), type, (Kernel.Unary) text -> {
            options.check(); // Spark reads the options as the first row is read, and fails each row on one it cannot read
            if (options.mode().equals("DROPMALFORMED")) {
                throw Failure.of("PARSE_MODE_UNSUPPORTED", "from_xml does not take the mode DROPMALFORMED; use PERMISSIVE or FAILFAST");
            }
            if (corruptType != null) {
                throw Failure.of("INVALID_CORRUPT_RECORD_TYPE", corruptType); // Spark fails each row, not the query
            }
            Object[] row;
            Exception bad;
            try {
                if (xsd != null) {
                    XmlValidation.validate(xsd, (String) text); // a text the XSD refuses is a malformed record, all its fields null
                }
                row = reader.read((String) text, schema);
                bad = null;
            } catch (org.xml.sax.SAXException | java.io.IOException e) {
                row = new Object[width];
                bad = e;
            } catch (XmlReader.Partial p) {
                row = p.row;
                bad = (Exception) p.getCause();
            } catch (XMLStreamException | RuntimeException e) {
                row = new Object[width];
                bad = e;
            }
            if (corrupt >= 0) {
                row[corrupt] = bad == null ? null : text;
            }
            if (bad != null && options.failFast()) {
                throw Failure.of(bad instanceof XmlValues.Bad b ? b.condition : MALFORMED, "the text is not an XML record of the schema: "
                        + String.valueOf(bad.getMessage()).lines().findFirst().orElse(""));
            }
            return row;
        });
    }

    /**
     * {@code from_xml(xml, 'variant')}: the first element as one VARIANT ({@link XmlVariants}). Spark reads it without its
     * parse modes: text that is not XML fails the row in any mode, and the mode is not checked.
     */
    private static Bound variant(Analyzer.Call call, Bound xml, XmlOptions options) {
        if (xml.type() == null || Types.VOID.equals(xml.type())) {
            return new Bound.Literal(null, DataType.VARIANT, call.text());
        }
        XmlVariants variants = new XmlVariants(options);
        return call.apply(List.of(xml), DataType.VARIANT, (Kernel.Unary) text -> {
            options.check();
            return variants.read((String) text);
        });
    }

    /** The schema argument: a constant DDL text (a literal, or schema_of_xml's), its fields nullable as Spark makes them. */
    private static Schema schema(Analyzer.Call call, Bound ddlArg) {
        Schema schema = SchemaArgument.parse(call, ddlArg, "from_xml", true);
        List<Field> fields = new ArrayList<>();
        for (Field f : schema.fields()) {
            String unsupported = unsupported(f.type());
            if (unsupported != null) {
                throw call.typeError("from_xml of the column " + f.name() + " " + Types.name(f.type()) + " is not supported yet: "
                        + unsupported);
            }
            fields.add(new Field(f.name(), f.type(), true));
        }
        return Schema.withRepeatedNames(fields);
    }

    /** Why from_xml cannot read a value of {@code type}, or null: BINARY, intervals and maps of other keys than STRING. */
    private static String unsupported(DataType type) {
        if (Variants.isVariant(type)) {
            return null;
        }
        if (Intervals.isInterval(type) || type.kind() == Kind.BINARY) {
            return Types.name(type);
        }
        return switch (type.kind()) {
            case ARRAY -> unsupported(type.element());
            case MAP -> type.keyType().kind() != Kind.STRING ? "a map's keys are STRING" : unsupported(type.valueType());
            case STRUCT -> type.struct().fields().stream().map(f -> unsupported(f.type())).filter(s -> s != null).findFirst().orElse(null);
            default -> null;
        };
    }

    private static Bound schemaOfXml(Analyzer.Call call, List<Bound> args) {
        Bound xml = args.get(0);
        if (xml.type() == null || !Types.is(xml.type(), Kind.STRING) || !Bound.constant(xml)) {
            throw call.typeError("[DATATYPE_MISMATCH.NON_FOLDABLE_INPUT] the xml of schema_of_xml must be a constant text such as"
                    + " '<p><a>1</a></p>', and '" + xml.text() + "' is not one");
        }
        Object text = Interpreter.eval(xml, new Object[0]);
        if (text == null) {
            throw call.typeError("[DATATYPE_MISMATCH.UNEXPECTED_NULL] the xml of schema_of_xml must not be null");
        }
        XmlOptions options = XmlOptions.of(call, args, 1);
        if (options.problem() != null) { // Spark reads schema_of_xml's options as it plans the query
            throw call.typeError("[" + options.problem().condition() + "] " + options.problem().getMessage());
        }
        ThreadLocal<Validator> xsd = XmlValidation.validators(XmlValidation.load(call, options.get("rowvalidationxsdpath")));
        String ddl;
        try {
            if (xsd != null) {
                XmlValidation.validate(xsd, (String) text);
            }
            ddl = new XmlSchemaInference(options).ddl((String) text);
        } catch (XMLStreamException | RuntimeException | org.xml.sax.SAXException | java.io.IOException e) {
            if (options.failFast()) {
                String reason = String.valueOf(e.getMessage()).lines().findFirst().orElse("");
                // Spark fails a text its XSD refuses with INTERNAL_ERROR here, where it names text that is not XML a malformed record
                String condition = e instanceof org.xml.sax.SAXException ? "INTERNAL_ERROR" : MALFORMED;
                return call.apply(List.of(xml), DataType.STRING, (Kernel.Unary) x -> {
                    throw Failure.of(condition, (condition.equals(MALFORMED) ? "schema_of_xml of a text that is not XML: "
                            : "schema_of_xml of a text its XSD (rowValidationXSDPath) refuses: ") + reason);
                });
            }
            ddl = Types.name(DataType.struct(new Schema(List.of(new Field(options.corruptColumn(), DataType.STRING, true)))));
        }
        return new Bound.Literal(ddl, DataType.STRING, call.text());
    }

    private static Bound toXml(Analyzer.Call call, List<Bound> args) {
        Bound struct = args.get(0);
        if (struct.type() != null && !Types.is(struct.type(), Kind.STRUCT) && !Variants.isVariant(struct.type())) {
            throw call.typeError("[DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE] to_xml needs a STRUCT or a VARIANT, and '" + struct.text()
                    + "' is " + Types.name(struct.type()));
        }
        XmlOptions options = XmlOptions.of(call, args, 1);
        if (struct.type() == null) {
            return new Bound.Literal(null, DataType.STRING, call.text());
        }
        String unsupported = writable(struct.type());
        if (unsupported != null) {
            throw call.typeError("to_xml of " + unsupported + " is not supported yet");
        }
        DataType type = struct.type();
        XmlWriter writer = new XmlWriter(options);
        boolean noPrefix = options.attributePrefix().isEmpty();
        return call.apply(List.of(struct), DataType.STRING, (Kernel.Unary) v -> {
            options.check();
            if (noPrefix) {
                // Spark's writer requires the prefix and fails each row with this bare exception
                throw Failure.of("IllegalArgumentException", "to_xml's option 'attributePrefix' must not be empty");
            }
            return writer.write(type, v);
        });
    }

    /** What to_xml cannot write in {@code type}, or null: BINARY and intervals. */
    private static String writable(DataType type) {
        if (type == null || Types.VOID.equals(type) || Variants.isVariant(type)) {
            return null;
        }
        if (Intervals.isInterval(type) || type.kind() == Kind.BINARY) {
            return Types.name(type);
        }
        return switch (type.kind()) {
            case ARRAY -> writable(type.element());
            case MAP -> writable(type.valueType());
            case STRUCT -> type.struct().fields().stream().map(f -> writable(f.type())).filter(s -> s != null).findFirst().orElse(null);
            default -> null;
        };
    }
}
