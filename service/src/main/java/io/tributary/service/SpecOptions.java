package io.tributary.service;

import io.tributary.service.logging.LogFormat;
import io.tributary.service.spec.PipelineSpec;
import io.tributary.service.spec.Settings;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The spec file and its overrides, shared by every command that reads a spec. */
final class SpecOptions {
    @Parameters(index = "0", paramLabel = "SPEC", description = "the pipeline spec (YAML)")
    Path spec;

    @Option(names = "--set", paramLabel = "KEY=VALUE", description = "override a spec key, e.g. --set source.files.maxFilesPerTrigger=1 (repeatable)")
    Map<String, String> overrides = new LinkedHashMap<>();

    @Option(names = "--trigger", paramLabel = "TRIGGER", description = "override the spec's trigger: availableNow, once, processingTime=<interval>, default")
    String trigger;

    PipelineSpec load() {
        Map<String, String> o = new LinkedHashMap<>(overrides);
        if (trigger != null) {
            o.put("trigger", trigger);
        }
        PipelineSpec loaded = PipelineSpec.load(spec, System.getenv(), o);
        LogFormat.use(LogFormat.parse(loaded.string(Settings.LOG_FORMAT)));
        return loaded;
    }
}
