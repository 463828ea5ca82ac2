package io.tributary.topology;

import static io.tributary.topology.GoldenAggregateReplay.golden;
import static io.tributary.topology.GoldenAggregateReplay.readJson;
import static io.tributary.topology.GoldenAggregateReplay.sketches;
import static io.tributary.topology.GoldenAggregateReplay.sourceSchema;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Spark 4.2's tuple sketch aggregates (the repository's golden/aggregate-functions): tuple_sketch_agg_double and _integer of keys of
 * several types with summaries combined by each mode, at lgNomEntries 4 to 26, in update and append mode over two runs, past the
 * nominal entries over hundreds of rows (update-tuple-many), of keys and summaries Spark casts (TIMESTAMP, DATE, BOOLEAN keys, STRING,
 * DOUBLE and BIGINT summaries: update-tuple-casts), and tuple_union_agg_* and tuple_intersection_agg_* of sketches; and the
 * Theta and KLL sketch aggregates in complete mode, every window written by every batch. Each batch's rows and the table after each
 * run are Spark's, the sketches byte for byte (a KLL sketch past k, which the library compacts at random, by its count and extremes).
 */
class GoldenSketchAggregatesTest {
    @TempDir
    Path stateDir;

    /** @param rowsPerRecord 1, or 1,000 rows packed into an events record, folded in memory and encoded once at the commit */
    @ParameterizedTest
    @ValueSource(ints = {1, 1000})
    void tupleSketchesGiveSparksBatchesAndTable(int rowsPerRecord) throws IOException {
        for (String name : List.of("update-tuple", "append-tuple", "update-tuple-many", "update-tuple-casts")) {
            JsonNode c = golden(name);
            GoldenAggregateReplay.replay(stateDir.resolve(name + rowsPerRecord), name, c, c.get("query").asText(), sourceSchema(c),
                    UnaryOperator.identity(), rowsPerRecord);
        }
    }

    /** In complete mode each batch writes every window: the kept sketches merged with each batch's as Spark merges them. */
    @ParameterizedTest
    @ValueSource(strings = {"complete-theta", "complete-kll"})
    void thetaAndKllSketchesInCompleteModeGiveSparksBatchesAndTable(String name) throws IOException {
        JsonNode c = golden(name);
        GoldenAggregateReplay.replay(stateDir, name, c, c.get("query").asText(), sourceSchema(c), UnaryOperator.identity(), 1);
    }

    /**
     * tuple_union_agg_* and tuple_intersection_agg_* over sketches Spark's query picks with IF (X'..' of keys 1..5, 3..8, 1,000 keys
     * at lgNomEntries 4; integers of 1..5 and 3..8 in max mode): the same sketches given as BINARY columns give Spark's unions and
     * intersections byte for byte, in each mode, and a null sketch skipped.
     */
    @Test
    void tupleUnionAndIntersectionAggOfSketchesGiveSparksAcrossBatches() throws IOException {
        JsonNode c = golden("update-tuple-sets");
        List<String> s = sketches(c); // D1, D2, DL, D2, D1, D2, I1, I2, I1, I2 as the query writes them
        String query = "SELECT window(ts, '10 minutes') AS window, user, hex(tuple_union_agg_double(s1)) AS a, tuple_sketch_summary_double("
                + "tuple_union_agg_double(s2, 5, 'max')) AS b, hex(tuple_intersection_agg_double(s1, 'min')) AS c, hex(tuple_union_agg_integer("
                + "s3, 12, 'sum')) AS d, hex(tuple_intersection_agg_integer(s4)) AS e FROM source GROUP BY window(ts, '10 minutes'), user";
        GoldenAggregateReplay.replay(stateDir, "update-tuple-sets", c, query, io.tributary.schema.Schema.parse("id INT, user STRING,"
                + " amt DOUBLE, ts TIMESTAMP, s1 BINARY, s2 BINARY, s3 BINARY, s4 BINARY"), line -> {
                    // IF(id % 2 = 0, D1, D2), IF(amt IS NULL, NULL, IF(id > 5, DL, D2)), IF(id % 2 = 0, I1, I2), IF(id > 3, I1, I2)
                    JsonNode r = readJson(line);
                    int id = r.get("id").asInt();
                    String s2 = r.get("amt").isNull() ? "null" : "\"" + (id > 5 ? s.get(2) : s.get(1)) + "\"";
                    return line.substring(0, line.lastIndexOf('}')) + ", \"s1\": \"" + (id % 2 == 0 ? s.get(0) : s.get(1)) + "\", \"s2\": "
                            + s2 + ", \"s3\": \"" + (id % 2 == 0 ? s.get(6) : s.get(7)) + "\", \"s4\": \"" + (id > 3 ? s.get(6) : s.get(7))
                            + "\"}";
                }, 1);
    }
}
