package io.tributary.service;

import io.tributary.sink.maintenance.Optimize;
import io.tributary.sink.maintenance.OptimizeOptions;
import io.tributary.sink.maintenance.OptimizeResult;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code tributary optimize TABLE}: Delta's OPTIMIZE (compaction of small files) on a table. */
@Command(name = "optimize", mixinStandardHelpOptions = true,
        description = {"Compacts a Delta table's small files (Delta's OPTIMIZE): in each partition, files smaller than half the target "
                + "size are rewritten as files of about the target size, in one commit with dataChange=false, so the rows do not "
                + "change and streams reading the table (Spark, a delta source) skip it.",
                "Safe while a sink appends to the table; a concurrent commit that removed a file being compacted makes it redo its work."})
final class OptimizeCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "TABLE", description = "the Delta table's folder: a path or a URI (s3a://bucket/table)")
    String table;

    @Mixin
    StorageOptions storage;

    @Option(names = "--target-file-size", paramLabel = "SIZE", defaultValue = "128m", converter = ByteSizeConverter.class,
            description = "the size of the files written (default ${DEFAULT-VALUE}); files under half of it are compacted")
    long targetFileSize;

    @Option(names = "--where", paramLabel = "PREDICATE", description = "only these partitions, e.g. \"day = '2024-05-01'\" (equalities on partition columns, joined by AND)")
    String where;

    @Spec
    CommandSpec command;

    @Override
    public Integer call() {
        OptimizeResult r = Optimize.run(table, OptimizeOptions.defaults().withTargetFileSize(targetFileSize).withWhere(where)
                .withStorage(storage.forTable(table)));
        command.commandLine().getOut().println(r.summary());
        command.commandLine().getOut().flush();
        return 0;
    }
}
