package io.tributary.service;

import io.tributary.schema.BuildVersion;
import io.tributary.schema.TributaryException;
import io.tributary.service.bench.BenchStats;
import java.util.List;
import org.apache.kafka.common.config.ConfigException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code tributary} command line. */
@Command(name = "tributary", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        description = "Incremental ETL on Kafka, Kafka Streams and Delta Lake, with Spark Structured Streaming's semantics.")
public final class Main {
    /** The subcommands, in the order the help lists them. */
    private static final List<Class<?>> SUBCOMMANDS = List.of(RunCommand.class, CheckpointCommand.class, OptimizeCommand.class,
            VacuumCommand.class, DescribeCommand.class, ShowCommand.class, BenchCommand.class, CommandLine.HelpCommand.class);

    public static void main(String[] args) {
        BenchStats.mainStarted();
        int code;
        try {
            code = commandLine(args.length > 0 ? args[0] : null).execute(args);
        } catch (Throwable t) { // an Error picocli does not handle: the embedded broker's threads must not keep us alive
            System.err.println("tributary: unexpected failure: " + t);
            t.printStackTrace();
            code = 1;
        }
        System.out.flush();
        BenchStats.writeIfAsked();
        if (jdk.jfr.FlightRecorder.isInitialized()) {
            System.exit(code); // a profiling run (-XX:StartFlightRecording): shutdown hooks write the recording
        }
        // Kafka leaves non-daemon threads (metrics, broker) behind; the command is done, so leave now
        Runtime.getRuntime().halt(code);
    }

    /** The command line with Tributary's error handling: a user error is one clear line, exit 1. */
    public static CommandLine commandLine() {
        return commandLine(null);
    }

    /**
     * {@link #commandLine()} with only subcommand {@code first} when the arguments start with its
     * name: picocli reads every subcommand's annotations when it is added (0.1 s of a run's start).
     */
    static CommandLine commandLine(String first) {
        CommandLine cl = new CommandLine(new Main());
        List<Class<?>> named = SUBCOMMANDS.stream().filter(c -> c.getAnnotation(Command.class).name().equals(first)).toList();
        (named.isEmpty() || first.equals("help") ? SUBCOMMANDS : named).forEach(cl::addSubcommand);
        cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
            Throwable t = ex;
            while (!(t instanceof TributaryException || t instanceof ConfigException) && t.getCause() != null && t.getCause() != t) {
                t = t.getCause();
            }
            if (t instanceof TributaryException) {
                cmd.getErr().println("tributary: error: " + t.getMessage());
            } else if (t instanceof ConfigException) { // a Kafka client refused the spec's kafka: settings
                cmd.getErr().println("tributary: error: kafka: " + t.getMessage());
            } else {
                cmd.getErr().println("tributary: unexpected failure: " + ex);
                ex.printStackTrace(cmd.getErr());
            }
            cmd.getErr().flush();
            return 1;
        });
        return cl;
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"tributary " + BuildVersion.get()};
        }
    }
}
