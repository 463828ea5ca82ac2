package io.tributary.service.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.schema.TributaryException;
import io.tributary.testing.Specs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PipelineSpecTest {
    static final String QUICKSTART = Specs.QUICKSTART;

    @TempDir
    Path dir;

    PipelineSpec load(String yaml, Map<String, String> env, Map<String, String> set) throws IOException {
        Path f = dir.resolve("pipeline.yaml");
        Files.writeString(f, yaml);
        return PipelineSpec.load(f, env, set);
    }

    @Test
    void theQuickstartSpecResolvesPathsAgainstItsFolder() throws IOException {
        PipelineSpec spec = load(QUICKSTART, Map.of(), Map.of());
        assertThat(spec.name()).isEqualTo("quickstart");
        assertThat(spec.path(Settings.FILES_PATH)).isEqualTo(dir.resolve("in"));
        assertThat(spec.path(Settings.SINK_PATH)).isEqualTo(dir.resolve("out"));
        assertThat(spec.trigger().kind()).isEqualTo(Trigger.Kind.AVAILABLE_NOW);
        assertThat(spec.stateDir()).isEqualTo(dir.resolve(".tributary/quickstart"));
        assertThat(spec.string(Settings.BAD_RECORD)).isEqualTo("deadLetter");
        assertThat(spec.map(Settings.KAFKA)).isEmpty();
    }

    @Test
    void environmentThenSetOverrideTheYaml() throws IOException {
        PipelineSpec spec = load(QUICKSTART,
                Map.of("TRIBUTARY_SOURCE_FILES_MAXFILESPERTRIGGER", "3", "TRIBUTARY_KAFKA_BOOTSTRAP_SERVERS", "k:9092", "HOME", "/root"),
                Map.of("trigger", "processingTime=1 minute", "kafka.security.protocol", "SASL_SSL"));
        assertThat(spec.integer(Settings.MAX_FILES)).isEqualTo(3);
        assertThat(spec.map(Settings.KAFKA)).containsEntry("bootstrap.servers", "k:9092").containsEntry("security.protocol", "SASL_SSL");
        assertThat(spec.trigger()).isEqualTo(new Trigger(Trigger.Kind.PROCESSING_TIME, Duration.ofMinutes(1)));
    }

    @Test
    void triggerAsAMappingIsSparksProcessingTime() throws IOException {
        PipelineSpec spec = load(QUICKSTART.replace("trigger: availableNow", "trigger: { processingTime: 30 seconds }"), Map.of(), Map.of());
        assertThat(spec.trigger().interval()).isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void theCommandLinesTriggerBeatsTheYamlsTriggerMapping() throws IOException {
        PipelineSpec spec = load(QUICKSTART.replace("trigger: availableNow", "trigger: { processingTime: 30 seconds }"),
                Map.of(), Map.of("trigger", "availableNow"));
        assertThat(spec.trigger().kind()).isEqualTo(Trigger.Kind.AVAILABLE_NOW);
    }

    @Test
    void anUnknownKeyIsNamedWithASuggestion() {
        assertThatThrownBy(() -> load(QUICKSTART + "outputmod: append\n", Map.of(), Map.of()))
                .isInstanceOf(TributaryException.class)
                .hasMessageContaining("unknown key 'outputmod'").hasMessageContaining("did you mean 'outputMode'");
    }

    @Test
    void aFormatOptionBesideTheFormatPointsToOptions() {
        assertThatThrownBy(() -> load(QUICKSTART.replace("    format: json\n", "    format: csv\n    multiline: true\n"), Map.of(), Map.of()))
                .isInstanceOf(TributaryException.class)
                .hasMessageContaining("line 6: unknown key 'source.files.multiline'")
                .hasMessageContaining("did you mean 'source.files.options.multiLine'");
    }

    @Test
    void aMissingRequiredKeyIsNamed() {
        assertThatThrownBy(() -> load(QUICKSTART.replace("    path: out/\n", "    mode: append\n"), Map.of(), Map.of()))
                .hasMessageContaining("missing required key 'sink.delta.path'");
    }

    @Test
    void aBadSchemaStringIsRejectedWithTheKeyAndTheColumn() {
        assertThatThrownBy(() -> load(QUICKSTART.replace("amt DOUBLE", "amt DUBBLE"), Map.of(), Map.of()))
                .hasMessageContaining("source.files.schema").hasMessageContaining("'amt'").hasMessageContaining("DOUBLE");
    }

    @Test
    void badValuesNameTheKeyAndTheFix() {
        assertThatThrownBy(() -> load(QUICKSTART, Map.of(), Map.of("source.files.onBadRecord", "ignore")))
                .hasMessageContaining("source.files.onBadRecord").hasMessageContaining("[deadLetter, drop, fail]");
        assertThatThrownBy(() -> load(QUICKSTART, Map.of(), Map.of("trigger", "sometimes")))
                .hasMessageContaining("availableNow");
        assertThatThrownBy(() -> load(QUICKSTART, Map.of(), Map.of("source.files.maxFilesPerTrigger", "many")))
                .hasMessageContaining("expected a whole number");
        assertThatThrownBy(() -> load(QUICKSTART, Map.of(), Map.of("aggregate.watermark", "5 fortnights")))
                .hasMessageContaining("\"5 minutes\"");
    }

    @Test
    void theAggregatesKeepTheSelectsOrder() throws IOException {
        PipelineSpec spec = load(QUICKSTART + """
                aggregate:
                  eventTime: ts
                  window: 10 minutes
                  groupBy: [user]
                  select: { s: sum(amt), c: count(*), av: avg(amt) }
                outputMode: complete
                """, Map.of(), Map.of());
        assertThat(spec.map(Settings.SELECT).keySet()).containsExactly("s", "c", "av");
    }

    @Test
    void aMappingBelowAPassThroughKeyGivesDottedKeys() throws IOException {
        PipelineSpec spec = load(QUICKSTART + """
                kafka:
                  bootstrap.servers: k:9092
                  ssl:
                    truststore: { location: /etc/ts.jks, type: JKS }
                """, Map.of(), Map.of());
        assertThat(spec.map(Settings.KAFKA)).containsExactly(Map.entry("bootstrap.servers", "k:9092"),
                Map.entry("ssl.truststore.location", "/etc/ts.jks"), Map.entry("ssl.truststore.type", "JKS"));
    }

    @Test
    void secretsAreMaskedInTheDescription() throws IOException {
        PipelineSpec spec = load(QUICKSTART, Map.of(), Map.of("kafka.sasl.jaas.config", "user=x password=y", "kafka.ssl.key.password", "z"));
        assertThat(spec.describe()).containsEntry("kafka.sasl.jaas.config", "******").containsEntry("kafka.ssl.key.password", "******");
        assertThat(spec.describe().toString()).doesNotContain("password=y");
    }
}
