package io.tributary.tests;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The long forms of {@link InstancesTest}, for the soak profile ({@code ./mvnw -Psoak -pl tests -am
 * verify -Dit.test=InstancesSoakTest}): three instances of each pipeline, one random instance
 * SIGKILLed every 15 to 30 s and started again, 10 times ({@code -Dtributary.instances.kills}),
 * with files arriving all along; and each broker bounced twice under a running pipeline, once
 * cleanly and once killed.
 */
@Tag("soak")
@Timeout(7200)
class InstancesSoakTest {
    static final int KILLS = Integer.getInteger("tributary.instances.kills", 10);

    /** The short test's set-up and helpers, with the long schedule. */
    static final class LongRun extends InstancesTest {
        @Override
        void killLoop(Workspace ws, String pipeline, boolean windowed, java.util.function.Consumer<List<String>> expected, int keys,
                      int kills) throws Exception {
            Random random = new Random(SEED);
            try (PipelineInstances instances = new PipelineInstances(dir, ws, pipeline, cluster.bootstrapServers())) {
                for (String i : List.of("a", "b", "c")) {
                    instances.start(i);
                }
                for (int k = 0; k < KILLS; k++) {
                    long until = System.currentTimeMillis() + 15_000 + random.nextInt(15_000);
                    while (System.currentTimeMillis() < until) { // files keep coming until the kill
                        addFiles(ws, 1, keys, expected);
                        Thread.sleep(1_000);
                    }
                    instances.assertAlive();
                    String victim = instances.ids().get(random.nextInt(3));
                    instances.kill(victim);
                    instances.start(victim);
                }
                addFiles(ws, 2, keys, expected);
                instances.awaitDrained(dir.resolve("out").toString(), windowed, Duration.ofMinutes(10));
                instances.stopAll();
            }
        }
    }

    private final LongRun run = new LongRun();

    private void around(ThrowingRunnable test) throws Exception {
        run.dir = java.nio.file.Files.createTempDirectory("tributary-instances-soak");
        InstancesTest.startCluster(run.dir);
        try {
            test.run();
        } finally {
            InstancesTest.stopCluster();
        }
    }

    interface ThrowingRunnable {
        void run() throws Exception;
    }

    @Test
    void rawPipelineTenKills() throws Exception {
        around(run::threeInstancesOfARawPipelineSurviveKillsExactly);
    }

    @Test
    void upsertPipelineTenKills() throws Exception {
        around(run::threeInstancesOfAnUpsertPipelineSurviveKillsExactly);
    }

    @Test
    void windowedPipelineTenKills() throws Exception {
        around(run::threeInstancesOfAWindowedPipelineSurviveKillsExactly);
    }

    /** Each broker stopped cleanly and started, then each killed and started, under two running instances. */
    @Test
    void everyBrokerBouncedCleanlyAndHard() throws Exception {
        around(() -> {
            Workspace ws = new Workspace(run.dir, InstancesTest.spec("bounced", InstancesTest.RAW, InstancesTest.cluster.bootstrapServers()));
            List<String> expected = new ArrayList<>();
            try (PipelineInstances instances = new PipelineInstances(run.dir, ws, "bounced", InstancesTest.cluster.bootstrapServers())) {
                instances.start("a");
                instances.start("b");
                for (boolean hard : new boolean[] {false, true}) {
                    for (int node = 1; node <= 3; node++) {
                        run.addFiles(ws, 3, 0, expected::addAll);
                        if (hard) {
                            InstancesTest.cluster.kill(node);
                        } else {
                            InstancesTest.cluster.stop(node);
                        }
                        run.addFiles(ws, 3, 0, expected::addAll);
                        InstancesTest.cluster.start(node);
                        instances.assertAlive();
                    }
                }
                instances.awaitDrained(run.dir.resolve("out").toString(), false, Duration.ofMinutes(10));
                instances.stopAll();
            }
            assertThat(run.rawRows()).containsExactlyInAnyOrderElementsOf(expected);
        });
    }

    /** Five rounds of the failover measurement. */
    @Test
    void failoverFiveRounds() throws Exception {
        System.setProperty("tributary.failover.rounds", "5");
        around(run::failoverAfterAKillIsMeasuredAndTheTableIsExact);
    }
}
