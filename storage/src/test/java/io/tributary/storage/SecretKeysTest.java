package io.tributary.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The secret settings of every system a spec configures are masked; the settings that only look alike are not. */
class SecretKeysTest {
    /** Keys whose values are secrets, as a spec writes them (under kafka: and storage:) and as each system names them. */
    static final List<String> SECRETS = List.of(
            // Kafka clients
            "kafka.ssl.key.password", "kafka.ssl.keystore.password", "kafka.ssl.truststore.password", "kafka.ssl.keystore.key",
            "kafka.sasl.jaas.config", "kafka.sasl.oauthbearer.client.credentials.client.secret",
            "kafka.sasl.oauthbearer.assertion.private.key.file", "kafka.sasl.oauthbearer.assertion.private.key.passphrase",
            // Schema Registry
            "kafka.basic.auth.user.info", "kafka.schema.registry.basic.auth.user.info", "kafka.bearer.auth.token",
            // Hadoop S3A
            "storage.fs.s3a.access.key", "storage.fs.s3a.secret.key", "storage.fs.s3a.session.token", "storage.fs.s3a.encryption.key",
            "storage.fs.s3a.server-side-encryption.key", "storage.fs.s3a.aws.credentials.provider",
            "storage.fs.s3a.bucket.landing.secret.key", "storage.hadoop.security.credential.provider.path",
            // Azure (ABFS, WASB)
            "storage.fs.azure.account.key.myaccount.dfs.core.windows.net", "storage.fs.azure.account.key.myaccount.blob.core.windows.net",
            "storage.fs.azure.sas.mycontainer.myaccount.blob.core.windows.net", "storage.fs.azure.sas.fixed.token",
            "storage.fs.azure.account.oauth2.client.secret", "storage.fs.azure.account.oauth2.client.secret.myaccount.dfs.core.windows.net",
            "storage.fs.azure.account.oauth2.refresh.token",
            // Google Cloud Storage
            "storage.google.cloud.auth.service.account.json.keyfile", "storage.fs.gs.auth.service.account.json.keyfile",
            "storage.fs.gs.auth.service.account.private.key", "storage.fs.gs.auth.service.account.private.key.id",
            // AWS SDK names
            "source.s3.secretAccessKey", "aws.accessKeyId", "aws.secretAccessKey", "aws.sessionToken", "AWS_SECRET_ACCESS_KEY",
            "storage.apiKey", "storage.client.PASSWORD");

    /** Keys that only look alike: their values are shown. */
    static final List<String> VISIBLE = List.of(
            "sink.delta.keys", "sink.delta.path", "sink.delta.partitionBy", "kafka.bootstrap.servers", "kafka.key.serializer",
            "kafka.key.deserializer", "kafka.key.converter", "kafka.ssl.keystore.location", "kafka.ssl.keystore.type",
            "kafka.ssl.truststore.location", "kafka.ssl.keymanager.algorithm", "kafka.sasl.mechanism", "kafka.security.protocol",
            "storage.fs.s3a.endpoint", "storage.fs.s3a.endpoint.region", "storage.fs.s3a.path.style.access",
            "storage.fs.azure.account.auth.type", "storage.fs.azure.account.oauth2.client.id", "storage.fs.azure.account.keyprovider.myaccount",
            "storage.fs.gs.auth.service.account.email", "source.files.path", "aggregate.groupBy", "name");

    @Test
    void everySystemsSecretKeysAreSecrets() {
        assertThat(SECRETS.stream().filter(k -> !SecretKeys.isSecret(k))).as("shown in clear").isEmpty();
    }

    @Test
    void keysThatOnlyLookAlikeStayVisible() {
        assertThat(VISIBLE.stream().filter(SecretKeys::isSecret)).as("masked").isEmpty();
    }

    @Test
    void storagesTextMasksEverySecret() {
        Map<String, String> settings = new LinkedHashMap<>();
        for (int i = 0; i < SECRETS.size(); i++) {
            settings.put(SECRETS.get(i).replaceFirst("^storage\\.", ""), "hunter" + i + "!");
        }
        settings.put("fs.s3a.endpoint", "http://127.0.0.1:9000");
        String shown = Storage.of(settings).toString();
        assertThat(shown).doesNotContain("hunter").contains("fs.s3a.endpoint=http://127.0.0.1:9000")
                .contains("fs.azure.account.key.myaccount.dfs.core.windows.net=******");
    }
}
