package io.tributary.ingest.internal.format;

import io.tributary.ingest.internal.FileDiscovery;
import io.tributary.ingest.internal.FileStat;
import io.tributary.schema.DataType;
import io.tributary.schema.Field;
import io.tributary.schema.Schema;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;

/**
 * The columns of a Parquet file as its footer gives them, typed as Spark reads them. A group of {@code metadata} and
 * {@code value} binaries without the VARIANT annotation (as Spark 4.0 wrote a VARIANT, and Spark 4.2 with
 * {@code spark.sql.parquet.variant.annotateLogicalType.enabled} false) is a VARIANT where the Spark schema the writer kept in
 * the footer ({@code org.apache.spark.sql.parquet.row.metadata}) names it one, as Spark infers it from that schema; else the
 * STRUCT of its fields.
 */
final class ParquetColumns {
    /** The key of the footer's metadata under which Spark keeps the schema it wrote, as JSON. */
    static final String SPARK_SCHEMA = "org.apache.spark.sql.parquet.row.metadata";
    private static final ObjectMapper JSON = new ObjectMapper();

    private ParquetColumns() {
    }

    static Map<String, DataType> columns(FileDiscovery discovery, FileStat f) throws IOException {
        Path local = f.path();
        Path copy = null;
        if (local == null) {
            copy = Files.createTempFile("tributary-", ".parquet");
            try (InputStream in = discovery.open(f)) {
                Files.copy(in, copy, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
            local = copy;
        }
        try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(local),
                ParquetReadOptions.builder(new PlainParquetConfiguration()).build())) {
            MessageType schema = reader.getFooter().getFileMetaData().getSchema();
            JsonNode spark = sparkSchema(reader.getFooter().getFileMetaData().getKeyValueMetaData());
            Map<String, DataType> out = new LinkedHashMap<>();
            for (Type t : schema.getFields()) {
                out.put(t.getName(), type(t, field(spark, t.getName()), discovery.display(f.relPath())));
            }
            return out;
        } finally {
            if (copy != null) {
                Files.deleteIfExists(copy);
            }
        }
    }

    /** The type Spark gives a Parquet field, from the Parquet types alone. */
    static DataType type(Type t, String file) {
        return type(t, null, file);
    }

    /**
     * The type Spark gives a Parquet field; {@code spark} the field's type in the Spark schema of the footer (Spark's JSON of a
     * type: {@code "variant"}, {@code {"type": "struct", "fields": [...]}} ...), or null.
     */
    static DataType type(Type t, JsonNode spark, String file) {
        if (t.isPrimitive()) {
            return primitive(t.asPrimitiveType(), file);
        }
        GroupType g = t.asGroupType();
        LogicalTypeAnnotation a = g.getLogicalTypeAnnotation();
        if (a instanceof LogicalTypeAnnotation.VariantLogicalTypeAnnotation
                || (a == null && spark != null && "variant".equals(spark.asText()) && ParquetVariants.hasVariantFields(g))) {
            return DataType.VARIANT;
        }
        if (a instanceof LogicalTypeAnnotation.ListLogicalTypeAnnotation) {
            Type r = g.getType(0);
            boolean direct = r.isPrimitive() || r.asGroupType().getFieldCount() != 1 || r.getName().equals("array")
                    || r.getName().equals(g.getName() + "_tuple");
            JsonNode element = spark == null ? null : spark.get("elementType");
            return DataType.array(direct ? type(r, element, file) : type(r.asGroupType().getType(0), element, file));
        }
        if (a instanceof LogicalTypeAnnotation.MapLogicalTypeAnnotation || a instanceof LogicalTypeAnnotation.MapKeyValueTypeAnnotation) {
            GroupType kv = g.getType(0).asGroupType();
            DataType key = type(kv.getType(0), file);
            if (key.isNested()) {
                throw FormatErrors.nestedMapKeys(file, g.getName(), key.ddl());
            }
            return DataType.map(key, kv.getFieldCount() > 1 ? type(kv.getType(1), spark == null ? null : spark.get("valueType"), file)
                    : DataType.STRING);
        }
        List<Field> fields = new ArrayList<>();
        for (Type c : g.getFields()) {
            fields.add(new Field(c.getName(), type(c, field(spark, c.getName()), file), true));
        }
        return DataType.struct(new Schema(fields));
    }

    /** The Spark schema the footer keeps, as JSON, or null when there is none or it does not read. */
    static JsonNode sparkSchema(Map<String, String> keyValues) {
        String text = keyValues == null ? null : keyValues.get(SPARK_SCHEMA);
        if (text == null) {
            return null;
        }
        try {
            return JSON.readTree(text);
        } catch (IOException notJson) {
            return null; // Spark falls back to the Parquet types too
        }
    }

    /** The type of the field {@code name} of a Spark struct type's JSON, or null. */
    static JsonNode field(JsonNode struct, String name) {
        if (struct == null || !struct.path("fields").isArray()) {
            return null;
        }
        for (JsonNode f : struct.get("fields")) {
            if (name.equals(f.path("name").asText())) {
                return f.get("type");
            }
        }
        return null;
    }

    private static DataType primitive(PrimitiveType p, String file) {
        LogicalTypeAnnotation a = p.getLogicalTypeAnnotation();
        if (a instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation d) {
            return DataType.decimal(d.getPrecision(), d.getScale());
        }
        return switch (p.getPrimitiveTypeName()) {
            case BOOLEAN -> DataType.BOOLEAN;
            case INT32 -> {
                if (a instanceof LogicalTypeAnnotation.DateLogicalTypeAnnotation) {
                    yield DataType.DATE;
                }
                if (a instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation i && i.getBitWidth() <= 16) {
                    yield i.getBitWidth() == 8 ? DataType.BYTE : DataType.SHORT;
                }
                yield DataType.INT;
            }
            case INT64 -> a instanceof LogicalTypeAnnotation.TimestampLogicalTypeAnnotation ts
                    ? (ts.isAdjustedToUTC() ? DataType.TIMESTAMP : DataType.TIMESTAMP_NTZ) : DataType.LONG;
            case INT96 -> DataType.TIMESTAMP;
            case FLOAT -> DataType.FLOAT;
            case DOUBLE -> DataType.DOUBLE;
            case BINARY -> a == null ? DataType.BINARY : DataType.STRING;
            case FIXED_LEN_BYTE_ARRAY -> DataType.BINARY;
        };
    }
}
