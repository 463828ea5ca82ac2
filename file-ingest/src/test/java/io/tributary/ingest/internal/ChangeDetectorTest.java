package io.tributary.ingest.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.ingest.ChangedFile;
import io.tributary.ingest.IngestedFile;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** An object's identity is its key and ETag: a new ETag is a replaced object, a new time alone is not. */
class ChangeDetectorTest {
    private final ChangeDetector changes = new ChangeDetector(new FileDiscovery(Path.of("in")));
    private final IngestedFile ingested = new IngestedFile("a.json", 10, 1_000, "sha", 1, 0, 0, "etag-1");

    @Test
    void aReplacedObjectOfTheSameSizeIsChanged() {
        ChangedFile c = changes.check(new FileStat("a.json", null, 10, 1_000, "etag-2"), ingested);
        assertThat(c).isNotNull();
        assertThat(c.reason()).isEqualTo("it was replaced: ETag etag-1 when ingested, now etag-2, same size");
    }

    @Test
    void theSameETagIsTheSameObjectWhateverItsTimeSaysAndNothingIsRead() {
        // no local path and no server: reading the object to hash it would fail the test
        assertThat(changes.check(new FileStat("a.json", null, 10, 5_000, "etag-1"), ingested)).isNull();
    }

    @Test
    void aNewSizeIsAChangeBeforeAnyETagIsCompared() {
        assertThat(changes.check(new FileStat("a.json", null, 11, 1_000, "etag-1"), ingested).reason())
                .isEqualTo("its size was 10 bytes when ingested, now 11");
    }
}
