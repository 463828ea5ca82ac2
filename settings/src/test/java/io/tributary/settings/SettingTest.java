package io.tributary.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.schema.TributaryException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** One definition parses a value wherever it is written, and its errors name the key as written there. */
class SettingTest {
    private static final Setting<Integer> MAX_FILES = Setting.integer("maxFilesPerTrigger", "at most this many").within(1, Integer.MAX_VALUE);
    private static final Setting<Long> SIZE = Setting.bytes("targetFileSize", "file size").withDefault("128m");
    private static final Setting<Duration> AGE = Setting.duration("fileMinAge", "age").withDefault("0 seconds");
    private static final Setting<String> MODE = Setting.oneOf("mode", "mode", "append", "upsert").withDefault("append");
    private static final Setting<Boolean> MERGE = Setting.bool("mergeSchema", "merge").withDefault("false");
    private static final Setting<List<String>> KEYS = Setting.list("keys", "keys");
    private static final List<Setting<?>> ALL = List.of(MAX_FILES, SIZE, AGE, MODE, MERGE, KEYS);

    @Test
    void valuesAreParsedByTheirKind() {
        Values v = Values.of(ALL, Map.of("maxFilesPerTrigger", " 7 ", "targetFileSize", "16 MiB", "fileMinAge", "interval 2 weeks",
                "mode", "UPSERT", "mergeSchema", "True", "keys", "id, , day"));
        assertThat(v.get(MAX_FILES)).isEqualTo(7);
        assertThat(v.get(SIZE)).isEqualTo(16L << 20);
        assertThat(v.get(AGE)).isEqualTo(Duration.ofDays(14));
        assertThat(v.get(MODE)).isEqualTo("upsert");
        assertThat(v.get(MERGE)).isTrue();
        assertThat(v.get(KEYS)).containsExactly("id", "day");
    }

    @Test
    void defaultsApplyWhenAValueIsNotGivenAndASettingThePlaceLacksIsNull() {
        Values v = Values.of(List.of(SIZE, MODE), Map.of());
        assertThat(v.get(SIZE)).isEqualTo(128L << 20);
        assertThat(v.has(SIZE)).isFalse();
        assertThat(v.get(MODE)).isEqualTo("append");
        assertThat(v.get(AGE)).as("not a setting of this place: the stage keeps its own default").isNull();
    }

    @Test
    void errorsNameTheKeyAsThePlaceWritesIt() {
        Values spec = Values.localized(ALL, s -> s.under("source.files"),
                Map.of("source.files.maxFilesPerTrigger", "0", "source.files.targetFileSize", "huge",
                        "source.files.fileMinAge", "soon", "source.files.mode", "merge")::get, (s, t, e) -> e);
        assertThatThrownBy(() -> spec.get(MAX_FILES)).isInstanceOf(TributaryException.class)
                .hasMessage("key 'source.files.maxFilesPerTrigger' is '0'; give a whole number of at least 1");
        assertThatThrownBy(() -> spec.get(SIZE))
                .hasMessage("key 'source.files.targetFileSize' is 'huge'; expected a size such as 1048576, 16m or 128 MiB");
        assertThatThrownBy(() -> spec.get(AGE)).hasMessageStartingWith("key 'source.files.fileMinAge' is 'soon'; expected a duration");
        assertThatThrownBy(() -> spec.get(MODE)).hasMessage("key 'source.files.mode' is 'merge'; use one of [append, upsert]");
        assertThat(spec.name(MAX_FILES)).isEqualTo("source.files.maxFilesPerTrigger");
    }

    @Test
    void aPlaceMayRenameASettingAndChangeItsDefault() {
        Values connector = Values.localized(List.of(MAX_FILES, SIZE), s -> s == SIZE ? SIZE.named("delta.fileSize").withDefault("8m") : s,
                Map.of("delta.fileSize", "1g")::get, (s, t, e) -> new IllegalArgumentException(s.key() + "=" + t, e));
        assertThat(connector.get(SIZE)).isEqualTo(1L << 30);
        assertThat(connector.name(SIZE)).isEqualTo("delta.fileSize");
        Values defaults = Values.localized(List.of(SIZE), s -> SIZE.named("delta.fileSize").withDefault("8m"), k -> null, (s, t, e) -> e);
        assertThat(defaults.get(SIZE)).isEqualTo(8L << 20);
        Values bad = Values.localized(List.of(SIZE), s -> SIZE.named("delta.fileSize"), k -> "-1", (s, t, e) ->
                new IllegalArgumentException(s.key() + "=" + t + ": " + ((Setting.Invalid) e).problem()));
        assertThatThrownBy(() -> bad.get(SIZE)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("delta.fileSize=-1: expected a size such as 1048576, 16m or 128 MiB");
    }

    @Test
    void aMapSettingIsGivenByTheKeysBelowIt() {
        Setting<Map<String, String>> options = Setting.map("options", "format options");
        Values spec = new Values(Map.of("options", options.under("source.files")), s -> null,
                s -> s.key().equals("source.files.options") ? Map.of("header", "true") : Map.of(), (s, t, e) -> e);
        assertThat(spec.has(options)).isTrue();
        assertThat(spec.map(options)).containsEntry("header", "true");
        Values none = new Values(Map.of("options", options.under("source.files")), s -> null, s -> Map.of(), (s, t, e) -> e);
        assertThat(none.has(options)).isFalse();
    }

    @Test
    void aChoiceTakesItsParsersOtherSpellingsAndNamesItsValuesOtherwise() {
        Setting<Integer> level = Setting.choice("level", "level", (k, v) -> switch (v.toLowerCase()) {
            case "low", "l" -> 1;
            case "high", "h" -> 2;
            default -> throw new TributaryException("no");
        }, "low", "high");
        assertThat(level.parse("level", "HIGH")).isEqualTo(2);
        assertThat(level.parse("level", "l")).isEqualTo(1);
        assertThatThrownBy(() -> level.parse("x.level", "medium")).hasMessage("key 'x.level' is 'medium'; use one of [low, high]");
    }
}
