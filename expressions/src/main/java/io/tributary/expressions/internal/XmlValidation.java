package io.tributary.expressions.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.xml.XMLConstants;
import javax.xml.transform.stream.StreamSource;
import javax.xml.validation.Schema;
import javax.xml.validation.SchemaFactory;
import javax.xml.validation.Validator;
import org.xml.sax.SAXException;

/**
 * The {@code rowValidationXSDPath} option of {@code from_xml} and {@code schema_of_xml}: the XSD read once at start with the
 * JDK's {@code javax.xml.validation}, as Spark's {@code ValidatorUtil} reads it, and each XML text validated against it before
 * it is read (a text it refuses is a malformed record). The path is a local path or a {@code file:} URI; a relative path is read
 * against the working directory, as Spark's local file system reads it.
 */
final class XmlValidation {
    private XmlValidation() {
    }

    /** The XSD at {@code path} (the option's value), or null without one; a path that is not one, or a file that is no XSD, is refused. */
    static Schema load(Analyzer.Call call, String path) {
        return load(path, "the " + call.name() + " option rowValidationXSDPath", call::typeError);
    }

    /** The XSD at {@code path}, or null without one; {@code option} names the option in a refusal {@code refuse} makes. */
    static Schema load(String path, String option, java.util.function.Function<String, RuntimeException> refuse) {
        if (path == null) {
            return null;
        }
        Path file = file(path, option, refuse);
        if (!Files.isRegularFile(file)) {
            throw refuse.apply(option + " names " + file + (file.toString().equals(path) ? ""
                    : " ('" + path + "' read against the working directory " + Path.of("").toAbsolutePath() + ")")
                    + ", which is no file; give the path of an XSD file");
        }
        try (InputStream in = Files.newInputStream(file)) {
            return SchemaFactory.newInstance(XMLConstants.W3C_XML_SCHEMA_NS_URI).newSchema(new StreamSource(in, file.toUri().toString()));
        } catch (IOException e) {
            throw refuse.apply(option + " names " + file + ", which cannot be read ("
                    + e.getClass().getSimpleName() + ": " + e.getMessage() + "); give the path of an XSD file");
        } catch (SAXException e) {
            throw refuse.apply(option + " names " + file + ", which is not an XML schema: "
                    + String.valueOf(e.getMessage()).lines().findFirst().orElse(""));
        }
    }

    private static Path file(String path, String option, java.util.function.Function<String, RuntimeException> refuse) {
        try {
            URI uri = new URI(path);
            if ("file".equalsIgnoreCase(uri.getScheme())) {
                return Path.of(uri);
            }
            if (uri.getScheme() != null && uri.getScheme().length() > 1) {
                throw refuse.apply(option + " is '" + path + "': only a local XSD file is read"
                        + " yet (an absolute path or a file: URI)");
            }
        } catch (URISyntaxException | IllegalArgumentException e) {
            // a plain path
        }
        Path file = Path.of(path);
        return file.isAbsolute() ? file : file.toAbsolutePath().normalize(); // Spark's local file system reads it so
    }

    /**
     * A validator of {@code xsd} for each thread that validates (a validator is not thread-safe, and making one for each text,
     * as Spark does, costs about 30 µs a row).
     */
    static ThreadLocal<Validator> validators(Schema xsd) {
        return xsd == null ? null : ThreadLocal.withInitial(xsd::newValidator);
    }

    /** Throws what the validator throws when {@code xml} is not valid against its XSD. */
    static void validate(ThreadLocal<Validator> validators, String xml) throws SAXException, IOException {
        Validator validator = validators.get();
        try {
            validator.validate(new StreamSource(new StringReader(xml)));
        } catch (SAXException | IOException | RuntimeException e) {
            validator.reset(); // the next text starts afresh
            throw e;
        }
    }
}
