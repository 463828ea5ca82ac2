package io.tributary.topology.internal;

import io.tributary.schema.DataType;
import io.tributary.schema.Schema;
import java.time.Duration;
import java.util.List;

/** An aggregation's window and groups checked as Spark checks them; errors name the spec key. */
public final class WindowChecks {
    private WindowChecks() {
    }

    /** Refuses a window and a session together, a session with a slide, and lengths, slides or gaps Spark does not take. */
    public static void durations(Duration window, Duration slide, Duration session, Duration watermark) {
        if (window != null && session != null) {
            throw TopologyErrors.windowAndSession(window, session);
        }
        if (session != null) {
            if (session.isNegative() || session.isZero() || session.toNanos() % 1000 != 0) {
                throw TopologyErrors.badSessionGap(session);
            }
            if (slide != null) {
                throw TopologyErrors.slideWithSession(slide);
            }
        } else if (window == null) {
            throw TopologyErrors.noWindow();
        }
        if (window != null && (window.isNegative() || window.isZero() || window.toNanos() % 1000 != 0)) {
            throw TopologyErrors.badWindow(window);
        }
        if (slide != null && (slide.isNegative() || slide.isZero() || slide.toNanos() % 1000 != 0)) {
            throw TopologyErrors.badSlide(slide);
        }
        if (slide != null && window != null && slide.compareTo(window) > 0) {
            throw TopologyErrors.slideLongerThanWindow(slide, window);
        }
        if (watermark != null && watermark.isNegative()) {
            throw TopologyErrors.negativeWatermark(watermark);
        }
    }

    /** The positions of the group-by {@code columns} in {@code input}; one that is not there, or of a type rows are not grouped by, is refused. */
    public static int[] groupByIndex(Schema input, List<String> columns) {
        int[] index = new int[columns.size()];
        for (int i = 0; i < columns.size(); i++) {
            index[i] = input.indexOf(columns.get(i));
            if (index[i] < 0) {
                throw TopologyErrors.groupByNotInSchema(columns.get(i), input.toDdl());
            }
            DataType.Kind kind = input.field(index[i]).type().kind();
            if (kind == DataType.Kind.ARRAY || kind == DataType.Kind.MAP) {
                throw TopologyErrors.groupByNotGroupable(columns.get(i), input.field(index[i]).type().ddl());
            }
        }
        return index;
    }
}
