package io.tributary.tests;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaConstructorCall;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.Location;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import io.tributary.schema.TributaryException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The module layout the build keeps (CONTRIBUTING.md): the stages never import one another, only
 * {@code service} (and these end-to-end tests) wire stages, {@code connect} runs {@code file-ingest}
 * and {@code delta-sink} as Kafka Connect connectors and uses no other stage, a module's {@code internal} packages
 * are its own, the engines the stages run (Kafka Streams, Delta Kernel) are used by those
 * stages alone, and {@code schema}, the record model and topic contract, holds no Kafka code. Checked on the compiled classes of every module, main and test: each
 * module has a root package of its own, so a class's package names its module.
 */
class ModuleBoundariesTest {
    /** Every module of the build by its root package. */
    static final Map<String, String> MODULES = new LinkedHashMap<>();
    static final List<String> STAGES = List.of("file-ingest", "topology", "delta-sink", "delta-source");
    /** The modules that may use the stages' public packages. */
    static final List<String> WIRING = List.of("service", "tests");
    /** The stages {@code connect} runs as connectors, through their public packages, and no others. */
    static final Map<String, List<String>> CONNECTORS = Map.of(
            "file-ingest", List.of("connect"), "delta-sink", List.of("connect"));
    /**
     * The engines a stage runs, by package, and the modules that may use them: the stage's runner
     * drives its engine, and service only wires the runners (a class in service that made a
     * {@code KafkaStreams} would break this).
     */
    static final Map<String, List<String>> ENGINES = Map.of(
            "org.apache.kafka.streams..", List.of("topology"),
            "io.delta.kernel..", List.of("delta-common", "delta-sink", "delta-source"));

    static {
        MODULES.put("test-support", "io.tributary.testing");
        MODULES.put("schema", "io.tributary.schema");
        MODULES.put("settings", "io.tributary.settings");
        MODULES.put("expressions", "io.tributary.expressions");
        MODULES.put("broker", "io.tributary.broker");
        MODULES.put("kafka-support", "io.tributary.kafka");
        MODULES.put("storage", "io.tributary.storage");
        MODULES.put("delta-common", "io.tributary.delta");
        MODULES.put("file-ingest", "io.tributary.ingest");
        MODULES.put("topology", "io.tributary.topology");
        MODULES.put("delta-sink", "io.tributary.sink");
        MODULES.put("delta-source", "io.tributary.source");
        MODULES.put("service", "io.tributary.service");
        MODULES.put("connect", "io.tributary.connect");
        MODULES.put("tests", "io.tributary.tests");
    }

    static JavaClasses classes;

    /** Every module's classes, main and test, as the build compiled them (target/classes, target/test-classes). */
    @BeforeAll
    static void importEveryModule() throws URISyntaxException {
        Path root = Path.of(ModuleBoundariesTest.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                .getParent().getParent().getParent(); // tests/target/test-classes
        Set<Location> locations = new HashSet<>();
        for (String module : MODULES.keySet()) {
            for (String dir : List.of("classes", "test-classes")) {
                Path compiled = root.resolve(module).resolve("target").resolve(dir);
                if (Files.isDirectory(compiled)) {
                    locations.add(Location.of(compiled));
                }
            }
        }
        classes = new ClassFileImporter().importLocations(locations);
    }

    static String pkg(String module) {
        return MODULES.get(module) + "..";
    }

    static String[] pkgs(Stream<String> modules) {
        return modules.map(ModuleBoundariesTest::pkg).toArray(String[]::new);
    }

    /** Stages never import one another. */
    static List<ArchRule> stageRules() {
        return STAGES.stream().map(stage -> (ArchRule) noClasses().that().resideInAPackage(pkg(stage))
                .should().dependOnClassesThat().resideInAnyPackage(pkgs(STAGES.stream().filter(s -> !s.equals(stage))))
                .as("stage " + stage + " never imports another stage; service wires them through the topics")).toList();
    }

    /** Only {@code wiring}, the stage itself and the stage's {@code extra} users use a stage. */
    static List<ArchRule> wiringRules(List<String> wiring, Map<String, List<String>> extra) {
        return STAGES.stream().map(stage -> {
            List<String> users = Stream.concat(wiring.stream(), extra.getOrDefault(stage, List.of()).stream()).toList();
            return (ArchRule) noClasses()
                    .that().resideOutsideOfPackages(pkgs(Stream.concat(Stream.of(stage), users.stream())))
                    .should().dependOnClassesThat().resideInAPackage(pkg(stage))
                    .as("only " + String.join(" and ", users) + " use stage " + stage);
        }).toList();
    }

    /** A module's internal packages are its own. */
    static List<ArchRule> internalRules() {
        return MODULES.keySet().stream().map(module -> (ArchRule) noClasses().that().resideOutsideOfPackage(pkg(module))
                .should().dependOnClassesThat().resideInAPackage(MODULES.get(module) + "..internal..")
                .as("the internal packages of " + module + " are used by " + module + " alone; give it public API instead")).toList();
    }

    /** Only {@code engines}' modules use each engine. */
    static List<ArchRule> engineRules(Map<String, List<String>> engines) {
        return engines.entrySet().stream().map(e -> (ArchRule) noClasses()
                .that().resideOutsideOfPackages(pkgs(e.getValue().stream()))
                .should().dependOnClassesThat().resideInAPackage(e.getKey())
                .as("only " + String.join(", ", e.getValue()) + " use " + e.getKey().replace("..", "")
                        + "; service wires the stage that runs it")).toList();
    }

    /** The modules that use no Kafka class: the record model and the topic contract, whatever carries them. */
    static final List<String> KAFKA_FREE = List.of("schema", "settings", "expressions");

    /** {@code modules} use no Kafka class ({@code org.apache.kafka}); the Kafka helpers the stages share are in kafka-support. */
    static List<ArchRule> kafkaFreeRules(List<String> modules) {
        return modules.stream().map(module -> (ArchRule) noClasses().that().resideInAPackage(pkg(module))
                .should().dependOnClassesThat().resideInAPackage("org.apache.kafka..")
                .as(module + " uses no Kafka class; what stages share about Kafka goes into kafka-support")).toList();
    }

    /** The one door into Delta Kernel's internals (delta-common's {@code io.tributary.delta.kernel}). */
    static final String KERNEL_DOOR = "io.tributary.delta.kernel..";

    /**
     * Kernel's internals ({@code io.delta.kernel.internal}) are reached through {@code door} alone, and no
     * other class of the Delta modules reflects: an upgrade of Kernel then has one place to look at.
     */
    static List<ArchRule> kernelDoorRules(String door) {
        String[] delta = pkgs(Stream.of("delta-common", "delta-sink", "delta-source"));
        return List.of(
                noClasses().that().resideOutsideOfPackage(door)
                        .should().dependOnClassesThat().resideInAPackage("io.delta.kernel.internal..")
                        .as("only " + door.replace("..", "") + " uses Delta Kernel's internals"),
                noClasses().that().resideInAnyPackage(delta).and().resideOutsideOfPackage(door)
                        .should().dependOnClassesThat().resideInAPackage("java.lang.reflect..")
                        .as("only " + door.replace("..", "") + " reflects in the Delta modules"));
    }

    /** The exception every user-facing error is, with its subclasses. */
    static final String TRIBUTARY_EXCEPTION = "io.tributary.schema.TributaryException";

    /** The classes the errors rule judges: every module's main classes. */
    static final DescribedPredicate<JavaClass> MAIN_CLASSES = DescribedPredicate.describe("are main classes",
            (JavaClass c) -> c.getSource().map(s -> s.getUri().toString().contains("/target/classes/")).orElse(false));

    /**
     * A module's user-facing errors are made by its errors factories ({@code *Errors}, e.g.
     * {@code SinkErrors}), where their texts live together; the other classes of {@code judged}
     * throw what a factory returns. The exceptions' own constructors chain to one another.
     */
    static ArchRule errorsRule(DescribedPredicate<JavaClass> judged) {
        return noClasses()
                .that(judged)
                .and().haveSimpleNameNotEndingWith("Errors")
                .and(DescribedPredicate.describe("are no TributaryException", (JavaClass c) -> !c.isAssignableTo(TRIBUTARY_EXCEPTION)))
                .should().callConstructorWhere(DescribedPredicate.describe("the constructor is a TributaryException's",
                        (JavaConstructorCall call) -> call.getTargetOwner().isAssignableTo(TRIBUTARY_EXCEPTION)))
                .as("user-facing errors are made in the module's *Errors factories, where their texts live together");
    }

    @Test
    void stagesNeverImportOneAnotherAndInternalsStayInTheirModule() {
        List<ArchRule> rules = new ArrayList<>(stageRules());
        rules.addAll(wiringRules(WIRING, CONNECTORS));
        rules.addAll(internalRules());
        rules.addAll(engineRules(ENGINES));
        rules.addAll(kernelDoorRules(KERNEL_DOOR));
        rules.addAll(kafkaFreeRules(KAFKA_FREE));
        rules.add(errorsRule(MAIN_CLASSES));
        List<String> broken = rules.stream().map(r -> r.evaluate(classes)).filter(EvaluationResult::hasViolation)
                .map(r -> r.getFailureReport().toString()).toList();
        assertThat(broken).as("the module boundaries (CONTRIBUTING.md):%n%s", String.join("\n", broken)).isEmpty();
    }

    /**
     * The rules judge a class's module by its package: each module's classes are in its root
     * package, and the rules see every module's main and test classes, so that none passes for
     * having looked at nothing.
     */
    @Test
    void everyModuleIsLookedAtAndKeepsToItsPackage() {
        Map<String, Set<String>> kinds = new LinkedHashMap<>();
        for (JavaClass c : classes) {
            String uri = c.getSource().map(s -> s.getUri().toString()).orElse("");
            String module = MODULES.keySet().stream().filter(m -> uri.contains("/" + m + "/target/")).findFirst()
                    .orElseThrow(() -> new AssertionError(c.getName() + " comes from no module: " + uri));
            String root = MODULES.get(module);
            assertThat(c.getPackageName()).as("the package of %s (module %s)", c.getName(), module)
                    .matches(p -> p.equals(root) || p.startsWith(root + "."), "is " + root + " or below it");
            kinds.computeIfAbsent(module, k -> new HashSet<>()).add(uri.contains("/target/test-classes/") ? "test" : "main");
        }
        for (String module : MODULES.keySet()) {
            Set<String> expected = module.equals("tests") ? Set.of("test") : Set.of("main", "test");
            assertThat(kinds.get(module)).as("classes of module %s", module).containsAll(expected);
        }
    }

    /** A rule that can fail: service does use the stages, so a layout without service among the wiring modules is broken. */
    @Test
    void theRulesFindAStageUsedFromOutside() {
        assertThat(wiringRules(List.of("tests"), Map.of()).stream().filter(r -> r.evaluate(classes).hasViolation()).map(ArchRule::getDescription))
                .containsExactlyInAnyOrder(STAGES.stream().map(s -> "only tests use stage " + s).toArray(String[]::new));
    }

    /** A rule that can fail: connect uses file-ingest and delta-sink, so a layout that does not allow it is broken there alone. */
    @Test
    void theRulesFindTheStagesConnectRuns() {
        assertThat(wiringRules(WIRING, Map.of()).stream().filter(r -> r.evaluate(classes).hasViolation()).map(ArchRule::getDescription))
                .containsExactlyInAnyOrder("only service and tests use stage file-ingest", "only service and tests use stage delta-sink");
    }

    /** A rule that can fail: topology runs Kafka Streams, so a layout where only service may is broken, and says where. */
    @Test
    void theRulesFindKafkaStreamsRunOutsideItsStage() {
        EvaluationResult result = engineRules(Map.of("org.apache.kafka.streams..", List.of("service"))).get(0).evaluate(classes);
        assertThat(result.hasViolation()).isTrue();
        assertThat(result.getFailureReport().getDetails())
                .anyMatch(d -> d.contains("<io.tributary.topology.") && d.contains("<org.apache.kafka.streams.KafkaStreams."));
    }

    /** A rule that can fail: kafka-support does use Kafka, so a layout that holds it to schema's rule is broken, and says where. */
    @Test
    void theRulesFindKafkaUsedWhereItMayNotBe() {
        EvaluationResult result = kafkaFreeRules(List.of("kafka-support")).get(0).evaluate(classes);
        assertThat(result.hasViolation()).isTrue();
        assertThat(result.getFailureReport().getDetails())
                .anyMatch(d -> d.contains("<io.tributary.kafka.") && d.contains("<org.apache.kafka."));
    }

    /** A rule that can fail: the Delta stages do use Kernel's internals through the door, so a door elsewhere leaves them in breach. */
    @Test
    void theRulesFindKernelInternalsUsedOutsideTheDoor() {
        EvaluationResult result = kernelDoorRules("io.tributary.delta.nowhere..").get(0).evaluate(classes);
        assertThat(result.hasViolation()).isTrue();
        assertThat(result.getFailureReport().getDetails())
                .anyMatch(d -> d.contains("<io.tributary.delta.kernel.KernelInternals") && d.contains("<io.delta.kernel.internal."));
    }

    /** A class that builds its error in place, as no main class may: what the errors rule must find. */
    static final class InlineErrorProbe {
        static TributaryException error() {
            return new TributaryException("built in place");
        }
    }

    /** A rule that can fail: judging the probe with the main classes, the errors rule finds it, and it alone. */
    @Test
    void theRulesFindErrorsBuiltOutsideTheFactories() {
        EvaluationResult result = errorsRule(MAIN_CLASSES.or(DescribedPredicate.describe("are the probe",
                (JavaClass c) -> c.isEquivalentTo(InlineErrorProbe.class)))).evaluate(classes);
        assertThat(result.hasViolation()).isTrue();
        assertThat(result.getFailureReport().getDetails()).hasSize(1)
                .allMatch(d -> d.startsWith("Method <" + InlineErrorProbe.class.getName() + ".error()> calls constructor <"
                        + TRIBUTARY_EXCEPTION + ".<init>"), "is the probe's");
    }
}
