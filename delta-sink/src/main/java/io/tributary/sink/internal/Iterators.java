package io.tributary.sink.internal;

import io.delta.kernel.utils.CloseableIterable;
import io.delta.kernel.utils.CloseableIterator;
import java.util.Iterator;
import java.util.List;

/** Kernel's closeable iterators over in-memory lists. */
final class Iterators {
    private Iterators() {
    }

    static <T> CloseableIterator<T> of(List<T> items) {
        Iterator<T> it = items.iterator();
        return new CloseableIterator<>() {
            @Override
            public boolean hasNext() {
                return it.hasNext();
            }

            @Override
            public T next() {
                return it.next();
            }

            @Override
            public void close() {
            }
        };
    }

    /** An iterable that Kernel may iterate more than once (it does when it retries a commit). */
    static <T> CloseableIterable<T> iterable(List<T> items) {
        return new CloseableIterable<>() {
            @Override
            public CloseableIterator<T> iterator() {
                return of(items);
            }

            @Override
            public void close() {
            }
        };
    }
}
