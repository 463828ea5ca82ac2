package io.tributary.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The aggregations the fuzz found the engine giving otherwise than Spark 4.2 (golden/aggregate-fuzz): each case's three runs
 * over the fuzz's edge rows give Spark's columns, each batch's rows and the table after each run, doubles to the bit, or fail
 * with Spark's error condition in the run where Spark's query failed.
 */
class GoldenAggregateFuzzTest {
    @TempDir
    Path stateDir;

    @ParameterizedTest
    @ValueSource(strings = {"var-pop-of-decimals", "stddev-pop-past-overflow", "first-ignore-nulls", "avg-decimal-out-of-range",
        "collect-list-negative-zero", "median-negative-zero", "sum-decimal-overflow", "mode-ties-int", "mode-ties-double", "mode-ties-decimal",
        "mode-negative-zero"})
    void theAggregationGivesSparksRunsOverTheEdgeRows(String name) throws IOException {
        List<AggregateFuzzCase.Difference> differences = AggregateFuzzCase.replay(file -> lines(name, file), stateDir);
        assertThat(differences).as("%s: the engine's differences from Spark", name).isEmpty();
    }

    /** A file of the case's folder ({@code ../input/...} the shared input), or null when there is none. */
    private static List<String> lines(String name, String file) {
        String path = "/golden/" + Path.of("aggregate-fuzz", name, file).normalize().toString().replace('\\', '/');
        try (InputStream in = GoldenAggregateFuzzTest.class.getResourceAsStream(path)) {
            return in == null ? null : Arrays.asList(new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
