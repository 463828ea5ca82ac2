package io.tributary.ingest.internal.format;

import io.tributary.schema.BadRecordException;
import io.tributary.schema.TributaryException;

/** The errors of reading input files by format: a line, record or column that the format's reader cannot read. */
final class FormatErrors {
    private FormatErrors() {
    }

    /** When a file has a field the schema lacks and schemaEvolution is failOnNewColumns. */
    static TributaryException newFieldRefused(String file, long line, String field, String rescuedData) {
        return new TributaryException("file " + file + " line " + line + ": field '" + field + "' is not in the schema, and "
                + "source.files.schemaEvolution is failOnNewColumns. Add it to source.files.schema, or set schemaEvolution to "
                + "addNewColumns (grow the schema) or rescue (keep it in " + rescuedData + "), or remove the file");
    }







    /** When a datetime pattern option is not a pattern. */
    static TributaryException badDatetimePattern(String option, String pattern, String message) {
        return new TributaryException("source.files.options." + option + ": '" + pattern + "' is not a datetime pattern ("
                + message + "); write it as Spark does, e.g. yyyy-MM-dd HH:mm:ss or dd/MM/yyyy");
    }

    /** When a wholetext file is longer than maxLineBytes. */
    static BadRecordException wholeTextTooLong(long wholeLength, int maxLineBytes) {
        return new BadRecordException(null, "the file is " + wholeLength + " bytes, longer than maxLineBytes (" + maxLineBytes
                + ") that wholetext reads as one row; raise maxLineBytes");
    }

    /** When a line is longer than maxLineBytes. */
    static BadRecordException lineTooLong(long fullLength, int maxLineBytes) {
        return new BadRecordException(null, "the line is " + fullLength + " bytes, longer than maxLineBytes (" + maxLineBytes
                + "); raise maxLineBytes or split the record");
    }

    /** When a line is not valid UTF-8. */
    static BadRecordException invalidUtf8(int invalidAt) {
        return new BadRecordException(null, "invalid UTF-8 at byte " + invalidAt + " of the line; the file must be UTF-8 "
                + "encoded");
    }

    /** When a multiLine document's top-level array holds something other than objects. */
    static BadRecordException notObjectsInArray(String found) {
        return new BadRecordException(null, "expected JSON objects in the top-level array, found " + found);
    }

    /** When a multiLine document is neither an object nor an array of objects. */
    static BadRecordException notAnObjectOrArray(String found) {
        return new BadRecordException(null, "expected a JSON object or an array of objects, found " + found);
    }

    /** When a multiLine file holds more after its document. */
    static BadRecordException trailingContent(String found) {
        return new BadRecordException(null, "found " + found + " after the JSON document; a multiLine file holds one document");
    }

    /** When a multiLine JSON document is longer than maxLineBytes. */
    static BadRecordException documentTooLong(long length, int maxBytes) {
        return new BadRecordException(null, "the file is " + length + " bytes, longer than maxLineBytes (" + maxBytes
                + "), the most a multiLine JSON document may hold; raise maxLineBytes");
    }

    /** When a Parquet file has a repeated field outside a LIST group. */
    static TributaryException repeatedOutsideList(String file, String path, String found) {
        return new TributaryException("file " + file + ": column '" + path + "' is a repeated Parquet field outside a LIST "
                + "group (" + found + "), a form Tributary does not read; rewrite the file with LIST groups (as Spark writes "
                + "them)");
    }

    /** When a Parquet column cannot be read as its schema type. */
    static TributaryException parquetTypeMismatch(String file, String path, String found, String ddl) {
        return new TributaryException("file " + file + ": column '" + path + "' is Parquet " + found + ", which cannot be "
                + "read as " + ddl + " (Spark's Parquet reader refuses it too); give the column the file's type in "
                + "source.files.schema");
    }

    /** When a Parquet group annotated VARIANT is not the variant Spark writes. */
    static TributaryException parquetVariantNotRead(String file, String path, String why) {
        return new TributaryException("file " + file + ": column '" + path + "' is annotated VARIANT but cannot be read as one: "
                + why + "; Spark writes a VARIANT as binary 'metadata' and 'value' (and, shredded, a 'typed_value'): check what "
                + "wrote the file");
    }

    /** When an XML record is one Spark's XML reader marks corrupt. */
    static BadRecordException malformedXml(String reason) {
        return new BadRecordException(null, "malformed XML record: " + reason);
    }

    /** When a CSV record is malformed. */
    static BadRecordException malformedCsv(String firstLine) {
        return new BadRecordException(null, "malformed CSV: " + firstLine);
    }

    /** When a Parquet map has keys of a nested type. */
    static TributaryException nestedMapKeys(String file, String column, String ddl) {
        return new TributaryException("file " + file + ": column '" + column + "' is a map with " + ddl + " keys, which "
                + "Tributary does not read (a map's keys are of a primitive type here); give source.files.schema without it");
    }
}
