package io.tributary.service;

import io.tributary.ingest.ChangedFile;
import io.tributary.ingest.FileIngest;
import io.tributary.ingest.IngestStatus;
import io.tributary.ingest.IngestedFile;
import io.tributary.schema.Printable;
import io.tributary.schema.Schema;
import io.tributary.schema.Timestamps;
import io.tributary.service.internal.Instances;
import io.tributary.service.internal.KafkaConnection;
import io.tributary.service.internal.KafkaSourceLag;
import io.tributary.service.internal.PipelineParts;
import io.tributary.service.spec.PipelineSpec;
import io.tributary.service.spec.Settings;
import io.tributary.sink.DeltaTables;
import io.tributary.sink.TableCommit;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code tributary checkpoint show SPEC}: where a pipeline stands, in the spirit of Spark's checkpoint folder. */
@Command(name = "checkpoint", mixinStandardHelpOptions = true,
        description = "Inspects a pipeline's progress (Spark's checkpoint folder, kept here in Kafka and in the Delta log).",
        subcommands = CheckpointCommand.Show.class)
final class CheckpointCommand {

    @Command(name = "show", mixinStandardHelpOptions = true,
            description = {"Prints where a pipeline stands: the files ingested (Spark's sources/ and offsets/), the topics and "
                    + "their offsets, and the sink's batches with their txn versions, Delta versions and offsets (Spark's commits/).",
                    "With the embedded broker, stop the running pipeline first: its broker holds the state folder."})
    static final class Show implements Callable<Integer> {
        @Mixin
        SpecOptions specOptions;

        @Spec
        CommandSpec command;

        @Override
        public Integer call() {
            PipelineSpec spec = specOptions.load();
            PrintWriter out = command.commandLine().getOut();
            out.println("pipeline " + spec.name() + "  (spec " + spec.specFile() + ")");
            out.println("settings");
            spec.describe().forEach((k, v) -> out.println("  " + k + " = " + v));
            if (KafkaConnection.noBrokerYet(spec)) {
                out.println("state " + spec.stateDir() + "  (no embedded broker yet: no run has ingested anything)");
            } else {
                printState(out, spec);
            }
            printSink(out, spec.location(Settings.SINK_PATH), PipelineParts.sinkAppId(spec), spec.storage());
            out.flush();
            return 0;
        }

        /** What Kafka holds: the source's progress, the pipeline's topics and, on a cluster, who owns what. */
        private static void printState(PrintWriter out, PipelineSpec spec) {
            try (KafkaConnection kafka = KafkaConnection.open(spec)) {
                out.println("state " + spec.stateDir() + (kafka.embedded() ? "  (embedded broker in kafka/)" : "  (external Kafka)"));
                if (spec.has(Settings.FILES_PATH)) {
                    Schema input = PipelineParts.statusSchema(spec, kafka.clientProps());
                    printIngest(out, FileIngest.readStatus(PipelineParts.ingestConfig(spec, input), kafka.clientProps()));
                } else if (Settings.kafkaSource(spec::has)) {
                    out.println("kafka source  (" + (spec.has(Settings.KAFKA_TOPICS) ? "topics " + spec.list(Settings.KAFKA_TOPICS)
                            : "topics matching " + spec.string(Settings.KAFKA_TOPIC_PATTERN))
                            + "; per partition the table's next offset, or the aggregation's committed one, the end and the lag)");
                    Map<String, Map<String, Long>> table = DeltaTables.sinkOffsets(spec.location(Settings.SINK_PATH), spec.storage())
                            .map(io.tributary.sink.SinkOffsets::sparkJson).orElse(Map.of());
                    KafkaSourceLag.lines(kafka.clientProps(), spec, table).forEach(out::println);
                } else {
                    out.println("delta source  (table " + spec.location(Settings.DELTA_PATH) + "; its progress is in topic "
                            + io.tributary.source.DeltaSourceConfig.progressTopic(spec.name()) + ", see below)");
                }
                printTopics(out, io.tributary.service.internal.TopicAdmin.topicOffsets(kafka.clientProps(), spec));
                if (!kafka.embedded()) {
                    printOwners(out, Instances.owners(kafka.clientProps(), spec));
                }
            }
        }

        private static void printIngest(PrintWriter out, IngestStatus s) {
            out.println("ingest  (topic " + s.ingestLogTopic() + "; Spark's sources/ and offsets/)");
            if (s.recordedSchema() != null) {
                out.println("  schema " + s.recordedSchema() + "  (recorded with the ingest's progress; the next run reads with it)");
            }
            out.println("  next batch " + s.nextBatchId()
                    + (s.watermarkMs() == null ? "" : ", watermark " + Timestamps.formatMicros(s.watermarkMs() * 1000)));
            for (IngestedFile f : s.files()) {
                out.printf("  batch %d  %s  %d rows%s  %d bytes  modified %s  sha256 %s%n", f.batchId(), Printable.escape(f.path()), f.rows(),
                        f.badRows() == 0 ? "" : " (+" + f.badRows() + " bad)", f.size(), Instant.ofEpochMilli(f.mtimeMs()),
                        f.sha256().substring(0, Math.min(12, f.sha256().length())));
            }
            for (ChangedFile c : s.changedFiles()) {
                out.println("  CHANGED AFTER INGEST: " + Printable.escape(c.path()) + " (" + c.reason() + "); not ingested again");
            }
            if (!"off".equals(s.cleanSource())) {
                String done = "archive".equals(s.cleanSource()) ? "archived" : "deleted";
                out.println("  cleanSource " + s.cleanSource() + ": " + s.filesCleaned() + " of " + s.files().size()
                        + " ingested files " + done + (s.filesToClean() == 0 ? ""
                                : ", " + s.filesToClean() + " still in the input folder (the next start cleans them)"));
            }
        }

        private static void printTopics(PrintWriter out, Map<String, Map<Integer, String>> topics) {
            out.println("topics  (partition=first..end offset, read_committed; records before first were trimmed, topic.trim)");
            topics.forEach((t, offsets) -> out.println("  " + t + "  " + offsets));
        }

        /** The instances of the pipeline running now, and what each owns (Kafka's groups). */
        private static void printOwners(PrintWriter out, Map<String, Map<String, java.util.List<String>>> owners) {
            out.println("instances  (who owns what now, as the pipeline's Kafka groups say)");
            if (owners.isEmpty()) {
                out.println("  none running");
                return;
            }
            owners.forEach((role, members) -> {
                StringBuilder line = new StringBuilder("  " + role + ":");
                members.forEach((instance, partitions) -> {
                    if (role.endsWith("lease")) {
                        line.append(' ').append(instance).append(partitions.isEmpty() ? " (standby)" : " (active)");
                    } else {
                        line.append(' ').append(instance).append(" partitions ").append(partitions);
                    }
                });
                out.println(line);
            });
        }

        private static void printSink(PrintWriter out, String table, String appId, io.tributary.storage.Storage storage) {
            out.println("sink  (table " + table + ", txn appId " + appId + "; Spark's commits/)");
            if (!DeltaTables.exists(table, storage)) {
                out.println("  no table yet");
                return;
            }
            for (TableCommit c : DeltaTables.history(table, storage)) {
                out.printf("  version %d  %s  %s  %d rows in %d files%s%n", c.version(), c.operation(),
                        c.txnAppId() == null ? "(no txn)" : "batch " + c.txnVersion() + (appId.equals(c.txnAppId()) ? "" : " of " + c.txnAppId()),
                        c.addedRows(), c.addedFiles(),
                        c.sinkOffsets() == null ? "" : "  offsets " + c.sinkOffsets().sparkJson());
            }
        }
    }
}
