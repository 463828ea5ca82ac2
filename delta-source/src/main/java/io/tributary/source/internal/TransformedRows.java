package io.tributary.source.internal;

import io.tributary.expressions.ExpressionException;
import io.tributary.expressions.RowTransform;
import io.tributary.schema.RowJson;
import io.tributary.schema.Schema;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.function.Consumer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pipeline's transform (joins, where, select) over the rows a Delta source reads: each row read gives the
 * rows the transform makes, and a row an expression fails on (Spark's ANSI mode) is a dead letter, sent in the
 * batch's transaction, naming the table, the version and the file it came from, the expression and the reason.
 */
public final class TransformedRows {
    private static final Logger LOG = LoggerFactory.getLogger(TransformedRows.class);
    /** The most of a failing row's text kept in a dead letter, as the file source keeps of a bad line. */
    private static final int MAX_TEXT_BYTES = 64 * 1024;
    private static final com.fasterxml.jackson.databind.ObjectMapper JSON = new com.fasterxml.jackson.databind.ObjectMapper();

    private final RowTransform transform;
    private final String tablePath;
    private final String stage;
    private final String deadLetterTopic;
    private final RowJson input;
    private long failed;

    public TransformedRows(RowTransform transform, String tablePath, String stage, String deadLetterTopic, Schema input) {
        this.transform = transform;
        this.tablePath = tablePath;
        this.stage = stage;
        this.deadLetterTopic = deadLetterTopic;
        this.input = new RowJson(input);
    }

    /** The schema of the rows published. */
    public Schema output() {
        return transform.output();
    }

    /** At a batch's start: a join's table is read again when it has a new version, and {@code batchStart} is current_timestamp(). */
    public void startBatch(Instant batchStart) {
        transform.startBatch(batchStart);
    }

    /** The rows failed so far. */
    public long failed() {
        return failed;
    }

    /**
     * Hands the rows {@code row} (read from {@code file}) makes to {@code out}; a row an expression fails on
     * goes to the dead-letter topic through {@code send}, in the batch's transaction.
     */
    public void apply(DataFile file, Object[] row, Consumer<Object[]> out, Consumer<ProducerRecord<byte[], byte[]>> send) {
        List<Object[]> rows;
        try {
            rows = transform.apply(row);
        } catch (ExpressionException e) {
            failed++;
            deadLetter(file, row, e, send);
            return;
        }
        for (Object[] r : rows) {
            out.accept(r);
        }
    }

    private void deadLetter(DataFile file, Object[] row, ExpressionException e, Consumer<ProducerRecord<byte[], byte[]>> send) {
        String reason = "expression \"" + e.expression() + "\" fails: " + e.condition() + ": " + e.reason();
        String where = "table " + tablePath + " version " + file.version() + " file " + file.path();
        LOG.warn("delta-source {}: a row of {}: {}; sent to dead-letter topic {}", stage, where, reason, deadLetterTopic);
        byte[] text = input.write(row);
        int kept = Math.min(text.length, MAX_TEXT_BYTES);
        var letter = JSON.createObjectNode().put("stage", stage).put("table", tablePath).put("version", file.version())
                .put("file", file.path()).put("reason", reason)
                .put("text", new String(text, 0, kept, StandardCharsets.UTF_8)).put("textTruncated", kept < text.length);
        try {
            byte[] key = (tablePath + "@" + file.version()).getBytes(StandardCharsets.UTF_8);
            send.accept(new ProducerRecord<>(deadLetterTopic, key, JSON.writeValueAsBytes(letter)));
        } catch (com.fasterxml.jackson.core.JsonProcessingException x) {
            throw new IllegalStateException(x);
        }
    }
}
