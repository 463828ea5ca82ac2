package io.tributary.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SpecsTest {
    @TempDir
    Path dir;

    @Test
    void theQuickstartIsTheExampleWithoutItsComments() throws Exception {
        String example = Files.readAllLines(Specs.QUICKSTART_EXAMPLE.resolve("pipeline.yaml")).stream()
                .map(l -> l.replaceAll("\\s*#.*$", "")).filter(l -> !l.isBlank()).collect(Collectors.joining("\n", "", "\n"));
        assertThat(Specs.QUICKSTART).isEqualTo(example);
        assertThat(Specs.quickstart("t")).startsWith("name: t\nsource:\n").endsWith("trigger: availableNow\n");
    }

    @Test
    void theExampleIsCopiedWithItsInput() throws Exception {
        Path spec = Specs.copyQuickstartExample(dir.resolve("quickstart"));
        assertThat(spec).hasSameTextualContentAs(Specs.QUICKSTART_EXAMPLE.resolve("pipeline.yaml"));
        try (var in = Files.list(spec.resolveSibling("in"))) {
            assertThat(in.map(p -> p.getFileName().toString())).isNotEmpty().allMatch(n -> n.endsWith(".json"));
        }
    }
}
