package io.tributary.schema;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The columns Spark 4.2's JSON inference gives lines of JSON objects (what its file source infers; the file source's own
 * golden case is {@code golden/inference/json-empty-objects}): an empty object merges into any object and is dropped alone,
 * an empty array merges into any array and is an ARRAY of STRING alone.
 */
class JsonTypesTest {
    private static String columns(String... lines) {
        Map<String, DataType> merged = new TreeMap<>();
        for (String line : lines) {
            JsonTypes.fields(line, true).forEach((k, v) -> merged.put(k, merged.containsKey(k) ? JsonTypes.merge(merged.get(k), v) : v));
        }
        return JsonTypes.finish(merged).entrySet().stream().map(e -> e.getKey() + " " + e.getValue().ddl())
                .reduce((a, b) -> a + ", " + b).orElse("");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "{\"id\": 1, \"e\": {}}|{\"id\": 2, \"e\": {}}|id BIGINT",
        "{\"s\": {}}|{\"s\": {\"a\": 1}}|s STRUCT<a: BIGINT>",
        "{\"s\": {\"a\": 1}}|{\"s\": {}}|s STRUCT<a: BIGINT>",
        "{\"a\": []}|{\"a\": []}|a ARRAY<STRING>",
        "{\"a\": []}|{\"a\": [1]}|a ARRAY<BIGINT>",
        "{\"a\": [1.5]}|{\"a\": []}|a ARRAY<DOUBLE>",
        "{\"n\": [{}], \"id\": 1}|{\"id\": 2}|id BIGINT",
        "{\"m\": {\"k\": {}}}|{\"m\": {\"k\": {}, \"j\": 1}}|m STRUCT<j: BIGINT>",
        "{\"z\": [[]]}|{\"z\": [[2]]}|z ARRAY<ARRAY<BIGINT>>",
        "{\"e\": {}}|{\"e\": 1}|e STRING",
        "{\"d\": {\"x\": null}}|{\"id\": 1}|d STRUCT<x: STRING>, id BIGINT",
        "{\"a\": [{}, {\"b\": 1}]}|{\"id\": 1}|a ARRAY<STRUCT<b: BIGINT>>, id BIGINT",
        "{\"a\": [{}, 1]}|{\"id\": 1}|a ARRAY<STRING>, id BIGINT",
    })
    void emptyObjectsAndArraysAreTypedAsSparksInferenceTypesThem(String first, String second, String expected) {
        assertThat(columns(first, second)).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"{}|true", "[{}]|true", "{\"a\": {}}|true", "[[{}]]|true", "[]|false", "{\"a\": 1}|false",
        "null|false", "1|false"})
    void aFieldOfOnlyEmptyObjectsIsDropped(String json, boolean dropped) {
        assertThat(JsonTypes.dropped(json)).as(json).isEqualTo(dropped);
    }
}
