package io.tributary.service.http;

import io.tributary.schema.Progress;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The live page's memory, bounded: the progress records the service already has, kept as they
 * come. Per stage the last {@value #BATCHES} records whole (Spark keeps as many,
 * {@code spark.sql.streaming.numRecentProgressUpdates}), and the last hour summed into
 * {@value #BUCKET_MS} ms buckets; the lag the Kafka probe finds, one sample per probe, for an hour.
 * Adding a record is a few map updates under a lock, on the thread that ran the batch.
 */
final class ProgressHistory {
    static final int BATCHES = 100;
    static final long BUCKET_MS = 10_000;
    static final long HOUR_MS = 3_600_000;
    /** A probe every 2 s fills an hour with 1,800 samples; a bound in case probes come faster. */
    private static final int LAG_SAMPLES = 3_600;

    /** A record as it came: its sequence number (1, 2, ... over all stages) and when it came, epoch ms. */
    record Entry(long seq, long receivedMs, Progress progress, BatchSummary summary) {
    }

    /** Each stage's lag (records, summed over its partitions) at one probe. */
    record LagSample(long t, Map<String, Long> byStage) {
    }

    private final LongSupplier clock;
    private final Map<String, Deque<Entry>> recent = new LinkedHashMap<>();
    private final Map<String, Deque<BatchSummary>> hour = new LinkedHashMap<>();
    private final Deque<LagSample> lag = new ArrayDeque<>();
    private long seq;

    ProgressHistory(LongSupplier clock) {
        this.clock = clock;
    }

    /** Declares a stage, so that it shows (empty) before its first batch, in flow order. */
    synchronized void declare(String stage) {
        recent.computeIfAbsent(stage, k -> new ArrayDeque<>());
        hour.computeIfAbsent(stage, k -> new ArrayDeque<>());
    }

    synchronized void add(Progress p) {
        long now = clock.getAsLong();
        Deque<Entry> batches = recent.computeIfAbsent(p.name(), k -> new ArrayDeque<>());
        batches.addLast(new Entry(++seq, now, p, BatchSummary.of(p, now)));
        if (batches.size() > BATCHES) {
            batches.removeFirst();
        }
        Deque<BatchSummary> buckets = hour.computeIfAbsent(p.name(), k -> new ArrayDeque<>());
        long start = now - Math.floorMod(now, BUCKET_MS);
        if (buckets.isEmpty() || buckets.peekLast().startMs() != start) {
            buckets.addLast(new BatchSummary(start, BUCKET_MS));
        }
        buckets.peekLast().add(p);
        while (buckets.peekFirst().startMs() <= now - HOUR_MS) {
            buckets.removeFirst();
        }
    }

    synchronized void lag(Map<String, Long> byStage) {
        long now = clock.getAsLong();
        lag.addLast(new LagSample(now, Map.copyOf(byStage)));
        while (lag.size() > LAG_SAMPLES || lag.peekFirst().t() <= now - HOUR_MS) {
            lag.removeFirst();
        }
    }

    /** The stages, in the order they were declared or first seen. */
    synchronized List<String> stages() {
        return List.copyOf(recent.keySet());
    }

    /** The sequence number of the last record taken (0: none yet). */
    synchronized long lastSeq() {
        return seq;
    }

    /** The records still held that came after {@code since}, in the order they came. */
    synchronized List<Entry> since(long since) {
        List<Entry> out = new ArrayList<>();
        recent.values().forEach(d -> d.forEach(e -> {
            if (e.seq() > since) {
                out.add(e);
            }
        }));
        out.sort(Comparator.comparingLong(Entry::seq));
        return out;
    }

    /** The record of one stage's batch, if still held. */
    synchronized Entry batch(String stage, long batchId) {
        Deque<Entry> d = recent.get(stage);
        if (d != null) {
            for (Entry e : d) {
                if (e.progress().batchId() == batchId) {
                    return e; // a batch id may repeat after a restart's failed batch; the first is as good
                }
            }
        }
        return null;
    }

    /** The last hour of every stage, as the page's JSON takes it. */
    synchronized Map<String, List<Map<String, Object>>> hour() {
        long now = clock.getAsLong();
        Map<String, List<Map<String, Object>>> out = new LinkedHashMap<>();
        hour.forEach((stage, d) -> out.put(stage, d.stream().filter(b -> b.startMs() > now - HOUR_MS)
                .map(b -> b.toMap(now)).toList()));
        return out;
    }

    /** The lag samples taken after {@code sinceMs}. */
    synchronized List<LagSample> lagSince(long sinceMs) {
        return lag.stream().filter(s -> s.t() > sinceMs).toList();
    }
}
