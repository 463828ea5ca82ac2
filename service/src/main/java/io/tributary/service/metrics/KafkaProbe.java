package io.tributary.service.metrics;

import io.tributary.service.metrics.PipelineMetrics.PartitionKey;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks the Kafka cluster, every few seconds in the background, whether it answers (a cheap
 * {@code describeCluster} with a short timeout) and how far each stage lags behind the topics it
 * reads (read_committed end offsets minus the stage's offsets). Readiness reads the cached answer.
 */
public final class KafkaProbe implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(KafkaProbe.class);
    private static final int TIMEOUT_MS = 3000;

    private final Admin admin;
    private final PipelineMetrics metrics;
    private final ScheduledExecutorService timer;
    private final Runnable afterLag;
    private volatile String problem = "not asked yet";
    private volatile boolean closed;

    private KafkaProbe(Admin admin, PipelineMetrics metrics, ScheduledExecutorService timer, Runnable afterLag) {
        this.admin = admin;
        this.metrics = metrics;
        this.timer = timer;
        this.afterLag = afterLag;
    }

    /** Starts probing the cluster of {@code clientProps} every {@code interval}, the first time now. */
    public static KafkaProbe start(Map<String, Object> clientProps, PipelineMetrics metrics, Duration interval) {
        return start(clientProps, metrics, interval, () -> { });
    }

    /** As {@link #start(Map, PipelineMetrics, Duration)}; {@code afterLag} runs after every probe that updated the lag. */
    public static KafkaProbe start(Map<String, Object> clientProps, PipelineMetrics metrics, Duration interval, Runnable afterLag) {
        Map<String, Object> props = new HashMap<>(clientProps);
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, TIMEOUT_MS);
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, TIMEOUT_MS);
        props.put(AdminClientConfig.CLIENT_ID_CONFIG, "tributary-probe");
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "tributary-probe");
            t.setDaemon(true);
            return t;
        });
        KafkaProbe probe = new KafkaProbe(Admin.create(props), metrics, timer, afterLag);
        timer.scheduleWithFixedDelay(probe::probe, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
        return probe;
    }

    /** Null when the cluster answered the last probe; else what went wrong. */
    public String problem() {
        return problem;
    }

    void probe() {
        try {
            admin.describeCluster(new DescribeClusterOptions().timeoutMs(TIMEOUT_MS)).clusterId().get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
            if (problem != null && !"not asked yet".equals(problem)) {
                LOG.info("the Kafka cluster answers again");
            }
            problem = null;
        } catch (Exception e) {
            if (closed || e instanceof InterruptedException) {
                return; // the service is stopping
            }
            String why = "the Kafka cluster does not answer (" + rootMessage(e) + ")";
            if (problem == null) {
                LOG.warn("{}; not ready until it does", why);
            }
            problem = why;
            return;
        }
        try {
            if (updateLag()) {
                afterLag.run();
            }
        } catch (Exception e) {
            LOG.debug("lag not updated: {}", e.toString());
        }
    }

    /** False when no stage has a position yet. */
    private boolean updateLag() throws Exception {
        Map<String, Map<PartitionKey, Long>> positions = metrics.positions();
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        positions.values().forEach(m -> m.keySet().forEach(k -> request.put(new TopicPartition(k.topic(), k.partition()), OffsetSpec.latest())));
        if (request.isEmpty()) {
            return false;
        }
        Map<TopicPartition, ListOffsetsResultInfo> end = admin.listOffsets(request,
                new ListOffsetsOptions(IsolationLevel.READ_COMMITTED).timeoutMs(TIMEOUT_MS)).all().get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
        positions.forEach((stage, m) -> m.forEach((k, at) -> {
            ListOffsetsResultInfo e = end.get(new TopicPartition(k.topic(), k.partition()));
            if (e != null) {
                metrics.lag(stage, k, Math.max(0, e.offset() - at));
            }
        }));
        return true;
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getClass().getSimpleName() + (t.getMessage() == null ? "" : ": " + t.getMessage());
    }

    @Override
    public void close() {
        closed = true;
        timer.shutdownNow();
        admin.close(Duration.ofSeconds(2));
    }
}
