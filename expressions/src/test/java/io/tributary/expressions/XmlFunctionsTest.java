package io.tributary.expressions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * from_xml, schema_of_xml and to_xml over a column of XML payloads, as a user reads an order feed: attributes, repeated
 * elements, a malformed payload kept in the corrupt record column, and what Tributary does not follow refused at start.
 */
class XmlFunctionsTest {
    private static final Schema INPUT = Schema.parse("payload STRING");
    private static final String ORDER = "<order kind=\"web\"><id>42</id><item sku=\"a\"><qty>2</qty></item>"
            + "<item sku=\"b\"><qty>1</qty></item></order>";

    @Test
    void anOrderReadsWithItsAttributesAndRepeatedItemsByTheSchemaSparkInfersForIt() {
        Expression schema = Expression.compile(INPUT, "schema_of_xml('" + ORDER.replace("'", "\\'") + "')");
        assertThat(schema.eval(new Object[] {null})).isEqualTo("STRUCT<_kind: STRING, id: BIGINT, item: ARRAY<STRUCT<_sku: STRING, qty: BIGINT>>>");
        Expression read = Expression.compile(INPUT, "from_xml(payload, schema_of_xml('" + ORDER + "'))");
        Object[] row = (Object[]) read.eval(new Object[] {ORDER});
        assertThat(row[0]).isEqualTo("web");
        assertThat(row[1]).isEqualTo(42L);
        assertThat((List<?>) row[2]).extracting(item -> List.of((Object[]) item)).containsExactly(List.of("a", 2L), List.of("b", 1L));
        assertThat(read.interpret(new Object[] {ORDER})).usingRecursiveComparison().isEqualTo(row);
    }

    @Test
    void aMalformedPayloadKeepsItsTextInTheCorruptRecordColumnOrFailsTheRowUnderFailFast() {
        Expression e = Expression.compile(INPUT, "from_xml(payload, 'id INT, _corrupt_record STRING')");
        assertThat((Object[]) e.eval(new Object[] {"<order><id>7</id>"})).containsExactly(null, "<order><id>7</id>");
        assertThat((Object[]) e.eval(new Object[] {"<order><id>7</id></order>"})).containsExactly(7, null);
        Expression failFast = Expression.compile(INPUT, "from_xml(payload, 'id INT', map('mode', 'FAILFAST'))");
        assertThatThrownBy(() -> failFast.eval(new Object[] {"<order><id>x</id></order>"})).isInstanceOf(ExpressionException.class)
                .extracting(f -> ((ExpressionException) f).condition()).isEqualTo("MALFORMED_RECORD_IN_PARSING.WITHOUT_SUGGESTION");
    }

    @Test
    void aStructWritesAsSparksIndentedXmlAndReadsBack() {
        Expression e = Expression.compile(INPUT, "to_xml(named_struct('_id', 7, 'note', payload, 'tags', array('x', 'y')), map('rowTag', 'order'))");
        String xml = (String) e.eval(new Object[] {"a < b & c"});
        assertThat(xml).isEqualTo("<order id=\"7\">\n    <note>a &lt; b &amp; c</note>\n    <tags>x</tags>\n    <tags>y</tags>\n</order>");
        Expression back = Expression.compile(Schema.parse("payload STRING"), "from_xml(payload, '_id INT, note STRING, tags ARRAY<STRING>')");
        Object[] row = (Object[]) back.eval(new Object[] {xml});
        assertThat(row[0]).isEqualTo(7);
        assertThat(row[1]).isEqualTo("a < b & c");
        assertThat(row[2]).isEqualTo(List.of("x", "y"));
    }

    @Test
    void anOrderReadAsOneVariantKeepsItsAttributesAndRepeatedItemsAndWritesBackAsXml() {
        Expression read = Expression.compile(INPUT, "to_json(from_xml(payload, 'variant'))");
        assertThat(read.eval(new Object[] {ORDER})).isEqualTo("{\"_kind\":\"web\",\"id\":42,\"item\":[{\"_sku\":\"a\",\"qty\":2},"
                + "{\"_sku\":\"b\",\"qty\":1}]}");
        assertThat(read.interpret(new Object[] {ORDER})).isEqualTo(read.eval(new Object[] {ORDER}));
        Expression field = Expression.compile(INPUT, "variant_get(from_xml(payload, 'id INT, item ARRAY<VARIANT>').item[1], '$._sku', 'string')");
        assertThat(field.eval(new Object[] {ORDER})).isEqualTo("b");
        Expression write = Expression.compile(INPUT, "to_xml(from_xml(payload, 'variant'), map('rowTag', 'order', 'indent', ''))");
        assertThat(write.eval(new Object[] {ORDER})).isEqualTo("<order kind=\"web\"><id>42</id><item sku=\"a\"><qty>2</qty></item>"
                + "<item sku=\"b\"><qty>1</qty></item></order>");
        Expression truncated = Expression.compile(INPUT, "from_xml(payload, 'variant')");
        assertThatThrownBy(() -> truncated.eval(new Object[] {"<order><id>7</id>"})).isInstanceOf(ExpressionException.class)
                .extracting(f -> ((ExpressionException) f).condition()).isEqualTo("WstxEOFException");
    }

    @Test
    void anOrderTheXsdRefusesIsAMalformedRecordAndAnXsdThatCannotBeReadIsRefusedAtStart(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws java.io.IOException {
        java.nio.file.Path xsd = dir.resolve("order.xsd");
        java.nio.file.Files.writeString(xsd, "<xs:schema xmlns:xs=\"http://www.w3.org/2001/XMLSchema\"><xs:element name=\"order\"><xs:complexType>"
                + "<xs:sequence><xs:element name=\"id\" type=\"xs:long\"/></xs:sequence></xs:complexType></xs:element></xs:schema>");
        Expression e = Expression.compile(INPUT, "from_xml(payload, 'id BIGINT, _corrupt_record STRING', map('rowValidationXSDPath', '"
                + xsd.toUri() + "'))");
        assertThat((Object[]) e.eval(new Object[] {"<order><id>7</id></order>"})).containsExactly(7L, null);
        assertThat((Object[]) e.eval(new Object[] {"<order><id>7</id><note/></order>"})).containsExactly(null, "<order><id>7</id><note/></order>");
        assertThatThrownBy(() -> Expression.compile(INPUT, "from_xml(payload, 'id BIGINT', map('rowValidationXSDPath', '" + dir.resolve("none.xsd")
                + "'))")).isInstanceOf(TributaryException.class).hasMessageContaining(dir.resolve("none.xsd") + ", which is no file");
        java.nio.file.Path here = java.nio.file.Path.of("").toAbsolutePath();
        String relative = here.relativize(xsd.toAbsolutePath()).toString();
        Expression read = Expression.compile(INPUT, "from_xml(payload, 'id BIGINT', map('rowValidationXSDPath', '" + relative + "'))");
        assertThat((Object[]) read.eval(new Object[] {"<order><id>7</id></order>"})).containsExactly(7L);
        assertThat((Object[]) read.eval(new Object[] {"<order><id>7</id><note/></order>"})).containsExactly((Object) null);
        String missing = here.relativize(dir.toAbsolutePath()).resolve("none.xsd").toString();
        assertThatThrownBy(() -> Expression.compile(INPUT, "from_xml(payload, 'id BIGINT', map('rowValidationXSDPath', '" + missing + "'))"))
                .isInstanceOf(TributaryException.class).hasMessageContaining("rowValidationXSDPath names " + here.resolve(missing).normalize()
                        + " ('" + missing + "' read against the working directory " + here + "), which is no file");
    }

    @Test
    void whatSparkReadsOtherwiseIsRefusedAtStartNamingTheOption() {
        assertThatThrownBy(() -> Expression.compile(INPUT, "from_xml(payload, 'a INT', map('singleVariantColumn', 'v'))"))
                .isInstanceOf(TributaryException.class).hasMessageContaining("from_xml option 'singlevariantcolumn' is not supported yet");
        assertThatThrownBy(() -> Expression.compile(INPUT, "from_xml(payload, 'a BINARY')")).isInstanceOf(TributaryException.class)
                .hasMessageContaining("from_xml of the column a BINARY is not supported yet");
        assertThatThrownBy(() -> Expression.compile(INPUT, "schema_of_xml(payload)")).isInstanceOf(TributaryException.class)
                .hasMessageContaining("DATATYPE_MISMATCH.NON_FOLDABLE_INPUT");
    }
}
