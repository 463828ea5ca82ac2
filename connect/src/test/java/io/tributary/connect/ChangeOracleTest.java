package io.tributary.connect;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link ChangeOracle}'s history against Spark's of the same change batches ({@code golden/scd2}). */
class ChangeOracleTest {
    @ParameterizedTest
    @ValueSource(strings = {"case-1", "case-2"})
    void historyIsSparksOfTheGoldenChanges(String name) throws IOException {
        String changes = text("golden/scd2/" + name + "/batch-0.json") != null ? "golden/scd2/" + name + "/" : "golden/cdc/" + name + "/";
        List<String> values = new ArrayList<>();
        for (int n = 0; text(changes + "batch-" + n + ".json") != null; n++) {
            text(changes + "batch-" + n + ".json").lines().filter(l -> !l.isBlank()).forEach(values::add);
        }
        List<String> spark = text("golden/scd2/" + name + "/spark-history.txt").lines()
                .filter(l -> !l.isBlank() && !l.startsWith("#")).sorted().toList();
        assertThat(values).as("the case's changes").isNotEmpty();
        assertThat(ChangeOracle.versions(values, "name").stream().sorted().toList()).isEqualTo(spark);
    }

    private String text(String resource) throws IOException {
        try (InputStream in = getClass().getClassLoader().getResourceAsStream(resource)) {
            return in == null ? null : new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
