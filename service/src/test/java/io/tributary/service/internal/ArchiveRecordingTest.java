package io.tributary.service.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.tributary.expressions.Transform;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ArchiveRecordingTest {
    /** The training run's spec in the launcher ({@code bin/tributary cds}), between {@code <<'SPEC'} and {@code SPEC}. */
    private static JsonNode trainingSpec() throws IOException {
        String launcher = Files.readString(Path.of("src/main/dist/bin/tributary"));
        int start = launcher.indexOf("<<'SPEC'\n") + "<<'SPEC'\n".length();
        int end = launcher.indexOf("\nSPEC\n", start);
        return new ObjectMapper(new YAMLFactory()).readTree(launcher.substring(start, end));
    }

    @Test
    void aRecordingRunCompilesTheTrainingRunsTransform() throws IOException {
        JsonNode transform = trainingSpec().get("transform");
        List<String> select = new ArrayList<>();
        transform.get("select").forEach(item -> select.add(item.asText()));
        assertThat(ArchiveRecording.WHERE).isEqualTo(transform.get("where").asText());
        assertThat(ArchiveRecording.SELECT).isEqualTo(select);
        assertThat(trainingSpec().at("/source/files/schema").asText()).isEqualTo(ArchiveRecording.ROWS.toDdl());
    }

    @Test
    void theTransformItLoadsCompilesAndGivesItsRow() {
        Transform t = Transform.compile(ArchiveRecording.ROWS, ArchiveRecording.WHERE, ArchiveRecording.SELECT);
        Object[] row = t.apply(new Object[] {1, "alice", 1.5, 1_704_103_200_000_000L});
        assertThat(t.output().size()).isEqualTo(4 + 12);
        assertThat(row).containsSubsequence(1, "alice", 1.5, 1_704_103_200_000_000L, "ALICE", "alice", "alice-1", "al");
    }
}
