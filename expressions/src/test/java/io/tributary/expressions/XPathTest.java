package io.tributary.expressions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The xpath functions over a column of XML: one compiled expression shared by threads, a column as path refused, a bad document. */
class XPathTest {
    private static final Schema INPUT = Schema.parse("doc STRING, p STRING");

    private static String doc(int i) {
        return "<order id=\"" + i + "\"><item>a" + i + "</item><item>b" + i + "</item><qty>" + i + "</qty></order>";
    }

    @Test
    void oneCompiledExpressionGivesEachThreadItsOwnDocumentsValues() throws Exception {
        Expression items = Expression.compile(INPUT, "xpath(doc, 'order/item/text()')");
        Expression qty = Expression.compile(INPUT, "xpath_int(doc, 'order/qty') + xpath_int(doc, 'order/@id')");
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<List<String>>> runs = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int first = t * 300;
                runs.add(pool.submit(() -> {
                    List<String> wrong = new ArrayList<>();
                    for (int i = first; i < first + 300; i++) {
                        Object[] row = {doc(i), null};
                        if (!List.of("a" + i, "b" + i).equals(items.eval(row)) || !Integer.valueOf(2 * i).equals(qty.eval(row))) {
                            wrong.add(doc(i));
                        }
                    }
                    return wrong;
                }));
            }
            for (Future<List<String>> run : runs) {
                assertThat(run.get(120, TimeUnit.SECONDS)).isEmpty();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aPathThatIsAColumnIsRefusedNamingTheFunction() {
        String refusal = catchThrowableOfType(TributaryException.class, () -> Expression.compile(INPUT, "xpath_string(doc, p)")).getMessage();
        assertThat(refusal).contains("NON_FOLDABLE_INPUT").contains("the path of xpath_string must be a constant").contains("'p'");
    }

    @Test
    void aDocumentThatIsNotXmlFailsItsRowAndTheNextRowStillEvaluates() {
        Expression e = Expression.compile(INPUT, "xpath_string(doc, 'order/item')");
        ExpressionException failed = catchThrowableOfType(ExpressionException.class, () -> e.eval(new Object[] {"<order><item>x</order>", null}));
        assertThat(failed.expression()).isEqualTo("xpath_string(doc, 'order/item')");
        assertThat(failed.reason()).contains("Error loading expression 'order/item'");
        assertThat(e.eval(new Object[] {doc(3), null})).isEqualTo("a3");
        assertThat(e.eval(new Object[] {"", null})).isNull();
        assertThat(e.eval(new Object[] {"<order/>", null})).isEqualTo("");
    }
}
