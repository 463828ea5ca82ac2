package io.tributary.service.internal;

import io.tributary.expressions.Transform;
import io.tributary.schema.Schema;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a run that records the launcher's class-data archive (a distribution's first run, when the build's archive does
 * not fit it) adds to its own work so that later runs map the classes they need whatever that first run was: the
 * expression engine's. A first run without a transform would leave out the parser, the function registry, the compiler
 * and their lambdas (about 900 classes, 400 of them lambdas), and every later run with a {@code transform:} would load
 * and spin them from the jars, about half a second of CPU at each start. The transform compiled here is the one of the
 * training run of {@code bin/tributary cds} (its {@code where} and {@code select}), evaluated once on one row.
 */
public final class ArchiveRecording {
    private static final Logger LOG = LoggerFactory.getLogger(ArchiveRecording.class);
    static final Schema ROWS = Schema.parse("id INT, user STRING, amt DOUBLE, ts TIMESTAMP");
    static final String WHERE = "id >= 0 AND user IS NOT NULL AND amt BETWEEN 0 AND 1000 AND user IN ('alice', 'bob', 'carol')";
    static final List<String> SELECT = List.of("*", "upper(user) AS u", "lower(trim(user)) AS l",
            "concat(user, '-', CAST(id AS STRING)) AS c", "substring(user, 1, 2) AS s", "amt * 1.1 AS amt2", "round(amt, 1) AS r",
            "CAST(amt AS BIGINT) + id AS n", "coalesce(user, 'none') AS o", "CASE WHEN amt > 10 THEN 'big' ELSE 'small' END AS k",
            "to_date(ts) AS day", "date_trunc('hour', ts) AS hour", "hash(id, user) AS h");

    private ArchiveRecording() {
    }

    /** On a run that records the archive ({@link FirstEmptyRun#RECORDING}): loads the expression engine's classes; else nothing. */
    public static void loadClassesIfRecording() {
        if (!Boolean.getBoolean(FirstEmptyRun.RECORDING)) {
            return;
        }
        try {
            Transform t = Transform.compile(ROWS, WHERE, SELECT);
            t.apply(new Object[] {1, "alice", 1.5, 1_704_103_200_000_000L});
        } catch (RuntimeException e) {
            LOG.debug("the expression engine's classes were not all loaded for the class-data archive", e); // the run goes on
        }
    }
}
