package io.tributary.schema;

/** One column of a {@link Schema}. */
public record Field(String name, DataType type, boolean nullable) {
    @Override
    public String toString() {
        return name + " " + type.ddl() + (nullable ? "" : " NOT NULL");
    }
}
