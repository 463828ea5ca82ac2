package io.tributary.storage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.function.Function;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CommonPrefix;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * A listing of a prefix ({@link ObjectStore#list}), one page of up to 1,000 from the server at a
 * time, in key order; keys ending with {@code /} are never files, common prefixes ("folders")
 * come as entries whose key ends with {@code /}. A failed page is an {@link UncheckedIOException}.
 */
final class ListingPages implements Iterator<ObjectInfo> {
    private final S3Client client;
    private final Function<SdkException, IOException> failure;
    private ListObjectsV2Request next;
    private final ArrayDeque<ObjectInfo> page = new ArrayDeque<>();

    ListingPages(S3Client client, ListObjectsV2Request first, Function<SdkException, IOException> failure) {
        this.client = client;
        this.next = first;
        this.failure = failure;
    }

    @Override
    public boolean hasNext() {
        while (page.isEmpty() && next != null) {
            ListObjectsV2Response r;
            try {
                r = client.listObjectsV2(next);
            } catch (SdkException e) {
                throw new UncheckedIOException(failure.apply(e));
            }
            for (S3Object o : r.contents()) {
                if (!o.key().endsWith("/")) {
                    page.add(new ObjectInfo(o.key(), o.size(), o.lastModified().toEpochMilli(), ObjectInfo.unquote(o.eTag())));
                }
            }
            for (CommonPrefix p : r.commonPrefixes()) {
                page.add(new ObjectInfo(p.prefix(), 0, 0, null));
            }
            if (!r.commonPrefixes().isEmpty() && !r.contents().isEmpty()) {
                ObjectInfo[] sorted = page.toArray(new ObjectInfo[0]);
                Arrays.sort(sorted, Comparator.comparing(ObjectInfo::key));
                page.clear();
                page.addAll(List.of(sorted));
            }
            next = Boolean.TRUE.equals(r.isTruncated()) && r.nextContinuationToken() != null
                    ? next.toBuilder().continuationToken(r.nextContinuationToken()).startAfter(null).build() : null;
        }
        return !page.isEmpty();
    }

    @Override
    public ObjectInfo next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        return page.poll();
    }
}
