package io.tributary.ingest.internal;

import io.tributary.ingest.ChangedFile;
import io.tributary.ingest.SkippedFiles;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Counts, over a run, the files it leaves unread: ingested files that changed on disk since, new
 * files {@code fileMinAge} holds back or that are still being written ({@code fileSettleTime}), and
 * files whose rest {@code ignoreCorruptFiles} skipped. Each plan and batch adds what it saw; the
 * run's end says it once.
 */
public final class SkipTally {
    private static final Logger LOG = LoggerFactory.getLogger(SkipTally.class);
    /** The most names one log line lists. */
    private static final int NAMES_LOGGED = 10;

    private final FileDiscovery discovery;
    private final Duration minAge;
    private final Duration settleTime;
    private final Map<String, String> changed = new LinkedHashMap<>(); // name -> printable name
    private final Map<String, String> corrupt = new LinkedHashMap<>();
    private List<String> heldBack = List.of();
    private List<String> settling = List.of();
    private boolean reported;

    public SkipTally(FileDiscovery discovery, Duration minAge, Duration settleTime) {
        this.discovery = discovery;
        this.minAge = minAge;
        this.settleTime = settleTime;
    }

    /** Takes what a look at the folder found: every changed file counts once per run; the held-back files are the last look's. */
    public void saw(BatchPlanner.Plan plan) {
        for (ChangedFile c : plan.changed()) {
            changed.computeIfAbsent(c.path(), discovery::display);
        }
        heldBack = plan.heldBack().stream().map(f -> discovery.display(f.relPath())).toList();
        settling = plan.settling().stream().map(f -> discovery.display(f.relPath())).toList();
    }

    /** Takes what a committed batch read: the files whose rest was skipped as corrupt count once per run. */
    public void published(BatchOutcome outcome) {
        for (FileResult r : outcome.files()) {
            if (r.corruption() != null) {
                corrupt.computeIfAbsent(r.file().relPath(), discovery::display);
            }
        }
    }

    /** The run's unread files; the first call logs them (WARN), once per run, not once per batch. */
    public SkippedFiles endRun(String pipeline) {
        SkippedFiles s = new SkippedFiles(List.copyOf(changed.values()), heldBack, settling, List.copyOf(corrupt.values()));
        if (!reported) {
            reported = true;
            if (!s.changedAfterIngest().isEmpty()) {
                LOG.warn("pipeline {}: this run did not read {} changed after {} ingested: {}. Spark's file source never reads"
                                + " a file twice; write new data to a new file name (tributary checkpoint show lists them)", pipeline,
                        files(s.changedAfterIngest().size()), s.changedAfterIngest().size() == 1 ? "it was" : "they were",
                        names(s.changedAfterIngest()));
            }
            if (!s.heldBack().isEmpty()) {
                LOG.warn("pipeline {}: {} modified less than {} ago {} held back by source.files.fileMinAge and {} not in this run: {};"
                                + " a later run takes {}", pipeline, files(s.heldBack().size()), age(minAge),
                        s.heldBack().size() == 1 ? "was" : "were", s.heldBack().size() == 1 ? "is" : "are", names(s.heldBack()),
                        s.heldBack().size() == 1 ? "it" : "them");
            }
            if (!s.settling().isEmpty()) {
                LOG.warn("pipeline {}: {} still being written (size or modification time changed within the last {}) {} held back and {}"
                                + " not in this run: {}; a later run takes {} once {} held still (source.files.fileSettleTime)", pipeline,
                        files(s.settling().size()), age(settleTime), s.settling().size() == 1 ? "was" : "were",
                        s.settling().size() == 1 ? "is" : "are", names(s.settling()), s.settling().size() == 1 ? "it" : "them",
                        s.settling().size() == 1 ? "it" : "they");
            }
            if (!s.corrupt().isEmpty()) {
                LOG.warn("pipeline {}: this run read {} only up to where {} data broke off and skipped the rest"
                                + " (source.files.ignoreCorruptFiles): {}", pipeline, files(s.corrupt().size()),
                        s.corrupt().size() == 1 ? "its" : "their", names(s.corrupt()));
            }
        }
        return s;
    }

    /** {@code 1h}, {@code 1s}, {@code 0.5s}. */
    private static String age(Duration d) {
        return d.toString().substring(2).toLowerCase(Locale.ROOT);
    }

    private static String files(int n) {
        return n == 1 ? "1 file" : n + " files";
    }

    private static String names(List<String> names) {
        if (names.size() <= NAMES_LOGGED) {
            return String.join(", ", names);
        }
        return String.join(", ", names.subList(0, NAMES_LOGGED)) + " and " + (names.size() - NAMES_LOGGED) + " more";
    }
}
