package io.tributary.service.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.tributary.schema.Progress;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.ToDoubleFunction;

/**
 * A pipeline's metrics, fed by the progress record of every batch (as Spark's
 * {@code StreamingQueryListener} sees them) and by the lag the {@link KafkaProbe} computes;
 * served in Prometheus text by {@link #scrape()}. The names are those of {@link MetricNames}.
 */
public final class PipelineMetrics implements AutoCloseable {
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final JvmGcMetrics gc = new JvmGcMetrics();
    private final Map<String, Progress> last = new LinkedHashMap<>();
    private final Map<String, Map<PartitionKey, Long>> positions = new ConcurrentHashMap<>();
    private final Map<List<String>, AtomicLong> gauges = new ConcurrentHashMap<>();
    private final Map<String, Map<PartitionKey, Long>> lags = new ConcurrentHashMap<>();
    private final List<Runnable> beforeScrape = new java.util.concurrent.CopyOnWriteArrayList<>();

    /** A topic partition as progress records name it. */
    public record PartitionKey(String topic, int partition) {
    }

    public PipelineMetrics(String pipeline) {
        registry.config().commonTags("pipeline", pipeline);
        new JvmMemoryMetrics().bindTo(registry);
        gc.bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ClassLoaderMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
    }

    /** Registers a stage's counters at zero, so that they show before its first batch. */
    public synchronized void declareStage(String stage) {
        last.putIfAbsent(stage, null);
        counter(MetricNames.ROWS_INPUT, stage);
        counter(MetricNames.ROWS_OUTPUT, stage);
        timer(stage);
    }

    /**
     * Registers the bad-rows counter of a stage that reads files at zero: Prometheus' {@code
     * increase()} counts only what happens between two scrapes, so an alert on bad rows would miss
     * those of a first batch whose counter appeared already at one.
     */
    public synchronized void declareFileSource(String stage) {
        counter(MetricNames.BAD_ROWS, stage);
    }

    /** Publishes whether the service is ready (see {@link MetricNames#READY}). */
    public void readiness(BooleanSupplier ready) {
        Gauge.builder(MetricNames.READY, () -> ready.getAsBoolean() ? 1 : 0).description(MetricNames.doc(MetricNames.READY)).register(registry);
    }

    /** Publishes a cumulative count the metrics read on each scrape, e.g. Kafka Streams' late rows. */
    public <T> void functionCounter(String name, String stage, T source, ToDoubleFunction<T> f) {
        FunctionCounter.builder(name, source, f).tags("stage", stage).description(MetricNames.doc(name)).register(registry);
    }

    /** Publishes a value the metrics read on each scrape. */
    public <T> void functionGauge(String name, String stage, T source, ToDoubleFunction<T> f) {
        Gauge.builder(name, source, f).tags("stage", stage).description(MetricNames.doc(name)).register(registry);
    }

    /** Publishes whether this instance owns {@code partition} of {@code stage}'s input topic (1 or 0; see {@link MetricNames#OWNED_PARTITION}). */
    public void ownedPartition(String stage, int partition, java.util.function.DoubleSupplier owned) {
        gauge(MetricNames.OWNED_PARTITION, Map.of("stage", stage, "partition", String.valueOf(partition)), owned);
    }

    /**
     * Publishes whether this instance owns {@code partition} of a Kafka source's {@code topic} in {@code stage} (1 or 0;
     * see {@link MetricNames#OWNED_TOPIC_PARTITION}); registering it again changes nothing.
     */
    public void ownedTopicPartition(String stage, String topic, int partition, java.util.function.DoubleSupplier owned) {
        gauge(MetricNames.OWNED_TOPIC_PARTITION, Map.of("stage", stage, "topic", topic, "partition", String.valueOf(partition)), owned);
    }

    /** Removes the {@link MetricNames#OWNED_PARTITION} gauges of {@code stage}: it reads a Kafka source's topics, its gauges name them. */
    public void dropOwnedPartitions(String stage) {
        registry.find(MetricNames.OWNED_PARTITION).tag("stage", stage).meters().forEach(registry::remove);
    }

    /** Runs {@code task} before each {@link #scrape()}, e.g. to publish the gauges of partitions owned since the last one. */
    public void beforeScrape(Runnable task) {
        beforeScrape.add(task);
    }

    /** Publishes whether this instance runs the source stage {@code stage} (1 or 0; see {@link MetricNames#SOURCE_ACTIVE}). */
    public void sourceActive(String stage, java.util.function.DoubleSupplier active) {
        gauge(MetricNames.SOURCE_ACTIVE, Map.of("stage", stage), active);
    }

    /** Publishes a value the metrics read on each scrape, with tags of its own (e.g. stage and partition). */
    private void gauge(String name, Map<String, String> tags, java.util.function.DoubleSupplier value) {
        Gauge.Builder<java.util.function.DoubleSupplier> b = Gauge.builder(name, value, java.util.function.DoubleSupplier::getAsDouble)
                .description(MetricNames.doc(name)).strongReference(true); // nothing else holds the supplier
        tags.forEach(b::tag);
        b.register(registry);
    }

    /** Takes one batch's progress: counts its rows, times it, remembers it for {@code /progress}. */
    public void record(Progress p) {
        String stage = p.name();
        synchronized (this) {
            last.put(stage, p);
        }
        counter(MetricNames.ROWS_INPUT, stage).increment(p.numInputRows());
        if (p.sink() != null) {
            counter(MetricNames.ROWS_OUTPUT, stage).increment(p.sink().numOutputRows());
            Object version = p.sink().metrics() == null ? null : p.sink().metrics().get("deltaVersion");
            if (version instanceof Number n) {
                gauge(MetricNames.DELTA_VERSION, Tags.of("stage", stage), "").set(n.longValue());
            }
        }
        Long ms = p.durationMs() == null ? null : p.durationMs().get("triggerExecution");
        if (ms != null) {
            timer(stage).record(Duration.ofMillis(ms));
        }
        gauge(MetricNames.BATCH_ID, Tags.of("stage", stage), "").set(p.batchId());
        String watermark = p.eventTime() == null ? null : p.eventTime().get("watermark");
        if (watermark != null) {
            gauge(MetricNames.WATERMARK, Tags.of("stage", stage), "seconds").set(Instant.parse(watermark).getEpochSecond());
        }
        for (Progress.Source s : p.sources() == null ? List.<Progress.Source>of() : p.sources()) {
            Object bad = s.metrics() == null ? null : s.metrics().get("numBadRows");
            if (bad instanceof Number n) {
                counter(MetricNames.BAD_ROWS, stage).increment(n.doubleValue());
            }
            Map<PartitionKey, Long> at = kafkaOffsets(s.endOffset());
            if (!at.isEmpty()) {
                positions.computeIfAbsent(stage, k -> new ConcurrentHashMap<>()).putAll(at);
            }
        }
    }

    /** Where a stage stands in the topics it reads, before its first batch (e.g. the sink's offsets in its table). */
    public void position(String stage, String topic, Map<Integer, Long> offsets) {
        Map<PartitionKey, Long> m = positions.computeIfAbsent(stage, k -> new ConcurrentHashMap<>());
        offsets.forEach((p, o) -> m.putIfAbsent(new PartitionKey(topic, p), o));
    }

    /** Sets the Delta table's version before the sink's first batch. */
    public void deltaVersion(String stage, long version) {
        gauge(MetricNames.DELTA_VERSION, Tags.of("stage", stage), "").set(version);
    }

    /** The offsets every Kafka-reading stage has reached, by stage. */
    public Map<String, Map<PartitionKey, Long>> positions() {
        Map<String, Map<PartitionKey, Long>> out = new LinkedHashMap<>();
        positions.forEach((k, v) -> out.put(k, Map.copyOf(v)));
        return out;
    }

    /** Sets a stage's lag on one partition (see {@link MetricNames#LAG}). */
    public void lag(String stage, PartitionKey tp, long records) {
        lags.computeIfAbsent(stage, k -> new ConcurrentHashMap<>()).put(tp, records);
        gauge(MetricNames.LAG, Tags.of("stage", stage, "topic", tp.topic(), "partition", String.valueOf(tp.partition())), "records")
                .set(records);
    }

    /** Each stage's lag summed over the partitions it reads, as the last probe found it. */
    public Map<String, Long> lagByStage() {
        Map<String, Long> out = new LinkedHashMap<>();
        lags.forEach((stage, m) -> out.put(stage, m.values().stream().mapToLong(Long::longValue).sum()));
        return out;
    }

    /** The last progress record of every stage that ran a batch, in flow order (Spark's {@code lastProgress}). */
    public synchronized List<Progress> lastProgress() {
        List<Progress> out = new ArrayList<>();
        last.values().forEach(p -> {
            if (p != null) {
                out.add(p);
            }
        });
        return out;
    }

    /** Every metric in Prometheus' text format. */
    public String scrape() {
        beforeScrape.forEach(Runnable::run);
        return registry.scrape();
    }

    private Counter counter(String name, String stage) {
        return Counter.builder(name).tags("stage", stage).description(MetricNames.doc(name)).register(registry);
    }

    private Timer timer(String stage) {
        return Timer.builder(MetricNames.BATCH_DURATION).tags("stage", stage).description(MetricNames.doc(MetricNames.BATCH_DURATION)).register(registry);
    }

    private AtomicLong gauge(String name, Tags tags, String unit) {
        List<String> key = new ArrayList<>();
        key.add(name);
        tags.forEach(t -> key.add(t.getKey() + "=" + t.getValue()));
        return gauges.computeIfAbsent(key, k -> {
            AtomicLong v = new AtomicLong();
            Gauge.Builder<AtomicLong> b = Gauge.builder(name, v, AtomicLong::doubleValue).tags(tags).description(MetricNames.doc(name));
            if (!unit.isEmpty()) {
                b.baseUnit(unit);
            }
            b.register(registry);
            return v;
        });
    }

    @SuppressWarnings("unchecked")
    static Map<PartitionKey, Long> kafkaOffsets(Object offsets) {
        Map<PartitionKey, Long> out = new LinkedHashMap<>();
        if (!(offsets instanceof Map<?, ?> byTopic)) {
            return out;
        }
        for (Map.Entry<?, ?> t : byTopic.entrySet()) {
            if (!(t.getValue() instanceof Map<?, ?> byPartition)) {
                return Map.of();
            }
            for (Map.Entry<?, ?> p : byPartition.entrySet()) {
                if (!(p.getValue() instanceof Number n) || !String.valueOf(p.getKey()).matches("\\d+")) {
                    return Map.of();
                }
                out.put(new PartitionKey(String.valueOf(t.getKey()), Integer.parseInt(String.valueOf(p.getKey()))), n.longValue());
            }
        }
        return out;
    }

    @Override
    public void close() {
        gc.close();
        registry.close();
    }
}
