package io.tributary.topology.internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Spark's {@code QuantileSummaries} (the Greenwald-Khanna summary behind {@code percentile_approx}), step for step, so that
 * the same values in the same order give Spark's estimate to the bit: values wait in a head buffer of 50,000, which is sorted
 * into the samples when full (and compressed once the samples reach 10,000); {@link #compressed} inserts the head buffer and
 * merges neighbouring samples whose band fits within {@code 2 * relativeError * count}; {@link #merge} interleaves two
 * summaries, widening each side's samples by the other's error; {@link #query} finds each percentage's sample. An instance
 * is mutable only in its head buffer ({@link #insert}); the other operations return a new summary.
 */
final class QuantileSummaries {
    static final int COMPRESS_THRESHOLD = 10_000;
    static final int HEAD_SIZE = 50_000;

    /** One sample: a value, the least number of values since the sample before it, and the uncertainty of its rank. */
    record Stats(double value, long g, long delta) {
    }

    final double relativeError;
    final Stats[] sampled;
    final long count;
    private boolean compressed;
    private double[] head = new double[16];
    private int headSize;

    QuantileSummaries(double relativeError, Stats[] sampled, long count, boolean compressed) {
        this.relativeError = relativeError;
        this.sampled = sampled;
        this.count = count;
        this.compressed = compressed;
    }

    /** An empty summary, as Spark's {@code PercentileDigest} starts one (marked compressed). */
    static QuantileSummaries empty(double relativeError) {
        return new QuantileSummaries(relativeError, new Stats[0], 0, true);
    }

    /** Spark's {@code PercentileDigest.quantileSummaries}: this summary, compressed first if a value entered it since. */
    QuantileSummaries digest() {
        return compressed ? this : compressed();
    }

    /** Spark's {@code insert}: this summary with {@code x} in its head buffer, or the summary the full buffer makes. */
    QuantileSummaries insert(double x) {
        if (headSize == head.length) {
            head = Arrays.copyOf(head, head.length * 2);
        }
        head[headSize++] = x;
        compressed = false;
        if (headSize >= HEAD_SIZE) {
            QuantileSummaries result = withHeadBufferInserted();
            return result.sampled.length >= COMPRESS_THRESHOLD ? result.compressed() : result;
        }
        return this;
    }

    /** Whether the summary was compressed since a value last entered it (Spark's {@code compressed}). */
    boolean isCompressed() {
        return compressed;
    }

    /** The values waiting in the head buffer, in their order. */
    double[] head() {
        return Arrays.copyOf(head, headSize);
    }

    /** A summary with {@code head} in its head buffer, as {@link #head} gave it. */
    static QuantileSummaries withHead(double relativeError, Stats[] sampled, long count, boolean compressed, double[] head) {
        QuantileSummaries s = new QuantileSummaries(relativeError, sampled, count, compressed);
        s.head = head.length == 0 ? new double[16] : head;
        s.headSize = head.length;
        return s;
    }

    private QuantileSummaries withHeadBufferInserted() {
        if (headSize == 0) {
            return this;
        }
        long currentCount = count;
        double[] sorted = Arrays.copyOf(head, headSize);
        Arrays.sort(sorted); // Scala's Ordering.Double, as Double.compare
        List<Stats> newSamples = new ArrayList<>(sampled.length + sorted.length);
        int sampleIdx = 0;
        for (int opsIdx = 0; opsIdx < sorted.length; opsIdx++) {
            double currentSample = sorted[opsIdx];
            while (sampleIdx < sampled.length && sampled[sampleIdx].value <= currentSample) {
                newSamples.add(sampled[sampleIdx++]);
            }
            currentCount++;
            long delta = newSamples.isEmpty() || sampleIdx == sampled.length && opsIdx == sorted.length - 1
                    ? 0 : (long) Math.floor(2 * relativeError * currentCount);
            newSamples.add(new Stats(currentSample, 1, delta));
        }
        while (sampleIdx < sampled.length) {
            newSamples.add(sampled[sampleIdx++]);
        }
        return new QuantileSummaries(relativeError, newSamples.toArray(new Stats[0]), currentCount, false);
    }

    /** Spark's {@code compress}: the head buffer inserted, then neighbouring samples merged. */
    QuantileSummaries compressed() {
        QuantileSummaries inserted = withHeadBufferInserted();
        return new QuantileSummaries(relativeError, compress(inserted.sampled, 2 * relativeError * inserted.count), inserted.count, true);
    }

    /** Spark's {@code merge}; both summaries compressed. */
    QuantileSummaries merge(QuantileSummaries other) {
        if (other.count == 0) {
            return new QuantileSummaries(relativeError, sampled, count, compressed);
        }
        if (count == 0) {
            return new QuantileSummaries(other.relativeError, other.sampled, other.count, other.compressed);
        }
        List<Stats> merged = new ArrayList<>(sampled.length + other.sampled.length);
        double mergedRelativeError = Math.max(relativeError, other.relativeError);
        long mergedCount = count + other.count;
        long additionalSelfDelta = (long) Math.floor(2 * other.relativeError * other.count);
        long additionalOtherDelta = (long) Math.floor(2 * relativeError * count);
        int selfIdx = 0;
        int otherIdx = 0;
        while (selfIdx < sampled.length && otherIdx < other.sampled.length) {
            Stats selfSample = sampled[selfIdx];
            Stats otherSample = other.sampled[otherIdx];
            Stats next;
            long additional;
            if (selfSample.value < otherSample.value) {
                selfIdx++;
                next = selfSample;
                additional = otherIdx > 0 ? additionalSelfDelta : 0;
            } else {
                otherIdx++;
                next = otherSample;
                additional = selfIdx > 0 ? additionalOtherDelta : 0;
            }
            merged.add(new Stats(next.value, next.g, next.delta + additional));
        }
        while (selfIdx < sampled.length) {
            merged.add(sampled[selfIdx++]);
        }
        while (otherIdx < other.sampled.length) {
            merged.add(other.sampled[otherIdx++]);
        }
        Stats[] all = merged.toArray(new Stats[0]);
        return new QuantileSummaries(mergedRelativeError, compress(all, 2 * mergedRelativeError * mergedCount), mergedCount, true);
    }

    /** Spark's {@code compressImmut}: from the last sample down, a sample merged into the one above while their band allows. */
    private static Stats[] compress(Stats[] samples, double mergeThreshold) {
        if (samples.length == 0) {
            return samples;
        }
        ArrayList<Stats> reversed = new ArrayList<>();
        Stats head = samples[samples.length - 1];
        for (int i = samples.length - 2; i >= 1; i--) {
            Stats sample = samples[i];
            if (sample.g + head.g + head.delta < mergeThreshold) {
                head = new Stats(head.value, head.g + sample.g, head.delta);
            } else {
                reversed.add(head);
                head = sample;
            }
        }
        reversed.add(head);
        if (samples[0].value <= head.value && samples.length > 1) {
            reversed.add(samples[0]);
        }
        Stats[] out = new Stats[reversed.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = reversed.get(out.length - 1 - i);
        }
        return out;
    }

    /** Spark's {@code query} of several percentages of a compressed summary, in their order; null when it holds no value. */
    double[] query(List<Double> percentages) {
        if (sampled.length == 0) {
            return null;
        }
        long targetError = Long.MIN_VALUE;
        for (Stats s : sampled) {
            targetError = Math.max(targetError, s.delta + s.g);
        }
        targetError /= 2;
        Integer[] order = new Integer[percentages.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Double.compare(percentages.get(a), percentages.get(b))); // stable, as Scala's sortBy
        double[] result = new double[order.length];
        int index = 0;
        long minRank = sampled[0].g;
        for (int pos : order) {
            double p = percentages.get(pos);
            if (p <= relativeError) {
                result[pos] = sampled[0].value;
            } else if (p >= 1 - relativeError) {
                result[pos] = sampled[sampled.length - 1].value;
            } else {
                Stats cur = sampled[index];
                long rank = (long) Math.ceil(p * count);
                int i = index;
                long rankAt = minRank;
                boolean found = false;
                while (i < sampled.length - 1) {
                    long maxRank = rankAt + cur.delta;
                    if ((double) maxRank - targetError <= rank && rank <= (double) rankAt + targetError) {
                        found = true;
                        break;
                    }
                    i++;
                    cur = sampled[i];
                    rankAt += cur.g;
                }
                if (found) {
                    index = i;
                    minRank = rankAt;
                    result[pos] = cur.value;
                } else {
                    index = sampled.length - 1;
                    minRank = 0;
                    result[pos] = sampled[sampled.length - 1].value;
                }
            }
        }
        return result;
    }
}
