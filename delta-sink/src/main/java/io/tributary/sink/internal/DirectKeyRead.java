package io.tributary.sink.internal;

import io.delta.kernel.Snapshot;
import io.delta.kernel.data.Row;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.tributary.delta.ColumnMapping;
import io.tributary.delta.DeletionVectorStore;
import io.tributary.delta.KernelEngines;
import io.tributary.delta.kernel.KernelInternals;
import io.tributary.schema.DataType;
import io.tributary.schema.Schema;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.HadoopReadOptions;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.column.impl.ColumnReadStoreImpl;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.roaringbitmap.longlong.LongIterator;
import org.roaringbitmap.longlong.Roaring64NavigableMap;

/**
 * A key lookup's read of one data file straight from its Parquet columns (parquet-mr's column readers, no record
 * assembly): the columns read, each a flat column of the file; every row's position is the count of rows before it
 * (all row groups, in order, no page skipped), tested against the file's deletion vector by walking its bitmap along;
 * each live row's key codes ({@link KeyProbe.Code}) come from the raw values (a STRING or BINARY key hashed on its
 * bytes, an integral one as a long), and only the rows the probe lets through get their values built.
 * {@link #of} answers null for columns this read cannot take (a DECIMAL, a nested type, a partition column, whose
 * values Kernel fills in from the log), {@link #read} null for a file whose layout is not the expected one (a column missing, another
 * physical type): Kernel's reader reads those. Made without a probe, it reads the rows at given positions of a file
 * ({@link #readAt}): the second pass of a lookup, for the other columns of the rows it matched ({@link MatchedRows}).
 */
final class DirectKeyRead {
    private static final GroupConverter NO_CONVERTER = new GroupConverter() {
        private final PrimitiveConverter primitive = new PrimitiveConverter() {
        };

        @Override
        public Converter getConverter(int fieldIndex) {
            return primitive;
        }

        @Override
        public void start() {
        }

        @Override
        public void end() {
        }
    };

    private final Configuration conf;
    private final ParquetReadOptions options; // made once: a default ParquetReadOptions parses Hadoop's XML defaults anew
    private final DeletionVectorStore vectors;
    private final KeyProbe probe;
    private final Schema schema; // the columns read
    private final StructField[] fields; // their Kernel fields (physical name, field id)
    private final int[] keyAt; // the read column of each key column, in key order

    private DirectKeyRead(Configuration conf, DeletionVectorStore vectors, KeyProbe probe, Schema schema, StructField[] fields,
                          int[] keyAt) {
        this.conf = conf;
        this.options = HadoopReadOptions.builder(conf).build();
        this.vectors = vectors;
        this.probe = probe;
        this.schema = schema;
        this.fields = fields;
        this.keyAt = keyAt;
    }

    /**
     * The direct read of the columns {@code read} ({@code schema}, Kernel's {@code kernelRead}) of {@code snapshot}'s
     * files for {@code probe} (null: a read of given rows, {@link #readAt}), or null when a column's type is not one it reads.
     */
    static DirectKeyRead of(Engine engine, Snapshot snapshot, Schema schema, StructType kernelRead, KeyProbe probe) {
        List<String> partitions = snapshot.getPartitionColumnNames().stream().map(p -> p.toLowerCase(Locale.ROOT)).toList();
        StructField[] fields = new StructField[schema.size()];
        for (int c = 0; c < fields.length; c++) {
            fields[c] = kernelRead.at(c);
            if (partitions.contains(fields[c].getName().toLowerCase(Locale.ROOT)) || !readable(schema.field(c).type().kind())) {
                return null;
            }
        }
        int[] keyAt = new int[probe == null ? 0 : probe.columns().size()];
        for (int k = 0; k < keyAt.length; k++) {
            keyAt[k] = schema.indexOf(probe.columns().get(k));
            if (keyAt[k] < 0) {
                return null;
            }
        }
        return new DirectKeyRead(KernelEngines.configuration(engine), new DeletionVectorStore(engine, snapshot.getPath()), probe,
                schema, fields, keyAt);
    }

    private static boolean readable(DataType.Kind kind) {
        return switch (kind) {
            case BYTE, SHORT, INT, DATE, LONG, TIMESTAMP, TIMESTAMP_NTZ, BOOLEAN, FLOAT, DOUBLE, STRING, BINARY -> true;
            default -> false;
        };
    }

    /**
     * What one file gave: the rows the probe let through (the columns read), their positions, the live rows counted, and
     * the rows its deletion vector marks (loaded once: the upsert adds its marks to this bitmap).
     */
    record Result(List<Object[]> rows, long[] positions, long liveRows, Roaring64NavigableMap deleted) {
    }

    /** Reads the file of {@code scanFile}; null when its Parquet schema does not hold the columns as expected. */
    Result read(Row scanFile) throws IOException {
        return open(scanFile, (reader, projection, columns, createdBy) -> scan(reader, projection, columns, createdBy,
                vectors.deletedRows(scanFile)));
    }

    /**
     * The rows at {@code positions} (ascending, each a live row of the file, as a lookup found it) of the file of {@code
     * scanFile}, in that order, their columns read alone: the rows between them are passed over without a value made,
     * the row groups that hold none of them are not read, nor anything after the last; null when the file's Parquet
     * schema does not hold the columns as expected, or it holds fewer rows.
     */
    List<Object[]> readAt(Row scanFile, long[] positions) throws IOException {
        return open(scanFile, (reader, projection, columns, createdBy) -> scanAt(reader, projection, columns, createdBy, positions));
    }

    /** What reads a file's columns once they are requested. */
    private interface Scanner<T> {
        T scan(ParquetFileReader reader, MessageType projection, Type[] columns, String createdBy) throws IOException;
    }

    private <T> T open(Row scanFile, Scanner<T> scanner) throws IOException {
        org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(KernelInternals.scanFileStatus(scanFile).getPath());
        try (ParquetFileReader reader = ParquetFileReader.open(HadoopInputFile.fromPath(path, conf), options)) {
            MessageType file = reader.getFooter().getFileMetaData().getSchema();
            Type[] columns = new Type[fields.length];
            List<Type> requested = new ArrayList<>();
            for (int c = 0; c < fields.length; c++) {
                columns[c] = column(file, fields[c]);
                if (columns[c] == null || !matches(schema.field(c).type().kind(), columns[c]) || requested.contains(columns[c])) {
                    return null;
                }
                requested.add(columns[c]);
            }
            MessageType projection = new MessageType(file.getName(), requested);
            reader.setRequestedSchema(projection);
            return scanner.scan(reader, projection, columns, reader.getFooter().getFileMetaData().getCreatedBy());
        }
    }

    private List<Object[]> scanAt(ParquetFileReader reader, MessageType projection, Type[] columns, String createdBy,
                                  long[] positions) throws IOException {
        List<Object[]> rows = new ArrayList<>(positions.length);
        ColumnReader[] readers = new ColumnReader[columns.length];
        int[] maxLevels = new int[columns.length];
        long first = 0; // the position of the row group's first row
        int next = 0;
        for (BlockMetaData group : reader.getRowGroups()) {
            long end = first + group.getRowCount();
            if (next == positions.length) {
                break;
            }
            if (positions[next] >= end) {
                reader.skipNextRowGroup();
                first = end;
                continue;
            }
            columnReaders(reader.readNextRowGroup(), projection, columns, createdBy, readers, maxLevels);
            for (long position = first; position < end && next < positions.length; position++) {
                if (position == positions[next]) {
                    next++;
                    rows.add(values(readers, maxLevels));
                }
                consume(readers, maxLevels);
            }
            first = end;
        }
        return next == positions.length ? rows : null;
    }

    private static void columnReaders(PageReadStore pages, MessageType projection, Type[] columns, String createdBy,
                                      ColumnReader[] readers, int[] maxLevels) {
        ColumnReadStoreImpl store = new ColumnReadStoreImpl(pages, NO_CONVERTER, projection, createdBy);
        for (int c = 0; c < columns.length; c++) {
            ColumnDescriptor d = projection.getColumnDescription(new String[] {columns[c].getName()});
            readers[c] = store.getColumnReader(d);
            maxLevels[c] = d.getMaxDefinitionLevel();
        }
    }

    /** The current row's values, one a column. */
    private Object[] values(ColumnReader[] readers, int[] maxLevels) {
        Object[] row = new Object[readers.length];
        for (int c = 0; c < readers.length; c++) {
            row[c] = readers[c].getCurrentDefinitionLevel() < maxLevels[c] ? null : value(schema.field(c).type().kind(), readers[c]);
        }
        return row;
    }

    /** Moves every reader to the next row. */
    private static void consume(ColumnReader[] readers, int[] maxLevels) {
        for (int c = 0; c < readers.length; c++) {
            if (readers[c].getCurrentDefinitionLevel() == maxLevels[c]) {
                readers[c].skip(); // passes a value not read (a no-op after a read)
            }
            readers[c].consume();
        }
    }

    private Result scan(ParquetFileReader reader, MessageType projection, Type[] columns, String createdBy,
                        Roaring64NavigableMap deleted) throws IOException {
        LongIterator marks = deleted.getLongIterator();
        long nextMark = marks.hasNext() ? marks.next() : Long.MAX_VALUE;
        List<Object[]> rows = new ArrayList<>();
        long[] positions = new long[16];
        long[] codes = new long[keyAt.length];
        ColumnReader[] readers = new ColumnReader[columns.length];
        int[] maxLevels = new int[columns.length];
        long position = 0;
        long live = 0;
        PageReadStore pages;
        while ((pages = reader.readNextRowGroup()) != null) {
            columnReaders(pages, projection, columns, createdBy, readers, maxLevels);
            for (long n = pages.getRowCount(); n > 0; n--, position++) {
                boolean hit = false;
                if (position == nextMark) {
                    nextMark = marks.hasNext() ? marks.next() : Long.MAX_VALUE;
                } else {
                    live++;
                    for (int k = 0; k < keyAt.length; k++) {
                        ColumnReader r = readers[keyAt[k]];
                        codes[k] = r.getCurrentDefinitionLevel() < maxLevels[keyAt[k]] ? KeyProbe.NULL_CODE : code(probe.code(k), r);
                    }
                    hit = probe.mayHold(codes);
                }
                if (hit) {
                    if (rows.size() == positions.length) {
                        positions = Arrays.copyOf(positions, positions.length * 2);
                    }
                    positions[rows.size()] = position;
                    rows.add(values(readers, maxLevels));
                }
                consume(readers, maxLevels);
            }
        }
        return new Result(rows, Arrays.copyOf(positions, rows.size()), live, deleted);
    }

    /** The key code of a reader's current (not null) value, as {@code code} makes it of the value in memory. */
    private static long code(KeyProbe.Code code, ColumnReader r) {
        return switch (code) {
            case BYTE, SHORT, INT -> r.getInteger();
            case LONG -> r.getLong();
            case BOOLEAN -> r.getBoolean() ? 1 : 0;
            case FLOAT -> KeyProbe.mix(Float.floatToIntBits(r.getFloat()));
            case DOUBLE -> KeyProbe.mix(Double.doubleToLongBits(r.getDouble()));
            case STRING, BINARY -> KeyProbe.Code.hash(r.getBinary().toByteBuffer());
            case DECIMAL -> throw new IllegalStateException("a DECIMAL key is not read directly");
        };
    }

    /** A reader's current (not null) value as Kernel's reader gives it ({@code KernelRows.value}). */
    private static Object value(DataType.Kind kind, ColumnReader r) {
        return switch (kind) {
            case BYTE -> (byte) r.getInteger();
            case SHORT -> (short) r.getInteger();
            case INT, DATE -> r.getInteger();
            case LONG, TIMESTAMP, TIMESTAMP_NTZ -> r.getLong();
            case BOOLEAN -> r.getBoolean();
            case FLOAT -> r.getFloat();
            case DOUBLE -> r.getDouble();
            case STRING -> r.getBinary().toStringUsingUTF8();
            case BINARY -> r.getBinary().getBytes();
            default -> throw new IllegalStateException(kind + " is not read directly");
        };
    }

    /**
     * The file's top-level column of a table column: by its Parquet field id on a table whose columns have ids
     * (column mapping {@code id}), else by its physical name (the name without column mapping).
     */
    private static Type column(MessageType file, StructField field) {
        if (field.getMetadata().contains(ColumnMapping.ID)) {
            long id = ((Number) field.getMetadata().get(ColumnMapping.ID)).longValue();
            for (Type t : file.getFields()) {
                if (t.getId() != null && t.getId().intValue() == id) {
                    return t;
                }
            }
        }
        String name = ColumnMapping.physicalName(field);
        for (Type t : file.getFields()) {
            if (t.getName().equals(name)) {
                return t;
            }
        }
        return null;
    }

    /** True when a file's column is a flat column of the physical type Kernel reads {@code kind} from, in the same unit. */
    private static boolean matches(DataType.Kind kind, Type column) {
        if (!column.isPrimitive() || column.isRepetition(Type.Repetition.REPEATED)) {
            return false;
        }
        PrimitiveType p = column.asPrimitiveType();
        LogicalTypeAnnotation logical = p.getLogicalTypeAnnotation();
        return switch (kind) {
            case BYTE, SHORT, INT, DATE -> p.getPrimitiveTypeName() == PrimitiveTypeName.INT32
                    && !(logical instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation);
            case LONG -> p.getPrimitiveTypeName() == PrimitiveTypeName.INT64 && logical == null;
            case TIMESTAMP, TIMESTAMP_NTZ -> p.getPrimitiveTypeName() == PrimitiveTypeName.INT64
                    && logical instanceof LogicalTypeAnnotation.TimestampLogicalTypeAnnotation t
                    && t.getUnit() == LogicalTypeAnnotation.TimeUnit.MICROS;
            case BOOLEAN -> p.getPrimitiveTypeName() == PrimitiveTypeName.BOOLEAN;
            case FLOAT -> p.getPrimitiveTypeName() == PrimitiveTypeName.FLOAT;
            case DOUBLE -> p.getPrimitiveTypeName() == PrimitiveTypeName.DOUBLE;
            case STRING, BINARY -> p.getPrimitiveTypeName() == PrimitiveTypeName.BINARY;
            default -> false;
        };
    }
}
