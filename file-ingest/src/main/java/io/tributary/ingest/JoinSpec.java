package io.tributary.ingest;

/**
 * One {@code transform.join} item as written: the static table's location, its alias, the {@code on}
 * condition and the join type, and the key it was written under ({@code transform.join.0}) for refusals.
 */
public record JoinSpec(String table, String alias, String on, String type, String key) {
}
