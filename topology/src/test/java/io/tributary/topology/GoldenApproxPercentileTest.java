package io.tributary.topology;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.expressions.SqlQuery;
import io.tributary.expressions.SelectItems;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Spark 4.2's percentile_approx and approx_percentile streamed in update mode (golden/aggregate-functions/approx-percentile.tsv,
 * the {@code stream} lines of compat/spark SparkApproxPercentile): 14,000 rows in three batches, 1,000 to an events record as
 * file-ingest packs them (a batch's rows fold into a summary held in memory between commits), each batch's summary compressed
 * and merged into the stored one as Spark merges them, give each batch's rows Spark gives, of DOUBLE, INT and TIMESTAMP, to the bit.
 */
class GoldenApproxPercentileTest {
    private static final Duration DELAY = Duration.ofMinutes(5);
    private static final int[] BATCHES = {6000, 3000, 5000};
    private static final String QUERY = "SELECT window(ts, '10 minutes') AS w, user, percentile_approx(amt, 0.5) AS p1,"
            + " percentile_approx(amt, array(0.01, 0.25, 0.5, 0.75, 0.99), 100) AS p2, approx_percentile(id, array(0.9, 0.1), 1000) AS p3,"
            + " percentile_approx(ts, 0.5, 50) AS p4 FROM source GROUP BY window(ts, '10 minutes'), user";

    @TempDir
    Path stateDir;

    /** Row i of SparkApproxPercentile's stream. */
    static String row(long i) {
        long id = (i * 2654435761L) % 100003 - 50000;
        String amt = i % 997 == 0 ? "null" : Double.toString(((i * 40503L) % 65537) / 16.0 - 1000.0);
        Instant ts = Instant.parse("2026-10-06T09:00:00Z").plusMillis((i * 7919L) % 600000);
        return "{\"id\": " + id + ", \"user\": \"" + (i % 10 == 0 ? "b" : "a") + "\", \"amt\": " + amt + ", \"ts\": \"" + ts + "\"}";
    }

    @Test
    void eachBatchsEstimatesAreSparksAfterTheBatchesMerge() throws IOException {
        SqlQuery.Aggregation query = SqlQuery.parse(QUERY).aggregation();
        AggregateSpec spec = AggregateSpec.builder().eventTime(query.eventTime()).watermark(DELAY).window(Duration.ofMinutes(10))
                .windowColumn(query.windowColumn()).groupBy(query.groupBy().stream().map(SelectItems::name).toList())
                .select(query.select()).columns(query.columns()).outputMode(OutputMode.UPDATE).build(AggregationDriver.seedSchema());
        assertThat(spec.outputSchema().toDdl()).as("Spark's types: the input's").isEqualTo("w STRUCT<start: TIMESTAMP, end: TIMESTAMP>,"
                + " user STRING, p1 DOUBLE, p2 ARRAY<DOUBLE>, p3 ARRAY<INT>, p4 TIMESTAMP");
        List<List<String>> batches = new ArrayList<>();
        long i = 0;
        for (int size : BATCHES) {
            List<String> rows = new ArrayList<>();
            for (int n = 0; n < size; n++) {
                rows.add(row(i++));
            }
            batches.add(rows);
        }
        List<String> written = new ArrayList<>();
        try (AggregationDriver driver = AggregationDriver.packing(spec, stateDir, 1000)) {
            new SparkBatches(driver, DELAY).run(batches);
            List<String> pending = new ArrayList<>();
            for (AggregationDriver.Output o : driver.drain()) {
                if (!o.marker()) {
                    Object[] r = o.row();
                    pending.add(r[1] + "\t" + r[2] + "\t" + r[3] + "\t" + r[4] + "\t" + r[5]);
                    continue;
                }
                long batch = new ObjectMapper().readTree(o.value()).get("batchId").asLong();
                pending.forEach(p -> written.add("stream\t" + batch + "\t" + p));
                pending.clear();
            }
        }
        List<String> spark = golden().stream().filter(l -> l.startsWith("stream\t")).toList();
        assertThat(spark).as("Spark's rows: both groups in each of three batches").hasSize(6);
        assertThat(written).containsExactlyInAnyOrderElementsOf(spark);
    }

    private static List<String> golden() throws IOException {
        try (InputStream in = GoldenApproxPercentileTest.class.getResourceAsStream("/golden/aggregate-functions/approx-percentile.tsv")) {
            assertThat(in).isNotNull();
            return Arrays.asList(new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n"));
        }
    }
}
