package io.tributary.storage;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.gaul.s3proxy.AuthenticationType;
import org.gaul.s3proxy.S3Proxy;
import org.jclouds.ContextBuilder;
import org.jclouds.blobstore.BlobStoreContext;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real S3 server for a test class: S3Proxy in this JVM on 127.0.0.1, storing each bucket as a
 * folder of a temporary folder (deleted afterwards), with AWS signatures checked against one
 * access key: {@code @RegisterExtension static final S3ServerExtension S3 = new S3ServerExtension();}.
 * A test seeds input by writing files under {@link #bucketDir} and reads what was written there.
 * Shared with the other modules' tests through this module's test-jar.
 */
public class S3ServerExtension implements BeforeAllCallback, AfterAllCallback {
    public static final String ACCESS_KEY = "tributary-test-access";
    public static final String SECRET_KEY = "tributary-test-secret";

    private final boolean inMemory;
    private final int port;
    private Path dir;
    private S3Proxy proxy;
    private BlobStoreContext context;
    private String endpoint;

    /** A server storing its buckets as folders of a temporary folder. */
    public S3ServerExtension() {
        this(false);
    }

    /**
     * With {@code inMemory}, a server that keeps its objects in memory (jclouds' transient store):
     * its listings do not read every object's file and metadata again for each page, as the
     * folder-backed store does, so a test can time the client's listing of many objects; objects
     * are then written through the S3 API ({@link #bucketDir} does not apply).
     */
    public S3ServerExtension(boolean inMemory) {
        this(inMemory, 0);
    }

    /**
     * A server on {@code port} (0: any free port). A test that stops the server and starts it
     * again ({@link #stopServing()}) gives a port outside the ephemeral range, which a client's
     * connection may take while the server is down.
     */
    public S3ServerExtension(boolean inMemory, int port) {
        this.inMemory = inMemory;
        this.port = port;
    }

    @Override
    public void beforeAll(ExtensionContext extensionContext) throws Exception {
        start();
    }

    /** Starts the server (for use outside JUnit); {@link #stop()} stops it. */
    public void start() throws Exception {
        dir = Files.createTempDirectory("tributary-s3");
        Properties props = new Properties();
        props.setProperty("jclouds.filesystem.basedir", dir.toString());
        context = ContextBuilder.newBuilder(inMemory ? "transient" : "filesystem").credentials(ACCESS_KEY, SECRET_KEY).overrides(props)
                .build(BlobStoreContext.class);
        int port = this.port;
        if (port == 0) {
            try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
                port = s.getLocalPort();
            }
        }
        endpoint = "http://127.0.0.1:" + port;
        serve();
    }

    /**
     * An outage: the server stops answering (connections to its port are refused) and keeps its
     * objects; {@link #serveAgain()} ends it.
     */
    public void stopServing() throws Exception {
        proxy.stop();
    }

    /** After {@link #stopServing()}: the server answers again on the same port, with the same objects. */
    public void serveAgain() throws Exception {
        serve();
    }

    private void serve() throws Exception {
        proxy = S3Proxy.builder().blobStore(context.getBlobStore()).endpoint(URI.create(endpoint))
                .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, ACCESS_KEY, SECRET_KEY).build();
        proxy.start();
        // the server answers a few seconds after start
        Awaitility.await("S3Proxy started on " + endpoint).atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(10))
                .pollDelay(Duration.ZERO).pollInSameThread().until(() -> {
                    if ("FAILED".equals(proxy.getState())) {
                        throw new IllegalStateException("S3Proxy did not start on " + endpoint);
                    }
                    return "STARTED".equals(proxy.getState());
                });
    }

    @Override
    public void afterAll(ExtensionContext extensionContext) throws Exception {
        stop();
    }

    public void stop() throws Exception {
        if (proxy != null) {
            proxy.stop();
        }
        if (context != null) {
            context.close();
        }
        if (dir != null) {
            try (Stream<Path> all = Files.walk(dir)) {
                for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    /** {@code http://127.0.0.1:PORT}. */
    public String endpoint() {
        return endpoint;
    }

    /** The spec's {@code storage:} settings that reach this server. */
    public Map<String, String> settings() {
        return Map.of("fs.s3a.endpoint", endpoint, "fs.s3a.path.style.access", "true", "fs.s3a.endpoint.region", "us-east-1",
                "fs.s3a.access.key", ACCESS_KEY, "fs.s3a.secret.key", SECRET_KEY);
    }

    public Storage storage() {
        return Storage.of(settings());
    }

    /** Creates a bucket (a folder of the server's folder); its folder. */
    public Path createBucket(String name) throws IOException {
        if (inMemory) {
            context.getBlobStore().createContainerInLocation(null, name);
        }
        return Files.createDirectories(dir.resolve(name));
    }

    /** {@link #createBucket}, for tests that cannot throw. */
    public Path createBucketQuietly(String name) {
        try {
            return createBucket(name);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The folder that holds the objects of {@code bucket}: key {@code a/b.json} is the file {@code a/b.json} in it. */
    public Path bucketDir(String bucket) {
        return dir.resolve(bucket);
    }
}
