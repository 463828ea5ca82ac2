package io.tributary.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.tributary.schema.TributaryException;
import java.io.FileNotFoundException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

@Tag("integration")
class ObjectStoreTest {
    @RegisterExtension
    static final S3ServerExtension S3 = new S3ServerExtension();

    @Test
    void listsPagesOfAPrefixWithEachObjectsMetadataOnce() throws Exception {
        Path bucket = S3.createBucket("many");
        Files.createDirectories(bucket.resolve("in/sub"));
        for (int i = 0; i < 2_345; i++) {
            Files.writeString(bucket.resolve(String.format("in/f-%05d.json", i)), "{}\n");
        }
        Files.writeString(bucket.resolve("in/sub/nested.json"), "{}\n");
        ObjectStore store = ObjectStore.of(S3.storage());
        List<ObjectInfo> direct = new ArrayList<>();
        store.list(ObjectLocation.parse("s3a://many/in/"), false, null).forEachRemaining(direct::add);
        assertThat(direct.stream().filter(o -> !o.key().endsWith("/"))).hasSize(2_345)
                .allSatisfy(o -> assertThat(o.size()).isEqualTo(3));
        assertThat(direct.stream().filter(o -> o.key().endsWith("/")).map(ObjectInfo::key)).containsExactly("in/sub/");
        List<String> all = new ArrayList<>();
        store.list(ObjectLocation.parse("s3a://many/in"), true, "in/f-02340.json").forEachRemaining(o -> all.add(o.key()));
        assertThat(all).containsExactly("in/f-02341.json", "in/f-02342.json", "in/f-02343.json", "in/f-02344.json", "in/sub/nested.json");
    }

    @Test
    void readsOnlyTheVersionListedAndPutIfAbsentRefusesATakenKey() throws Exception {
        S3.createBucket("rwx");
        ObjectStore store = ObjectStore.of(S3.storage());
        ObjectLocation a = ObjectLocation.parse("s3a://rwx/t/a.json");
        store.put(a, "one\n".getBytes(StandardCharsets.UTF_8));
        ObjectInfo first = store.head(a);
        try (InputStream in = store.open(a, first.etag(), 0)) {
            assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("one\n");
        }
        store.put(a, "two!\n".getBytes(StandardCharsets.UTF_8));
        assertThatThrownBy(() -> store.open(a, first.etag(), 0).close()).isInstanceOf(ObjectStore.ObjectChangedException.class);
        assertThat(new String(store.read(a, 1, 3), StandardCharsets.UTF_8)).isEqualTo("wo!");

        ObjectLocation commit = ObjectLocation.parse("s3a://rwx/t/_delta_log/00000000000000000000.json");
        store.putIfAbsent(commit, "{}".getBytes(StandardCharsets.UTF_8));
        assertThatThrownBy(() -> store.putIfAbsent(commit, "{\"other\":1}".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(FileAlreadyExistsException.class);
        assertThat(new String(store.read(commit, 0, 2), StandardCharsets.UTF_8)).isEqualTo("{}");
        assertThat(store.head(ObjectLocation.parse("s3a://rwx/t/none"))).isNull();
        assertThatThrownBy(() -> store.open(ObjectLocation.parse("s3a://rwx/t/none"), null, 0)).isInstanceOf(FileNotFoundException.class);
    }

    @Test
    void aMissingBucketWrongCredentialsOrNoServerIsOneLineNamingThePath() throws Exception {
        assertThatThrownBy(() -> ObjectStore.of(S3.storage()).requireReachable(ObjectLocation.parse("s3a://nobucket/in/"), "input folder"))
                .isInstanceOf(TributaryException.class)
                .hasMessage("input folder s3a://nobucket/in: bucket 'nobucket' does not exist (NoSuchBucket); create it or fix the path");
        S3.createBucket("there");
        Map<String, String> wrongSecret = new HashMap<>(S3.settings());
        wrongSecret.put("fs.s3a.secret.key", "not-the-secret");
        assertThatThrownBy(() -> ObjectStore.of(Storage.of(wrongSecret)).requireReachable(ObjectLocation.parse("s3a://there/t"), "table"))
                .isInstanceOf(TributaryException.class)
                .hasMessageStartingWith("table s3a://there/t: the secret key does not match the access key (SignatureDoesNotMatch)")
                .hasMessageNotContaining("not-the-secret");
        Map<String, String> wrongKey = new HashMap<>(S3.settings());
        wrongKey.put("fs.s3a.access.key", "nobody");
        assertThatThrownBy(() -> ObjectStore.of(Storage.of(wrongKey)).requireReachable(ObjectLocation.parse("s3a://there/t"), "table"))
                .hasMessageStartingWith("table s3a://there/t: the server does not know the access key (InvalidAccessKeyId)");
        Map<String, String> noServer = new HashMap<>(S3.settings());
        int closedPort;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            closedPort = s.getLocalPort();
        }
        noServer.put("fs.s3a.endpoint", "http://127.0.0.1:" + closedPort);
        assertThatThrownBy(() -> ObjectStore.of(Storage.of(noServer)).requireReachable(ObjectLocation.parse("s3a://there/t"), "table"))
                .hasMessageStartingWith("table s3a://there/t: no S3 server answers at http://127.0.0.1:" + closedPort)
                .hasMessageEndingWith("check fs.s3a.endpoint");
    }

    /** A server that does not answer is an outage a caller may wait out; a missing bucket or refused credentials are final. */
    @Test
    void anOutageIsToldFromAFinalAnswer() throws Exception {
        S3.createBucket("final");
        ObjectLocation folder = ObjectLocation.parse("s3a://final/in/");
        Map<String, String> noServer = new HashMap<>(S3.settings());
        int closedPort;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            closedPort = s.getLocalPort();
        }
        noServer.put("fs.s3a.endpoint", "http://127.0.0.1:" + closedPort);
        noServer.put("fs.s3a.attempts.maximum", "1");
        Throwable down = catchThrowable(() -> ObjectStore.of(Storage.of(noServer)).folderExists(folder));
        assertThat(down).isInstanceOf(StorageException.class).hasMessageContaining("no S3 server answers");
        assertThat(StorageException.outage(new java.io.UncheckedIOException((StorageException) down))).as("wrapped").isTrue();

        Throwable noBucket = catchThrowable(() -> ObjectStore.of(S3.storage()).folderExists(ObjectLocation.parse("s3a://nobucket/in/")));
        assertThat(noBucket).isInstanceOf(StorageException.class);
        assertThat(StorageException.outage(noBucket)).as(noBucket.getMessage()).isFalse();
        Map<String, String> wrongSecret = new HashMap<>(S3.settings());
        wrongSecret.put("fs.s3a.secret.key", "not-the-secret");
        Throwable refused = catchThrowable(() -> ObjectStore.of(Storage.of(wrongSecret)).folderExists(folder));
        assertThat(refused).isInstanceOf(StorageException.class);
        assertThat(StorageException.outage(refused)).as(refused.getMessage()).isFalse();
    }

    /** Past fs.s3a.multipart.threshold a file goes up in parts and a copy is made in parts; the object is the same bytes. */
    @Test
    void largeFilesAreUploadedAndCopiedInParts() throws Exception {
        Path bucket = S3.createBucket("parts");
        Map<String, String> small = new HashMap<>(S3.settings());
        small.put("fs.s3a.multipart.threshold", "6M");
        small.put("fs.s3a.multipart.size", "5M");
        ObjectStore store = ObjectStore.of(Storage.of(small));
        byte[] data = new byte[(12 << 20) + 12_345];
        new java.util.Random(20).nextBytes(data);
        Path file = Files.write(bucket.resolveSibling("parts-source.bin"), data);
        ObjectLocation big = ObjectLocation.parse("s3a://parts/big.bin");
        store.put(big, file);
        ObjectInfo uploaded = store.head(big);
        assertThat(uploaded.size()).isEqualTo(data.length);
        assertThat(uploaded.etag()).as("a multipart upload's ETag counts its parts").endsWith("-3");
        assertThat(Files.readAllBytes(bucket.resolve("big.bin"))).isEqualTo(data);

        ObjectLocation copied = ObjectLocation.parse("s3a://parts/archive/big.bin");
        store.copy(big, uploaded.etag(), uploaded.size(), copied);
        assertThat(store.head(copied).etag()).endsWith("-3");
        assertThat(Files.readAllBytes(bucket.resolve("archive/big.bin"))).isEqualTo(data);
        assertThatThrownBy(() -> store.copy(big, "0123456789abcdef0123456789abcdef-3", uploaded.size(),
                ObjectLocation.parse("s3a://parts/archive/other.bin"))).isInstanceOf(ObjectStore.ObjectChangedException.class);
        assertThat(bucket.resolve("archive/other.bin")).doesNotExist();

        Path few = Files.write(bucket.resolveSibling("parts-small.bin"), new byte[1000]);
        store.put(ObjectLocation.parse("s3a://parts/small.bin"), few);
        assertThat(store.head(ObjectLocation.parse("s3a://parts/small.bin")).etag()).doesNotContain("-");

        Map<String, String> wrong = new HashMap<>(S3.settings());
        wrong.put("fs.s3a.multipart.size", "lots");
        assertThatThrownBy(() -> ObjectStore.of(Storage.of(wrong))).isInstanceOf(TributaryException.class)
                .hasMessage("storage setting fs.s3a.multipart.size is 'lots'; write a size in bytes, or such as 64M or 1G");
    }

    /** A stream closed early drops its connection rather than reading the rest of the object; the store reads on. */
    @Test
    void aStreamClosedBeforeItsEndIsNotReadToTheEnd() throws Exception {
        Path bucket = S3.createBucket("early");
        byte[] data = new byte[4 << 20];
        new java.util.Random(4).nextBytes(data);
        Files.write(bucket.resolve("big.bin"), data);
        ObjectStore store = ObjectStore.of(S3.storage());
        ObjectLocation big = ObjectLocation.parse("s3a://early/big.bin");

        InputStream early = store.open(big, null, 0);
        assertThat(early.read()).isEqualTo(data[0] & 0xff);
        early.close();
        assertThat(((ObjectReadStream) early).aborted()).as("the connection is dropped, not drained").isTrue();

        InputStream nearEnd = store.open(big, null, data.length - 1000);
        assertThat(nearEnd.read()).isEqualTo(data[data.length - 1000] & 0xff);
        nearEnd.close();
        assertThat(((ObjectReadStream) nearEnd).aborted()).as("a short rest is read, keeping the connection").isFalse();

        try (InputStream whole = store.open(big, null, 0)) {
            assertThat(whole.readAllBytes()).isEqualTo(data);
        }
    }
}
