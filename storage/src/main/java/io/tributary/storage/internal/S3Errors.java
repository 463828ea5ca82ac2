package io.tributary.storage.internal;

import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkClientException;

/**
 * One line saying why an S3 request failed, in words an operator acts on: the bucket does not
 * exist, the credentials are wrong, no server answers at the endpoint. Never holds a secret: the
 * S3 error's code and status, never its request or its signature.
 */
public final class S3Errors {
    private S3Errors() {
    }

    /** The S3 error code ({@code NoSuchBucket}, {@code AccessDenied}...), or null when the failure is not an S3 answer. */
    public static String code(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof AwsServiceException a && a.awsErrorDetails() != null) {
                return a.awsErrorDetails().errorCode();
            }
        }
        return null;
    }

    /** The HTTP status of the S3 answer, or -1. */
    public static int status(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof AwsServiceException a) {
                return a.statusCode();
            }
        }
        return -1;
    }

    /** S3 error codes that say the server cannot answer now, whatever their HTTP status. */
    private static final java.util.Set<String> BUSY = java.util.Set.of("SlowDown", "ServiceUnavailable", "InternalError",
            "RequestTimeout", "Throttling", "ThrottlingException", "RequestLimitExceeded");

    /** See {@code StorageException.outage}. */
    public static boolean outage(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof AwsServiceException a) {
                String code = a.awsErrorDetails() == null ? null : a.awsErrorDetails().errorCode();
                return a.statusCode() >= 500 || a.statusCode() == 429 || a.statusCode() == 408 || BUSY.contains(code);
            }
            String name = t.getClass().getSimpleName();
            if (t instanceof java.net.SocketException || t instanceof SocketTimeoutException || t instanceof UnknownHostException
                    || NO_ANSWER.contains(name)) {
                return true;
            }
        }
        return false;
    }

    /** The HTTP client's and the SDK's exceptions for a connection that closed, or a call that timed out. */
    private static final java.util.Set<String> NO_ANSWER = java.util.Set.of("ConnectionClosedException", "NoHttpResponseException",
            "ConnectTimeoutException", "ApiCallTimeoutException", "ApiCallAttemptTimeoutException");

    /** Why {@code e} happened, for a request to {@code bucket} on {@code endpoint}. */
    public static String describe(Throwable e, String bucket, String endpoint) {
        String code = code(e);
        int status = status(e);
        if (code != null || status > 0) {
            String c = code == null ? "HTTP " + status : code;
            return switch (c) {
                case "NoSuchBucket" -> "bucket '" + bucket + "' does not exist (NoSuchBucket); create it or fix the path";
                case "InvalidAccessKeyId" -> "the server does not know the access key (InvalidAccessKeyId); check fs.s3a.access.key"
                        + " or the AWS credentials (AWS_ACCESS_KEY_ID, profile, role)";
                case "SignatureDoesNotMatch" -> "the secret key does not match the access key (SignatureDoesNotMatch); check"
                        + " fs.s3a.secret.key or the AWS credentials";
                case "AccessDenied", "HTTP 403" -> "access denied (" + c + "): the credentials may not use bucket '" + bucket
                        + "'; check the access key and its policy";
                case "InvalidBucketName" -> "'" + bucket + "' is not a valid bucket name (InvalidBucketName)";
                case "PermanentRedirect", "AuthorizationHeaderMalformed" -> "bucket '" + bucket + "' is in another region ("
                        + c + "); set fs.s3a.endpoint.region";
                case "SlowDown", "ServiceUnavailable", "HTTP 503" -> "the server kept answering " + c + " (throttled or unavailable)"
                        + " after every retry; try again later or raise fs.s3a.attempts.maximum";
                default -> "the server answered " + c + (status > 0 ? " (HTTP " + status + ")" : "") + ": " + serviceMessage(e);
            };
        }
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof ConnectException || t instanceof UnknownHostException || t instanceof SocketTimeoutException
                    || t.getClass().getName().endsWith("ConnectTimeoutException")
                    || t.getClass().getName().endsWith("HttpHostConnectException")) {
                return "no S3 server answers at " + endpoint + " (" + t.getClass().getSimpleName()
                        + (t.getMessage() == null ? "" : ": " + firstLine(t.getMessage())) + "); check fs.s3a.endpoint";
            }
        }
        if (e instanceof SdkClientException && e.getMessage() != null && e.getMessage().contains("credentials")) {
            return "no AWS credentials found (environment, profile, container or instance role); set fs.s3a.access.key and"
                    + " fs.s3a.secret.key, or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY";
        }
        return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + firstLine(e.getMessage()));
    }

    private static String serviceMessage(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof AwsServiceException a && a.awsErrorDetails() != null && a.awsErrorDetails().errorMessage() != null) {
                return firstLine(a.awsErrorDetails().errorMessage());
            }
        }
        return firstLine(String.valueOf(e.getMessage()));
    }

    private static String firstLine(String s) {
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
