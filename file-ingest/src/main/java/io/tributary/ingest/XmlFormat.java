package io.tributary.ingest;

import io.tributary.expressions.XmlInput;
import io.tributary.ingest.internal.XmlErrors;
import io.tributary.schema.DataType;
import io.tributary.schema.Field;
import io.tributary.schema.Schema;
import java.util.Map;

/**
 * The {@code xml} format's options, as Spark 4's XML source takes them: {@code rowTag} required (Spark's
 * {@code XML_ROW_TAG_MISSING}), the reader's options checked at start as Spark reads them (a flag that is not true or false, a
 * {@code samplingRatio} not above 0, a {@code rowValidationXSDPath} that is no XSD); Spark's {@code mode} and {@code columnNameOfCorruptRecord} are
 * Tributary's {@code onBadRecord} and dead-letter topic, and refused saying so. With {@code singleVariantColumn} each record
 * is one VARIANT, as Spark 4.2 reads it.
 */
final class XmlFormat {
    private XmlFormat() {
    }

    /** Refuses options Spark's XML reader would fail on, or that Tributary says elsewhere; {@code options} lower-case keys. */
    static void check(Map<String, String> options) {
        String rowTag = options.get("rowtag");
        if (rowTag == null) {
            throw XmlErrors.rowTagMissing();
        }
        if (rowTag.isBlank() || rowTag.indexOf('<') >= 0 || rowTag.indexOf('>') >= 0) {
            throw XmlErrors.rowTagInvalid(rowTag);
        }
        // taken only to be refused, pointing to onBadRecord, and so not listed among the options
        for (Map.Entry<String, String> o : Map.of("mode", "mode", "columnnameofcorruptrecord", "columnNameOfCorruptRecord").entrySet()) {
            if (options.containsKey(o.getKey())) {
                throw XmlErrors.modeOption(o.getValue(), options.get(o.getKey()));
            }
        }
        String single = options.get("singlevariantcolumn");
        if (single != null && single.isBlank()) {
            throw io.tributary.ingest.internal.SingleVariantErrors.singleVariantColumnBlank();
        }
        input(options);
    }

    /** The XML reading of {@code options}. */
    static XmlInput input(Map<String, String> options) {
        return XmlInput.of(options, XmlErrors::badOption);
    }

    /** Refuses columns the XML reader cannot read. */
    static void checkSchema(Schema schema) {
        for (Field f : schema.fields()) {
            if (unreadable(f.type())) {
                throw XmlErrors.cannotRead(f.name(), f.type().ddl());
            }
        }
    }

    private static boolean unreadable(DataType type) {
        if (type.holdsVariant()) {
            return true;
        }
        return switch (type.kind()) {
            case BINARY -> true;
            case ARRAY -> unreadable(type.element());
            case MAP -> type.keyType().kind() != DataType.Kind.STRING || unreadable(type.valueType());
            case STRUCT -> type.struct().fields().stream().anyMatch(f -> unreadable(f.type()));
            default -> type.ddl().startsWith("INTERVAL");
        };
    }
}
