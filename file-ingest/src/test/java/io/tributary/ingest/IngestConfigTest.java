package io.tributary.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class IngestConfigTest {
    static final Schema SCHEMA = Schema.parse("id INT, user STRING, amt DOUBLE, ts TIMESTAMP");
    static final Path IN = Path.of("in");

    @Test
    void defaultsFollowTheTopicContractAndSpark() {
        IngestConfig c = IngestConfig.builder("quickstart", IN, SCHEMA).build();
        assertThat(c.eventsTopic()).isEqualTo("tributary.quickstart.events");
        assertThat(c.ingestLogTopic()).isEqualTo("tributary.quickstart.ingest-log");
        assertThat(c.deadLetterTopic()).isEqualTo("tributary.quickstart.deadletter");
        assertThat(c.transactionalId()).isEqualTo("tributary-quickstart-ingest");
        assertThat(c.onBadRecord()).isSameAs(BadRecordPolicy.DEAD_LETTER);
        assertThat(c.maxFilesPerTrigger()).isEqualTo(Integer.MAX_VALUE);
        assertThat(c.maxBytesPerTrigger()).isEqualTo(Long.MAX_VALUE);
        assertThat(c.fileMinAge()).isEqualTo(Duration.ZERO);
        assertThat(c.maxLineBytes()).isEqualTo(16 * 1024 * 1024);
        assertThat(c.hasWatermark()).isFalse();
        assertThat(c.groupBy()).isEmpty();
        assertThat(c.cleanSource()).isSameAs(CleanSource.OFF);
    }

    @Test
    void cleanSourceTakesSparksValuesAndArchiveNeedsAFolderOutsideTheInput(@org.junit.jupiter.api.io.TempDir Path tmp) {
        assertThat(CleanSource.forName("DELETE", null)).isSameAs(CleanSource.DELETE);
        assertThat(CleanSource.forName(null, null)).isSameAs(CleanSource.OFF);
        assertThatThrownBy(() -> CleanSource.forName("archive", null)).isInstanceOf(TributaryException.class)
                .hasMessageContaining("source.files.sourceArchiveDir");
        assertThatThrownBy(() -> CleanSource.forName("move", null)).hasMessageContaining("off").hasMessageContaining("delete");
        Path in = tmp.resolve("in");
        for (Path inside : List.of(in, in.resolve("archive"), tmp.resolve("x/../in/done"))) {
            assertThatThrownBy(() -> IngestConfig.builder("p", in, SCHEMA).cleanSource(CleanSource.archiveTo(inside)).build())
                    .isInstanceOf(TributaryException.class)
                    .hasMessageContaining("sourceArchiveDir").hasMessageContaining("inside the input folder");
        }
        assertThat(IngestConfig.builder("p", in, SCHEMA).cleanSource(CleanSource.archiveTo(tmp.resolve("done"))).build().cleanSource().name())
                .isEqualTo("archive");
    }

    @Test
    void eventTimeMustBeATimestampColumnOfTheSchema() {
        assertThatThrownBy(() -> IngestConfig.builder("p", IN, SCHEMA).eventTime("when").build())
                .isInstanceOf(TributaryException.class).hasMessageContaining("eventTime").hasMessageContaining("'when'");
        assertThatThrownBy(() -> IngestConfig.builder("p", IN, SCHEMA).eventTime("amt").build())
                .isInstanceOf(TributaryException.class).hasMessageContaining("TIMESTAMP");
        assertThat(IngestConfig.builder("p", IN, SCHEMA).eventTime("TS").watermarkDelay(Duration.ofMinutes(5)).build().hasWatermark())
                .isTrue();
    }

    @Test
    void aWatermarkNeedsEventTime() {
        assertThatThrownBy(() -> IngestConfig.builder("p", IN, SCHEMA).watermarkDelay(Duration.ofMinutes(5)).build())
                .isInstanceOf(TributaryException.class).hasMessageContaining("set eventTime");
    }

    @Test
    void groupByColumnsMustExist() {
        assertThatThrownBy(() -> IngestConfig.builder("p", IN, SCHEMA).groupBy(List.of("usr")).build())
                .isInstanceOf(TributaryException.class).hasMessageContaining("groupBy").hasMessageContaining("'usr'");
    }

    @Test
    void limitsMustBePositiveAndFormatsKnown() {
        assertThatThrownBy(() -> IngestConfig.builder("p", IN, SCHEMA).maxFilesPerTrigger(0).build())
                .hasMessageContaining("maxFilesPerTrigger");
        assertThatThrownBy(() -> IngestConfig.builder("p", IN, SCHEMA).maxBytesPerTrigger(0).build())
                .hasMessageContaining("maxBytesPerTrigger");
        assertThatThrownBy(() -> IngestConfig.builder("p", IN, SCHEMA).format("avro").build())
                .hasMessageContaining("'avro'").hasMessageContaining("json, csv, parquet or text");
        assertThatThrownBy(() -> IngestConfig.builder("p", IN, SCHEMA).format("csv").formatOptions(Map.of("samplingRatio", "0.5")).build())
                .hasMessageContaining("source.files.options.samplingRatio").hasMessageContaining("header");
        assertThatThrownBy(() -> IngestConfig.builder("p", IN, SCHEMA).format("csv").formatOptions(Map.of("inferSchema", "yes")).build())
                .hasMessageContaining("source.files.options.inferschema").hasMessageContaining("not true or false");
        assertThatThrownBy(() -> IngestConfig.builder("p", IN, SCHEMA).format("text").build())
                .hasMessageContaining("one STRING column");
        assertThatThrownBy(() -> IngestConfig.builder("p", IN, Schema.parse("id INT, tags ARRAY<STRING>")).format("csv").build())
                .hasMessageContaining("'tags'").hasMessageContaining("CSV");
        assertThatThrownBy(() -> IngestConfig.builder("p", IN, SCHEMA).formatOptions(Map.of("timestampFormat", "yyyy-MM-dd HH:mm:ss qqqqqq")).build())
                .hasMessageContaining("timestampFormat");
        assertThatThrownBy(() -> IngestConfig.builder("bad name", IN, SCHEMA).build())
                .hasMessageContaining("pipeline name");
    }

    @Test
    void badRecordPoliciesByTheirNameOrSparksMode() {
        assertThat(BadRecordPolicy.forName("deadLetter")).isSameAs(BadRecordPolicy.DEAD_LETTER);
        assertThat(BadRecordPolicy.forName("PERMISSIVE")).isSameAs(BadRecordPolicy.DEAD_LETTER);
        assertThat(BadRecordPolicy.forName("drop")).isSameAs(BadRecordPolicy.DROP);
        assertThat(BadRecordPolicy.forName("DropMalformed")).isSameAs(BadRecordPolicy.DROP);
        assertThat(BadRecordPolicy.forName("fail")).isSameAs(BadRecordPolicy.FAIL);
        assertThat(BadRecordPolicy.forName("FAILFAST")).isSameAs(BadRecordPolicy.FAIL);
        assertThatThrownBy(() -> BadRecordPolicy.forName("ignore")).isInstanceOf(TributaryException.class)
                .hasMessageContaining("deadLetter").hasMessageContaining("drop").hasMessageContaining("fail");
    }

    @Test
    void failNamesFileLineAndField() {
        BadRecord bad = new BadRecord("b.json", 7, "amt", "expected DOUBLE, found a string", "{}", false);
        assertThatThrownBy(() -> BadRecordPolicy.FAIL.onBadRecord(bad)).isInstanceOf(TributaryException.class)
                .hasMessageStartingWith("bad record in b.json:7, field 'amt': expected DOUBLE");
        assertThat(BadRecordPolicy.DROP.onBadRecord(bad)).isEqualTo(BadRecordPolicy.Action.DROP);
        assertThat(BadRecordPolicy.DEAD_LETTER.onBadRecord(bad)).isEqualTo(BadRecordPolicy.Action.DEAD_LETTER);
    }
}
