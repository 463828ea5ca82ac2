package io.tributary.schema;

/** One column of a {@link Schema}. */
public record Field(String name, DataType type, boolean nullable) {
    @Override
    public String toString() {
        return Schema.quote(name) + " " + type.ddl() + (nullable ? "" : " NOT NULL");
    }
}
