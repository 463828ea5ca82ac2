package io.tributary.service.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.encoder.LayoutWrappingEncoder;
import ch.qos.logback.core.spi.ContextAwareBase;
import io.tributary.delta.kernel.KernelLoggers;
import java.util.Map;

/**
 * Tributary's logging, installed by logback when no {@code logback.xml} is given (a
 * {@link Configurator} found through {@code META-INF/services}; configured in code because parsing
 * an XML file costs about half a second at every start): one {@link LineLayout} line per event on
 * stderr (stdout carries the progress JSON lines); Tributary at INFO, everything else at WARN, so
 * Kafka's client configuration dumps stay out of the log. {@code -Dlogback.configurationFile=...}
 * replaces all of it.
 */
public final class LogSetup extends ContextAwareBase implements Configurator {
    /** Loggers quieter than WARN: known harmless warnings (Kernel's, named in {@link KernelLoggers}, Hadoop
     *  without native code, a fresh KRaft log, the broker creating an internal topic another request created first,
     *  a client retrying a broker that is down or stopping, Streams' config and state folder notes, the embedded
     *  controller's request errors at shutdown). */
    static final Map<String, Level> LEVELS = Map.of(
            "io.tributary", Level.INFO,
            "org.apache.hadoop.util.NativeCodeLoader", Level.ERROR,
            "org.apache.kafka.controller.QuorumController", Level.ERROR,
            "org.apache.kafka.server.DefaultAutoTopicCreationManager", Level.ERROR,
            "org.apache.kafka.clients.NetworkClient", Level.ERROR,
            "org.apache.kafka.streams.StreamsConfig", Level.ERROR,
            "org.apache.kafka.streams.processor.internals.StateDirectory", Level.ERROR,
            "kafka.server.ControllerApis", Level.OFF);

    @Override
    public void configure(LoggerContext context) {
        LineLayout layout = new LineLayout();
        layout.setContext(context);
        layout.start();
        LayoutWrappingEncoder<ILoggingEvent> encoder = new LayoutWrappingEncoder<>();
        encoder.setContext(context);
        encoder.setLayout(layout);
        encoder.start();
        ConsoleAppender<ILoggingEvent> stderr = new ConsoleAppender<>();
        stderr.setContext(context);
        stderr.setName("STDERR");
        stderr.setTarget("System.err");
        stderr.setEncoder(encoder);
        stderr.start();
        Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        root.setLevel(Level.WARN);
        root.addAppender(stderr);
        LEVELS.forEach((name, level) -> context.getLogger(name).setLevel(level));
        KernelLoggers.HARMLESS_WARNINGS.forEach(name -> context.getLogger(name).setLevel(Level.ERROR));
    }
}
