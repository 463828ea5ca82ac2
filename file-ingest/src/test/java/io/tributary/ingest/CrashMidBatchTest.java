package io.tributary.ingest;

import static io.tributary.ingest.IngestKit.readCommitted;
import static io.tributary.ingest.IngestKit.text;
import static io.tributary.ingest.IngestKit.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.broker.BrokerExtension;
import io.tributary.schema.Progress;
import io.tributary.schema.Schema;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The process dies after rows reached the KAFKA.broker() but before the batch committed: the restart publishes them once. */
@Tag("integration")
@Timeout(180)
class CrashMidBatchTest {
    static final Schema SCHEMA = Schema.parse("id INT");
    static final int ROWS = 5000;

    @TempDir
    static Path tmp;
    @RegisterExtension
    static final BrokerExtension KAFKA = new BrokerExtension();

    /** Stands for the process dying: nothing in the ingest catches an Error, so the transaction stays open. */
    static final class Crash extends Error {
    }

    /** A policy that, at the first bad record, runs {@code first} and then dies ({@link Crash}), the transaction left open. */
    static BadRecordPolicy crashAtABadRecord(Runnable first) {
        return new BadRecordPolicy() {
            @Override
            public String name() {
                return "crash";
            }

            @Override
            public Action onBadRecord(BadRecord bad) {
                first.run();
                throw new Crash();
            }
        };
    }

    @Test
    void killAfterRowsAreProducedBeforeTheIngestTransactionCommits() throws Exception {
        Path in = tmp.resolve("crash/in");
        StringBuilder sb = new StringBuilder();
        for (int i = 1; i <= ROWS; i++) {
            sb.append("{\"id\": ").append(i).append("}\n");
        }
        write(in, "a.json", sb + "crash here\n", 1_000);
        String pipeline = IngestKit.uniquePipeline("crash");
        String events = "tributary." + pipeline + ".events";
        BadRecordPolicy dieOnceRowsAreOnTheBroker = crashAtABadRecord(() -> IngestKit.awaitRecordsPast(KAFKA.broker(), events, 0));
        IngestConfig crashing = IngestConfig.builder(pipeline, in, SCHEMA).onBadRecord(dieOnceRowsAreOnTheBroker).build();
        IngestKit.createTopics(KAFKA.broker(), crashing, 2);

        FileIngest dying = new FileIngest(crashing, IngestKit.props(KAFKA.broker()));
        assertThatThrownBy(dying::runBatch).isInstanceOf(Crash.class);
        assertThat(IngestKit.readCommittedNow(KAFKA.broker(), events)).as("the dead batch's transaction is open").isEmpty();

        IngestConfig restarted = IngestConfig.builder(pipeline, in, SCHEMA).onBadRecord(BadRecordPolicy.DROP).build();
        try (FileIngest ingest = new FileIngest(restarted, IngestKit.props(KAFKA.broker()))) {
            Progress p = ingest.runBatch().orElseThrow();
            assertThat(p.batchId()).isZero();
            assertThat(p.numInputRows()).isEqualTo(ROWS);
            assertThat(ingest.runBatch()).isEmpty();
        } finally {
            dying.close();
        }
        List<ConsumerRecord<byte[], byte[]>> published = readCommitted(KAFKA.broker(), events);
        Set<String> distinct = new HashSet<>();
        published.forEach(r -> distinct.add(text(r.value())));
        assertThat(published).hasSize(ROWS);
        assertThat(distinct).hasSize(ROWS);
    }
}
