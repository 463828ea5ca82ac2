package io.tributary.source.internal;

import io.delta.kernel.data.Row;
import io.delta.kernel.types.StructType;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One version of the Delta log as the stream sees it: the file actions that change data
 * ({@code dataChange=true}), the change-data files, the operation from {@code commitInfo}, and a
 * new schema if the commit set one.
 */
public record Commit(long version, long timestampMs, String operation, Map<String, String> operationParameters,
                     List<Row> dataAdds, List<Row> dataRemoves, List<Row> cdcFiles, Optional<StructType> newSchema) {

    /** {@code UPDATE {predicate=...}} as Spark's messages show an operation; "an unknown operation" without commitInfo. */
    public String describeOperation() {
        if (operation == null) {
            return "an unknown operation (the commit has no commitInfo)";
        }
        return operationParameters.isEmpty() ? operation : operation + " " + operationParameters;
    }

    /** The log path of the first removed file, for error messages. */
    public String firstRemovedPath() {
        Row r = dataRemoves.get(0);
        return r.getString(r.getSchema().indexOf("path"));
    }
}
