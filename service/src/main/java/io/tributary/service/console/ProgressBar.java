package io.tributary.service.console;

import io.tributary.schema.Progress;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * A bounded run's progress on one terminal line: files done of files planned, rows, rows/s and
 * the time left, from the progress records of the pipeline's first stage (the files a batch read,
 * {@code numFiles}, and those the per-trigger limits left for later, {@code numFilesPending}).
 * Redrawn at every record and twice a second.
 */
public final class ProgressBar implements AutoCloseable {
    private static final int BAR = 20;
    private static final long TICK_MS = 500;

    /**
     * What the line shows.
     *
     * @param filesPlanned -1 while unknown (before the first batch, or a source without files)
     * @param elapsedMs since the first batch started, 0 before it
     * @param last the stage and batch last done, e.g. {@code sink batch 3}; null before any
     */
    public record Counts(long filesDone, long filesPlanned, long rows, long elapsedMs, String last, boolean finished) {
    }

    private final StatusLine line;
    private final LongSupplier clock;
    private final int width;
    private final ScheduledExecutorService ticker;
    private String inputStage;
    private long filesDone;
    private long filesPlanned = -1;
    private long rows;
    private long originMs = -1;
    private String last;

    ProgressBar(StatusLine line, LongSupplier clock, int width, boolean tick) {
        this.line = line;
        this.clock = clock;
        this.width = width;
        this.ticker = tick ? Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "tributary-progress-bar");
            t.setDaemon(true);
            return t;
        }) : null;
        draw();
        if (ticker != null) {
            ticker.scheduleAtFixedRate(this::draw, TICK_MS, TICK_MS, TimeUnit.MILLISECONDS);
        }
    }

    /** Shows the bar on this process's stderr, which must be a terminal. */
    public static ProgressBar onStderr() {
        return new ProgressBar(StatusLine.install(), System::currentTimeMillis, Terminal.columns(System.getenv()), true);
    }

    /** Names the stage whose records count files and rows (the pipeline's first). */
    public synchronized void inputStage(String stage) {
        inputStage = stage;
    }

    public synchronized void accept(Progress p) {
        last = p.name().substring(p.name().indexOf('/') + 1) + " batch " + p.batchId();
        if (p.name().equals(inputStage)) {
            if (originMs < 0 && p.numInputRows() > 0) {
                originMs = epochMs(p.timestamp(), clock.getAsLong());
            }
            rows += p.numInputRows();
            Map<String, Object> m = p.sources() == null || p.sources().isEmpty() ? null : p.sources().get(0).metrics();
            if (m != null && m.get("numFiles") instanceof Number n) {
                filesDone += n.longValue();
                if (m.get("numFilesPending") instanceof Number pending) {
                    filesPlanned = filesDone + pending.longValue();
                }
            }
        }
        draw();
    }

    synchronized Counts counts(boolean finished) {
        return new Counts(filesDone, filesPlanned, rows, originMs < 0 ? 0 : Math.max(0, clock.getAsLong() - originMs), last, finished);
    }

    private synchronized void draw() {
        line.show(render(counts(false), width));
    }

    /** The line for {@code c}, at most {@code width - 1} characters (the last column would wrap on some terminals). */
    public static String render(Counts c, int width) {
        StringBuilder s = new StringBuilder(c.finished() ? "done " : "");
        if (c.filesPlanned() > 0) {
            int full = (int) Math.min(BAR, c.filesDone() * BAR / c.filesPlanned());
            s.append('[').append("#".repeat(full)).append("-".repeat(BAR - full)).append("] ");
            s.append(c.filesDone()).append('/').append(c.filesPlanned()).append(" files · ");
        } else if (c.filesDone() > 0 || c.filesPlanned() == 0) {
            s.append(c.filesDone()).append(c.filesDone() == 1 ? " file · " : " files · ");
        }
        s.append(String.format(Locale.ROOT, "%,d rows", c.rows()));
        if (c.elapsedMs() > 0) {
            s.append(String.format(Locale.ROOT, " · %,.0f rows/s", c.rows() * 1000.0 / c.elapsedMs()));
        }
        if (c.finished()) {
            s.append(c.elapsedMs() > 0 ? " in " + clockTime(c.elapsedMs()) : "");
        } else if (c.filesPlanned() > 0 && c.filesDone() >= c.filesPlanned()) {
            s.append(" · finishing");
        } else if (c.filesPlanned() > 0 && c.filesDone() > 0 && c.elapsedMs() > 0) {
            long left = c.elapsedMs() * (c.filesPlanned() - c.filesDone()) / c.filesDone();
            s.append(" · ").append(clockTime(left)).append(" left");
        }
        s.append(" · ").append(c.last() == null ? "starting" : c.last());
        return s.length() < width ? s.toString() : s.substring(0, Math.max(0, width - 2)) + "…";
    }

    /** {@code 0:07}, {@code 12:30}, {@code 1:02:03}. */
    static String clockTime(long ms) {
        long s = (ms + 999) / 1000;
        return s >= 3600 ? String.format(Locale.ROOT, "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
                : String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60);
    }

    private static long epochMs(String iso, long otherwise) {
        try {
            return Instant.parse(iso).toEpochMilli();
        } catch (DateTimeParseException | NullPointerException e) {
            return otherwise;
        }
    }

    /** Stops redrawing and leaves the last line: "done ..." after a run that ended well, else the line as it was. */
    public void close(boolean succeeded) {
        if (ticker != null) {
            ticker.shutdownNow();
        }
        synchronized (this) {
            line.finish(render(counts(succeeded), width));
        }
    }

    @Override
    public void close() {
        close(false);
    }
}
