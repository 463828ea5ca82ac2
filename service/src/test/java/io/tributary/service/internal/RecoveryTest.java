package io.tributary.service.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.schema.PipelineStage;
import io.tributary.schema.Progress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.Test;

/** A batch that fails with an error Kafka calls retriable is tried again, and the live page hears of it. */
class RecoveryTest {
    private static final Progress DONE = new Progress("p/sink", "r", "2026-01-01T10:00:00.000Z", 0, 1, 0, 0, Map.of("triggerExecution", 1L),
            null, null, null, null);

    /** What the listener heard, in order. */
    private final List<String> heard = new ArrayList<>();
    private final Recovery.Retries retries = new Recovery.Retries() {
        @Override
        public void retrying(String stage, String error, long firstFailureMs, int attempts) {
            heard.add(stage + " retrying #" + attempts + ": " + error);
        }

        @Override
        public void recovered(String stage) {
            heard.add(stage + " recovered");
        }
    };

    @Test
    void aRetriableFailureIsTriedAgainAndReportedUntilATrySucceeds() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        Stage stage = stage(() -> {
            if (calls.incrementAndGet() <= 2) {
                throw new TimeoutException("Timed out waiting for a node assignment");
            }
            return Optional.of(DONE);
        });
        assertThat(Recovery.runBatch(stage, () -> false, retries)).contains(DONE);
        assertThat(heard).containsExactly(
                "p/sink retrying #1: TimeoutException: Timed out waiting for a node assignment",
                "p/sink retrying #2: TimeoutException: Timed out waiting for a node assignment",
                "p/sink recovered");
    }

    @Test
    void anyOtherFailureEndsTheRunWithoutARetry() {
        Stage stage = stage(() -> {
            throw new IllegalStateException("the table refused the commit");
        });
        assertThatThrownBy(() -> Recovery.runBatch(stage, () -> false, retries)).hasMessage("the table refused the commit");
        assertThat(heard).isEmpty();
    }

    @Test
    void anOpeningThatTimesOutOpensAgainAndAnyOtherFailureEndsIt() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        String opened = Recovery.open("p/aggregate", () -> false, () -> {
            if (calls.incrementAndGet() <= 2) {
                throw new IllegalStateException("cannot read the committed offsets", new TimeoutException("offsetFetch timed out"));
            }
            return "open";
        });
        assertThat(opened).isEqualTo("open");
        assertThat(calls).hasValue(3);

        calls.set(0);
        assertThatThrownBy(() -> Recovery.open("p/sink", () -> false, () -> {
            calls.incrementAndGet();
            throw new IllegalStateException("the table's schema differs");
        })).hasMessage("the table's schema differs");
        assertThat(calls).as("not tried again").hasValue(1);

        assertThatThrownBy(() -> Recovery.open("p/sink", () -> true, () -> {
            throw new TimeoutException("broker away");
        })).as("a stop asked for ends the wait").hasMessage("broker away");
    }

    /** A stage named p/sink whose batches are {@code batch}. */
    private static Stage stage(java.util.concurrent.Callable<Optional<Progress>> batch) {
        return new Stage(new PipelineStage() {
            @Override
            public String stageName() {
                return "p/sink";
            }

            @Override
            public Optional<Progress> runBatch() throws Exception {
                return batch.call();
            }

            @Override
            public void close() {
            }
        });
    }
}
