package io.tributary.topology.internal;

import java.util.Map;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.internals.CacheFlushListener;
import org.apache.kafka.streams.state.internals.CachedStateStore;

/**
 * A state store that holds nothing and runs a callback before each commit of its task: the
 * processor's write-back map of open windows ({@link OpenWindows}) writes itself into the
 * windows store there, so everything a commit covers is in the store and its changelog.
 *
 * <p>Why this works (Kafka Streams 4.4, checked in its source): a commit of a task, whatever
 * asked for it (the commit interval, {@code context.commit()}, another task's commit under
 * exactly_once_v2, a rebalance, a clean close), runs {@code StreamTask.prepareCommit}, which
 * calls {@code ProcessorStateManager.flushCache()} (each store that is a
 * {@link CachedStateStore} gets {@code flushCache()}) and then flushes the record collector,
 * before the offsets go into the transaction and it commits. So the changelog records the
 * callback sends are in the same transaction as the offsets. The windows store must not have a
 * record cache of its own: the stores' caches are flushed in registration order, and one
 * flushed before the callback would hold its writes past the commit. {@link CachedStateStore}
 * is an internal interface of Kafka Streams; {@code CommitHookTest} fails if it stops being called.
 * A dirty close (a crash, a fenced producer) commits nothing and drops the map with the task's
 * uncommitted state, which Streams restores from the changelog.
 */
public final class CommitHook implements StateStore, CachedStateStore<Object, Object> {
    private final String name;
    private Runnable beforeCommit = () -> { };
    private boolean open;

    CommitHook(String name) {
        this.name = name;
    }

    /** Runs {@code r} before each commit of the task, instead of the previous callback. */
    public void beforeCommit(Runnable r) {
        this.beforeCommit = r;
    }

    @Override
    public void flushCache() {
        beforeCommit.run();
    }

    @Override
    public void clearCache() {
        // nothing cached here; the processor's map is dropped with the processor's task state
    }

    @Override
    public boolean setFlushListener(CacheFlushListener<Object, Object> listener, boolean sendOldValues) {
        return false;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void init(StateStoreContext context, StateStore root) {
        context.register(root, (key, value) -> { });
        open = true;
    }

    @Override
    public void close() {
        open = false;
    }

    @Override
    public boolean persistent() {
        return false;
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    /** The builder Topology.addStateStore takes: no changelog, no cache. */
    public static StoreBuilder<CommitHook> builder(String name) {
        return new StoreBuilder<>() {
            @Override
            public StoreBuilder<CommitHook> withCachingEnabled() {
                throw new UnsupportedOperationException("the commit hook has no cache");
            }

            @Override
            public StoreBuilder<CommitHook> withCachingDisabled() {
                return this;
            }

            @Override
            public StoreBuilder<CommitHook> withLoggingEnabled(Map<String, String> config) {
                throw new UnsupportedOperationException("the commit hook has no changelog");
            }

            @Override
            public StoreBuilder<CommitHook> withLoggingDisabled() {
                return this;
            }

            @Override
            public CommitHook build() {
                return new CommitHook(name);
            }

            @Override
            public Map<String, String> logConfig() {
                return Map.of();
            }

            @Override
            public boolean loggingEnabled() {
                return false;
            }

            @Override
            public String name() {
                return name;
            }
        };
    }
}
