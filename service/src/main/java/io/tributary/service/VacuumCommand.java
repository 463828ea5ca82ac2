package io.tributary.service;

import io.tributary.sink.maintenance.DeltaIntervals;
import io.tributary.sink.maintenance.Vacuum;
import io.tributary.sink.maintenance.VacuumResult;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code tributary vacuum TABLE --retain 168h}: Delta's VACUUM, which Kernel lacks. */
@Command(name = "vacuum", mixinStandardHelpOptions = true,
        description = {"Deletes a Delta table's data files that no version within the retention references (removed by optimize, "
                + "upserts or replaces longer ago than --retain, deletion vectors included) and files never committed (left by failed "
                + "attempts) older than --retain. Never deletes a file it cannot show the table wrote (files that were in the folder "
                + "before the table are left alone and counted), and never touches _delta_log.",
                "A retention below the table's delta.deletedFileRetentionDuration (default 1 week) is refused without --force, as Delta does."})
final class VacuumCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "TABLE", description = "the Delta table's folder: a path or a URI (s3a://bucket/table)")
    String table;

    @Mixin
    StorageOptions storage;

    @Option(names = "--retain", paramLabel = "DURATION", defaultValue = "168h",
            description = "keep files removed or written more recently than this (default ${DEFAULT-VALUE}), e.g. 168h, 7d")
    String retain;

    @Option(names = "--dry-run", description = "list the files it would delete, delete nothing")
    boolean dryRun;

    @Option(names = "--force", description = "allow a retention below the table's delta.deletedFileRetentionDuration")
    boolean force;

    @Spec
    CommandSpec command;

    @Override
    public Integer call() {
        VacuumResult r = new Vacuum(table, storage.forTable(table)).run(DeltaIntervals.parse("--retain", retain), dryRun, force);
        PrintWriter out = command.commandLine().getOut();
        for (String f : r.files()) {
            out.println((dryRun ? "would delete " : "deleted ") + f);
        }
        out.println(r.summary());
        out.flush();
        return 0;
    }
}
