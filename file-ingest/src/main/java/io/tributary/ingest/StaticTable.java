package io.tributary.ingest;

import io.tributary.schema.Schema;
import java.util.List;

/**
 * The static side of a stream-static join ({@code transform.join}): a Delta table the ingest reads whole at
 * a batch's start when its version is new. The ingest does not read Delta itself (stages never import one
 * another); whoever builds the config gives an {@link Opener} (the service reads the table through Delta Kernel).
 */
public interface StaticTable {
    /** The table's latest version; -1 when there is no table there. */
    long version();

    /** The latest version's schema. */
    Schema schema();

    /** The latest version's rows, in {@link #schema()}'s column order, values in Tributary's in-memory form. */
    List<Object[]> rows();

    /** Opens the table at a location as the user wrote it (a path or a URI). */
    @FunctionalInterface
    interface Opener {
        StaticTable open(String location);
    }
}
