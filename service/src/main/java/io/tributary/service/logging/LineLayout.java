package io.tributary.service.logging;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.CoreConstants;
import ch.qos.logback.core.LayoutBase;
import com.fasterxml.jackson.core.io.JsonStringEncoder;
import io.tributary.schema.Printable;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Map;

/**
 * One log event as one line: {@code 10:15:30.123 INFO Pipeline - message} in {@link LogFormat#TEXT},
 * or a JSON object ({@code ts}, {@code level}, {@code logger}, {@code thread}, {@code message},
 * MDC keys, {@code exception}) in {@link LogFormat#JSON}, for log shippers. The format is the
 * process-wide {@link LogFormat#current()}, set from the spec's {@code log.format}.
 *
 * <p>A text line's message and its exceptions' messages are {@link Printable#escape escaped}: a
 * file name holding a line end or a terminal escape code cannot forge a log line or drive the
 * terminal. Only a stack trace's own frames take lines of their own. JSON escapes by itself.
 */
public final class LineLayout extends LayoutBase<ILoggingEvent> {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSS").withZone(ZoneId.systemDefault());
    private static final JsonStringEncoder QUOTE = JsonStringEncoder.getInstance();

    @Override
    public String doLayout(ILoggingEvent e) {
        return LogFormat.current() == LogFormat.JSON ? json(e) : text(e);
    }

    static String text(ILoggingEvent e) {
        StringBuilder b = new StringBuilder(128);
        b.append(TIME.format(Instant.ofEpochMilli(e.getTimeStamp()))).append(' ').append(e.getLevel()).append(' ')
                .append(shortName(e.getLoggerName())).append(" - ").append(Printable.escape(e.getFormattedMessage()))
                .append(CoreConstants.LINE_SEPARATOR);
        IThrowableProxy t = e.getThrowableProxy();
        if (t != null) {
            throwable(b, null, ThrowableProxyUtil.REGULAR_EXCEPTION_INDENT, t);
            b.append(CoreConstants.LINE_SEPARATOR);
        }
        return b.toString();
    }

    /** {@link ThrowableProxyUtil#asString}, each exception's message escaped. */
    private static void throwable(StringBuilder b, String prefix, int indent, IThrowableProxy t) {
        if (t == null) {
            return;
        }
        ThrowableProxyUtil.indent(b, indent - 1);
        if (prefix != null) {
            b.append(prefix);
        }
        b.append(t.getClassName()).append(": ").append(Printable.escape(String.valueOf(t.getMessage()))).append(CoreConstants.LINE_SEPARATOR);
        ThrowableProxyUtil.subjoinSTEPArray(b, indent, t);
        if (t.getSuppressed() != null) {
            for (IThrowableProxy s : t.getSuppressed()) {
                throwable(b, CoreConstants.SUPPRESSED, indent + ThrowableProxyUtil.SUPPRESSED_EXCEPTION_INDENT, s);
            }
        }
        throwable(b, CoreConstants.CAUSED_BY, indent, t.getCause());
    }

    static String json(ILoggingEvent e) {
        StringBuilder b = new StringBuilder(256);
        b.append("{\"ts\":\"").append(Instant.ofEpochMilli(e.getTimeStamp())).append('"');
        field(b, "level", e.getLevel().toString());
        field(b, "logger", e.getLoggerName());
        field(b, "thread", e.getThreadName());
        field(b, "message", e.getFormattedMessage());
        Map<String, String> mdc = e.getMDCPropertyMap();
        if (mdc != null) {
            mdc.forEach((k, v) -> field(b, k, v));
        }
        IThrowableProxy t = e.getThrowableProxy();
        if (t != null) {
            field(b, "exception", ThrowableProxyUtil.asString(t));
        }
        return b.append('}').append(CoreConstants.LINE_SEPARATOR).toString();
    }

    private static void field(StringBuilder b, String name, String value) {
        b.append(",\"");
        QUOTE.quoteAsString(name, b);
        b.append("\":");
        if (value == null) {
            b.append("null");
        } else {
            b.append('"');
            QUOTE.quoteAsString(value, b);
            b.append('"');
        }
    }

    private static String shortName(String logger) {
        int dot = logger.lastIndexOf('.');
        return dot < 0 ? logger : logger.substring(dot + 1);
    }
}
