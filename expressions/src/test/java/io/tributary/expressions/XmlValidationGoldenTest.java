package io.tributary.expressions;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * from_xml and schema_of_xml with {@code rowValidationXSDPath} give Spark 4.2's values ({@code golden/expressions/xsd/}, recorded
 * by compat/spark's {@code SparkXmlValidation}): each case's {@code $XSD_DIR} is the folder of the XSD files beside the
 * recording, as Spark read them, and {@code $XSD_REL} that folder's path relative to the working directory, which a relative path is
 * read against, as Spark reads it.
 */
class XmlValidationGoldenTest {
    @Test
    void everyValidationCaseGivesSparksValueAndType() throws IOException, URISyntaxException {
        Path dir = Path.of(XmlValidationGoldenTest.class.getClassLoader().getResource("golden/expressions/xsd/order.xsd").toURI()).getParent();
        String tsv;
        try (InputStream in = XmlValidationGoldenTest.class.getClassLoader().getResourceAsStream("golden/expressions/xsd/spark.tsv")) {
            tsv = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        List<String> wrong = new ArrayList<>();
        int cases = 0;
        for (String line : tsv.split("\n")) {
            String[] f = line.split("\t", -1);
            String expression = GoldenCase.unescape(f[1]).replace("$XSD_DIR", dir.toString())
                    .replace("$XSD_REL", Path.of("").toAbsolutePath().relativize(dir).toString());
            GoldenCase c = new GoldenCase(Integer.parseInt(f[0]), expression, f[2], f[3]);
            String problem = GoldenExpressionsTest.check(c);
            if (problem != null) {
                wrong.add(c + " -> " + problem);
            }
            cases++;
        }
        assertThat(cases).isGreaterThan(10);
        assertThat(wrong).as("%d cases differ from Spark:%n%s", wrong.size(), String.join("\n", wrong)).isEmpty();
    }
}
