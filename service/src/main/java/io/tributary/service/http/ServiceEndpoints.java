package io.tributary.service.http;

import io.tributary.schema.Progress;
import io.tributary.schema.StageShare;
import io.tributary.service.internal.Pipeline;
import io.tributary.service.internal.PipelineParts;
import io.tributary.service.metrics.KafkaProbe;
import io.tributary.service.metrics.MetricNames;
import io.tributary.service.metrics.PipelineMetrics;
import io.tributary.service.spec.PipelineSpec;
import io.tributary.service.spec.Settings;
import io.tributary.sink.DeltaTables;
import io.tributary.sink.SinkOffsets;
import io.tributary.topology.AggregateMetrics;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a running pipeline shows the outside: its metrics, fed by every progress record, and, when
 * {@code http.port} says so, the {@link StatusServer}. Started before the pipeline opens (so that
 * {@code /health/live} answers while the broker and the stages start), then {@link #attach}ed to it.
 */
public final class ServiceEndpoints implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ServiceEndpoints.class);
    /** The port when the spec names none and the trigger runs continuously. */
    public static final int DEFAULT_PORT = 8080;
    private static final Duration PROBE_INTERVAL = Duration.ofSeconds(2);
    private static final com.fasterxml.jackson.databind.ObjectMapper JSON = new com.fasterxml.jackson.databind.ObjectMapper();

    private final PipelineSpec spec;
    private final PipelineMetrics metrics;
    private final ProgressHistory history;
    private final StatusServer server;
    private volatile Pipeline pipeline;
    private volatile KafkaProbe probe;
    private volatile boolean stopping;

    private ServiceEndpoints(PipelineSpec spec, PipelineMetrics metrics, ProgressHistory history, StatusServer server) {
        this.spec = spec;
        this.metrics = metrics;
        this.history = history;
        this.server = server;
    }

    /** Starts the metrics and, if {@link #port} gives one, the HTTP endpoints. */
    public static ServiceEndpoints start(PipelineSpec spec) {
        PipelineMetrics metrics = new PipelineMetrics(spec.name());
        OptionalInt port = port(spec);
        ServiceEndpoints[] self = new ServiceEndpoints[1];
        StatusServer server = null;
        ProgressHistory history = null;
        if (port.isPresent()) {
            history = new ProgressHistory(System::currentTimeMillis);
            LivePage page = new LivePage(history, new LivePage.Sources(spec.name(), spec.trigger().toString(),
                    spec.describe(), () -> self[0].notReady(), () -> self[0].retrying()));
            String host = spec.string(Settings.HTTP_HOST);
            server = StatusServer.start(host, port.getAsInt(), AllowedHosts.of(host, spec.list(Settings.HTTP_ALLOWED_HOSTS)), metrics,
                    () -> self[0].notReady(), page, () -> self[0].instanceJson());
        }
        self[0] = new ServiceEndpoints(spec, metrics, history, server);
        metrics.readiness(() -> self[0].notReady() == null);
        return self[0];
    }

    /**
     * The HTTP port: {@code http.port} if set ({@code -1}: none), else {@value #DEFAULT_PORT} for the
     * continuous triggers and none for availableNow and once, so that a bounded run never fails
     * because the port is taken.
     */
    public static OptionalInt port(PipelineSpec spec) {
        if (spec.has(Settings.HTTP_PORT)) {
            int p = spec.integer(Settings.HTTP_PORT);
            return p < 0 ? OptionalInt.empty() : OptionalInt.of(p);
        }
        return spec.trigger().bounded() ? OptionalInt.empty() : OptionalInt.of(DEFAULT_PORT);
    }

    /** The port the endpoints listen on, if they do. */
    public OptionalInt boundPort() {
        return server == null ? OptionalInt.empty() : OptionalInt.of(server.port());
    }

    /** Starts watching an opened pipeline: its stages, the broker, the lag and the aggregation's counters. */
    public void attach(Pipeline opened) {
        for (String stage : opened.stageNames()) {
            metrics.declareStage(stage);
            if (history != null) {
                history.declare(stage);
            }
        }
        String ingest = spec.name() + "/ingest";
        if (opened.stageNames().contains(ingest)) {
            metrics.declareFileSource(ingest);
        }
        String aggregate = spec.name() + "/aggregate";
        if (opened.stageNames().contains(aggregate)) {
            metrics.functionCounter(MetricNames.LATE_ROWS, aggregate, opened,
                    p -> p.aggregateMetrics().getOrDefault(AggregateMetrics.ROWS_DROPPED, 0.0));
            metrics.functionGauge(MetricNames.STATE_ROWS, aggregate, opened,
                    p -> p.aggregateMetrics().getOrDefault(AggregateMetrics.ROWS_TOTAL, 0.0));
        }
        shares(opened);
        if (server != null) { // only the endpoints show the metrics: a bounded run without them skips the table read (0.4 s)
            readSinkPosition();
            probe = KafkaProbe.start(opened.clientProps(), metrics, PROBE_INTERVAL, () -> history.lag(metrics.lagByStage()));
        }
        pipeline = opened;
    }

    /**
     * Per stage, a gauge for each partition of its input topic (1 while this instance owns it) and,
     * for the source, whether this instance is the active one; a process that runs the whole
     * pipeline owns them all. A stage that reads a Kafka source's topics (several, or a pattern's)
     * has a gauge per topic and partition instead, published once it owns it (the topics a pattern
     * matches, and their partitions, are known only as they come), and none per bare partition once
     * it is open and says so.
     */
    private void shares(Pipeline opened) {
        int partitions = spec.integer(Settings.PARTITIONS);
        java.util.Set<String> byTopic = java.util.concurrent.ConcurrentHashMap.newKeySet();
        metrics.beforeScrape(() -> opened.shares().forEach((stage, share) -> {
            if (share.topics() == null) {
                return;
            }
            if (byTopic.add(stage)) {
                metrics.dropOwnedPartitions(stage);
            }
            share.topics().forEach((topic, ps) -> ps.forEach(p -> metrics.ownedTopicPartition(stage, topic, p,
                    () -> ownsTopicPartition(opened, stage, topic, p))));
        }));
        for (String stage : opened.stageNames()) {
            if (stage.endsWith("/ingest") || stage.endsWith("/delta-source")) {
                metrics.sourceActive(stage, () -> opened.ownership().map(o -> o.stages().get(stage))
                        .map(s -> "active".equals(s.role()) ? 1.0 : 0.0).orElse(opened.ownership().isPresent() ? 0.0 : 1.0));
                continue;
            }
            for (int p = 0; p < partitions; p++) {
                int partition = p;
                metrics.ownedPartition(stage, p, () -> opened.ownership().map(o -> o.stages().get(stage))
                        .map(s -> s.partitions().contains(partition) ? 1.0 : 0.0).orElse(opened.ownership().isPresent() ? 0.0 : 1.0));
            }
        }
    }

    private static double ownsTopicPartition(Pipeline opened, String stage, String topic, int partition) {
        StageShare share = opened.shares().get(stage);
        return share != null && share.topics() != null && share.topics().getOrDefault(topic, List.of()).contains(partition) ? 1.0 : 0.0;
    }

    /** {@code /instance}: this process's share of the pipeline's work, as JSON; {@code "instance": null} when it runs it all. */
    String instanceJson() {
        Pipeline p = pipeline;
        Optional<Pipeline.Ownership> o = p == null ? Optional.empty() : p.ownership();
        Map<String, Object> out = new java.util.LinkedHashMap<>();
        out.put("pipeline", spec.name());
        out.put("instance", o.map(Pipeline.Ownership::instance).orElse(null));
        out.put("stages", o.map(Pipeline.Ownership::stages).orElse(Map.of()));
        try {
            return JSON.writeValueAsString(out) + "\n";
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The sink's table position (offsets, version) as the metrics' starting point, before its first batch. */
    private void readSinkPosition() {
        String sinkStage = spec.name() + "/sink";
        String table = spec.location(Settings.SINK_PATH);
        try {
            Optional<SinkOffsets> offsets = DeltaTables.sinkOffsets(table, spec.storage());
            offsets.filter(o -> o.appId().equals(PipelineParts.sinkAppId(spec)))
                    .ifPresent(o -> o.sparkJson().forEach((topic, parts) -> { // per topic: a Kafka source's several topics each
                        Map<Integer, Long> at = new java.util.TreeMap<>();
                        parts.forEach((p, next) -> at.put(Integer.parseInt(p), next));
                        metrics.position(sinkStage, topic, at);
                    }));
            long version = DeltaTables.latestVersion(table, spec.storage());
            if (version >= 0) {
                metrics.deltaVersion(sinkStage, version);
            }
        } catch (RuntimeException e) {
            LOG.debug("sink position not read from {}: {}", table, e.toString());
        }
    }

    /** Takes one batch's progress (the run loop's listener). */
    public void record(Progress p) {
        metrics.record(p);
        if (history != null) {
            history.add(p);
        }
    }

    /** The stages trying a failed batch again, by name. */
    Map<String, Pipeline.Retrying> retrying() {
        Pipeline p = pipeline;
        return p == null ? Map.of() : p.retrying();
    }

    /** Not ready from now on: the process is stopping. */
    public void stopping() {
        stopping = true;
    }

    /** Null when ready; else why not: stopping, starting, the Kafka cluster not answering, or a stage trying a failed batch again. */
    String notReady() {
        if (stopping) {
            return "stopping";
        }
        Pipeline p = pipeline;
        if (p == null) {
            return "starting: connecting to Kafka and opening the stages";
        }
        if (!p.running()) {
            return "starting: not every stage has run its first batch yet";
        }
        KafkaProbe k = probe;
        String kafka = k == null ? null : k.problem();
        if (kafka != null) {
            return kafka;
        }
        // a stage waiting out an outage (Kafka, object storage) runs no batch meanwhile
        return p.retrying().entrySet().stream().findFirst().map(r -> "stage " + r.getKey() + " is trying a failed batch again ("
                + r.getValue().attempts() + " failed so far): " + r.getValue().error()).orElse(null);
    }

    public PipelineMetrics metrics() {
        return metrics;
    }

    @Override
    public void close() {
        stopping = true;
        if (probe != null) {
            probe.close();
        }
        if (server != null) {
            server.close();
        }
        metrics.close();
    }
}
