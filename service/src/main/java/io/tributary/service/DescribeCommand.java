package io.tributary.service;

import io.tributary.sink.maintenance.TableDescription;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code tributary describe TABLE}: a Delta table's health. */
@Command(name = "describe", mixinStandardHelpOptions = true,
        description = "Prints a Delta table's health: versions (latest, oldest readable), last checkpoint, number and sizes of the "
                + "data files, the row count (from the log's statistics, no data file read; unknown when a file has none), partitions, "
                + "txn ids with their versions, domain metadata (a sink's offsets), table properties and protocol.")
final class DescribeCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "TABLE", description = "the Delta table's folder: a path or a URI (s3a://bucket/table)")
    String table;

    @Mixin
    StorageOptions storage;

    @Option(names = "--target-file-size", paramLabel = "SIZE", defaultValue = "128m", converter = ByteSizeConverter.class,
            description = "the file size optimize aims at (default ${DEFAULT-VALUE}); files under a quarter of it are counted as small")
    long targetFileSize;

    @Spec
    CommandSpec command;

    @Override
    public Integer call() {
        command.commandLine().getOut().print(TableDescription.of(table, targetFileSize, storage.forTable(table)).toText());
        command.commandLine().getOut().flush();
        return 0;
    }
}
