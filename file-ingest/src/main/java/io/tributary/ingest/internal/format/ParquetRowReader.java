package io.tributary.ingest.internal.format;

import io.tributary.schema.Schema;
import java.io.IOException;
import java.nio.file.Path;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.ColumnIOFactory;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.io.MessageColumnIO;
import org.apache.parquet.io.ParquetDecodingException;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.RecordMaterializer;
import org.apache.parquet.schema.MessageType;

/**
 * The rows of a Parquet file, row group by row group, read with parquet-mr's record reader into
 * the schema's rows ({@link ParquetConverters}). A file Parquet cannot read is an error for the
 * whole file (as in Spark, where it fails the query); a record's number is its row in the file.
 */
final class ParquetRowReader implements RecordReader {
    private final ParquetFileReader reader;
    private final MessageType requested;
    private final MessageColumnIO columns;
    private final ParquetConverters.Root root;
    private final RecordMaterializer<Object[]> materializer;
    private final String name;
    private org.apache.parquet.io.RecordReader<Object[]> records;
    private long left;
    private long row;
    private Object[] current;

    ParquetRowReader(Path file, Schema schema, String name) throws IOException {
        this.name = name;
        try {
            this.reader = ParquetFileReader.open(new LocalInputFile(file), ParquetReadOptions.builder(new PlainParquetConfiguration()).build());
        } catch (IOException | RuntimeException e) {
            throw new CorruptFileException("parquet", -1, "it is not a Parquet file Tributary can read (" + e.getMessage()
                    + "): check that it is whole (not still being written) and is Parquet", e);
        }
        try {
            MessageType fileSchema = reader.getFooter().getFileMetaData().getSchema();
            this.requested = ParquetConverters.requested(fileSchema, schema, name);
            reader.setRequestedSchema(requested);
            this.columns = new ColumnIOFactory().getColumnIO(requested, fileSchema, true);
            this.root = ParquetConverters.root(requested, schema, name);
            this.materializer = new RecordMaterializer<>() {
                @Override
                public Object[] getCurrentRecord() {
                    return root.row();
                }

                @Override
                public GroupConverter getRootConverter() {
                    return root;
                }
            };
        } catch (RuntimeException e) {
            reader.close();
            throw e;
        }
    }

    @Override
    public boolean next() throws IOException {
        try {
            while (left == 0) {
                PageReadStore pages = reader.readNextRowGroup();
                if (pages == null) {
                    return false;
                }
                left = pages.getRowCount();
                records = columns.getRecordReader(pages, materializer);
            }
            left--;
            row++;
            current = requested.getFieldCount() == 0 ? new Object[rootSize()] : records.read();
            return true;
        } catch (IOException | ParquetDecodingException | IllegalArgumentException e) {
            throw new CorruptFileException("parquet", -1, "row " + (row + 1) + " of the Parquet file cannot be decoded ("
                    + e.getMessage() + "): the file is damaged", e);
        }
    }

    private int rootSize() {
        root.start();
        return root.row().length;
    }

    @Override
    public Object[] row() {
        return current;
    }

    @Override
    public long line() {
        return row;
    }

    @Override
    public Text text(int maxBytes) {
        return new Text("", false);
    }

    @Override
    public void close() throws IOException {
        reader.close();
    }
}
