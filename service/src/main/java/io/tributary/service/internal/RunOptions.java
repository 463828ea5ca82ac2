package io.tributary.service.internal;

/**
 * How a run treats its state.
 *
 * @param reprocess accept that a lost state means every input file is read and written again
 */
public record RunOptions(boolean reprocess) {
    public static final RunOptions DEFAULT = new RunOptions(false);
}
