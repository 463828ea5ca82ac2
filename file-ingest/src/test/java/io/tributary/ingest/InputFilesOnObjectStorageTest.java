package io.tributary.ingest;

import static io.tributary.ingest.IngestKit.text;
import static io.tributary.ingest.IngestKit.write;
import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.ingest.InputFiles.InputFile;
import io.tributary.schema.Schema;
import io.tributary.storage.S3ServerExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link InputFiles} (the Kafka Connect source's file handling) on a real S3 server (S3Proxy): list, read, clean. */
@Tag("integration")
@Timeout(120)
class InputFilesOnObjectStorageTest {
    @RegisterExtension
    static final S3ServerExtension S3 = new S3ServerExtension();

    @Test
    void objectsAreListedReadAndArchivedOnTheServer() throws Exception {
        Path bucket = S3.createBucket("connect-landing");
        write(bucket.resolve("in"), "a.json", "{\"id\": 1}\n{\"id\": 2}\n", 1_000);
        write(bucket.resolve("in"), "b.json", "{\"id\": 3}\nnot json\n", 2_000);
        IngestConfig config = IngestConfig.builder("connect-s3", "s3a://connect-landing/in/", Schema.parse("id INT"))
                .storage(S3.storage()).cleanSource(CleanSource.forLocation("archive", "s3a://connect-landing/done/")).build();
        InputFiles files = new InputFiles(config);

        List<InputFile> listed = files.list(System.currentTimeMillis());
        assertThat(listed).extracting(InputFile::relPath).containsExactly("a.json", "b.json");
        assertThat(listed).allSatisfy(f -> assertThat(f.path()).as("an object has no local path").isNull());

        List<String> rows = new ArrayList<>();
        List<String> deadLetters = new ArrayList<>();
        InputFiles.Out out = new InputFiles.Out() {
            @Override
            public void rows(byte[] value, Long timestampMs) {
                rows.add(text(value).replace(" ", ""));
            }

            @Override
            public void deadLetter(byte[] key, byte[] value) {
                deadLetters.add(text(value));
            }
        };
        IngestedFile a = files.read(listed.get(0), 7, out);
        IngestedFile b = files.read(listed.get(1), 7, out);
        assertThat(a.rows()).isEqualTo(2);
        assertThat(a.etag()).isEqualTo(listed.get(0).etag());
        assertThat(b.rows()).isEqualTo(1);
        assertThat(b.badRows()).isEqualTo(1);
        assertThat(String.join("\n", rows)).contains("{\"id\":1}", "{\"id\":2}", "{\"id\":3}");
        assertThat(deadLetters).singleElement().asString().contains("b.json").contains("not json");

        assertThat(files.clean(listed)).isEqualTo(2);
        assertThat(Files.exists(bucket.resolve("in/a.json"))).isFalse();
        assertThat(Files.readString(bucket.resolve("done/a.json"))).isEqualTo("{\"id\": 1}\n{\"id\": 2}\n");
        assertThat(files.list(System.currentTimeMillis())).isEmpty();
    }
}
