package io.tributary.expressions;

import io.tributary.schema.Schema;
import java.time.Instant;
import java.util.List;

/**
 * A pipeline's row transform as a source applies it to each row it reads: Spark's stream-static joins
 * ({@code transform.join}), then {@code where}, then {@code select}, compiled once over the source's
 * schema. A stage that reads rows (a Delta table, a Kafka topic) applies it without knowing how it was
 * written; the file source's config makes it ({@code IngestConfig.rowTransform()}).
 */
public interface RowTransform {
    /** The rows as they are: no join, no where, no select. */
    static RowTransform identity(Schema schema) {
        return new RowTransform() {
            @Override
            public Schema output() {
                return schema;
            }

            @Override
            public boolean isIdentity() {
                return true;
            }

            @Override
            public void refresh() {
            }

            @Override
            public List<Object[]> apply(Object[] row) {
                return java.util.Collections.singletonList(row);
            }
        };
    }

    /** The schema of the rows {@link #apply} gives. */
    Schema output();

    /** True when every row is given as it is (the reader may skip the call). */
    boolean isIdentity();

    /** At a batch's start: reads a join's table again when it has a new version (Spark re-reads the static side each batch). */
    void refresh();

    /**
     * At a batch's start, before its first row: {@link #refresh}, and {@code batchStart} becomes the value every row of the
     * batch reads as Spark's {@code current_timestamp()}, {@code current_date()} and their cousins.
     */
    default void startBatch(Instant batchStart) {
        refresh();
    }

    /**
     * The rows one input row makes: none when {@code where} drops it (or an inner join finds no match),
     * several when a join matches several table rows.
     *
     * @throws ExpressionException when an expression fails on the row (Spark's ANSI mode): none of its rows is given
     */
    List<Object[]> apply(Object[] row);
}
