package io.tributary.expressions.internal;

import static io.tributary.schema.DataType.BOOLEAN;
import static io.tributary.schema.DataType.DOUBLE;
import static io.tributary.schema.DataType.FLOAT;
import static io.tributary.schema.DataType.INT;
import static io.tributary.schema.DataType.LONG;
import static io.tributary.schema.DataType.SHORT;
import static io.tributary.schema.DataType.STRING;

import io.tributary.schema.DataType;
import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;
import javax.xml.namespace.QName;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.xpath.XPathConstants;
import javax.xml.xpath.XPathExpression;
import javax.xml.xpath.XPathExpressionException;
import javax.xml.xpath.XPathFactory;
import org.w3c.dom.NodeList;
import org.xml.sax.ErrorHandler;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;

/**
 * Spark's xpath functions: an XPath 1.0 path, a constant, evaluated over a text of XML with the JDK's
 * javax.xml.xpath as Spark evaluates it, the path compiled once for each expression (and thread).
 */
final class XPathFunctions {
    private static final String NULLS = "null if an argument is null, or the xml or the path is empty";

    private XPathFunctions() {
    }

    static void register(Consumer<FunctionDef> add) {
        add.accept(def("xpath", "ARRAY<STRING>", "the values of the nodes the path selects (null for an element: its value is its"
                + " text node's, a/b/text()), empty when none", DataType.array(STRING), XPathConstants.NODESET, XPathFunctions::values));
        add.accept(def("xpath_string", "STRING", "the text of the first node the path selects (XPath's string()), '' when none",
                STRING, XPathConstants.STRING, v -> v));
        add.accept(def("xpath_boolean", "BOOLEAN", "true when the path selects a node or its value is true (XPath's boolean())",
                BOOLEAN, XPathConstants.BOOLEAN, v -> v));
        add.accept(def("xpath_double", "DOUBLE", "the path's value as a number (XPath's number()): NaN when it is not one, NaN when"
                + " nothing matches", DOUBLE, XPathConstants.NUMBER, v -> v));
        add.accept(Fn.alias("xpath_number", FunctionRegistry.get("xpath_double")));
        add.accept(def("xpath_float", "FLOAT", "xpath_double narrowed to FLOAT", FLOAT, XPathConstants.NUMBER,
                v -> ((Double) v).floatValue()));
        add.accept(def("xpath_long", "BIGINT", "xpath_double truncated toward zero, 0 for NaN (none matches), the type's bound past"
                + " its range", LONG, XPathConstants.NUMBER, v -> ((Double) v).longValue()));
        add.accept(def("xpath_int", "INT", "xpath_double truncated toward zero as xpath_long, to INT", INT, XPathConstants.NUMBER,
                v -> ((Double) v).intValue()));
        add.accept(def("xpath_short", "SMALLINT", "xpath_int's value wrapped to SMALLINT (as Java's Double.shortValue)", SHORT,
                XPathConstants.NUMBER, v -> ((Double) v).shortValue()));
    }

    private static FunctionDef def(String name, String result, String doc, DataType type, QName kind, Function<Object, Object> convert) {
        return Fn.custom(name, 2, 2, name + "(xml STRING, path STRING) → " + result, NULLS,
                doc + "; path is a constant; a text that is not XML fails the row (RuntimeException, as in Spark)",
                (call, args) -> resolve(call, args, type, kind, convert));
    }

    private static Bound resolve(Analyzer.Call call, List<Bound> args, DataType type, QName kind, Function<Object, Object> convert) {
        for (Bound b : args) {
            if (b.type() != null && !Types.is(b.type(), DataType.Kind.STRING)) {
                throw call.typeError("[DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE] " + call.name() + " takes STRING arguments, and '" + b.text()
                        + "' is " + Types.name(b.type()));
            }
        }
        Bound path = args.get(1);
        if (!constant(path)) {
            throw call.typeError("[DATATYPE_MISMATCH.NON_FOLDABLE_INPUT] the path of " + call.name() + " must be a constant, and '"
                    + path.text() + "' is not one");
        }
        Object text = Interpreter.eval(path, new Object[0]);
        if (text == null || args.get(0).type() == null) {
            return new Bound.Literal(null, type, call.text());
        }
        Evaluator evaluator = new Evaluator((String) text, kind);
        return call.apply(List.of(args.get(0)), type, (Kernel.Unary) xml -> {
            Object v = evaluator.eval((String) xml);
            return v == null ? null : convert.apply(v);
        });
    }

    private static boolean constant(Bound b) {
        return b instanceof Bound.Literal || b instanceof Bound.Apply a && a.args().stream().allMatch(XPathFunctions::constant);
    }

    private static Object values(Object nodes) {
        NodeList list = (NodeList) nodes;
        List<Object> out = new ArrayList<>(list.getLength());
        for (int i = 0; i < list.getLength(); i++) {
            out.add(list.item(i).getNodeValue());
        }
        return out;
    }

    /** One path over many documents: the compiled path and the parser, one of each for each thread. */
    private static final class Evaluator {
        private final String path;
        private final QName kind;
        private final ThreadLocal<State> state;

        Evaluator(String path, QName kind) {
            this.path = path;
            this.kind = kind;
            this.state = ThreadLocal.withInitial(State::new);
        }

        /** The path's value over {@code xml}, or null (as Spark) when either is empty. */
        Object eval(String xml) {
            if (xml.isEmpty() || path.isEmpty()) {
                return null;
            }
            State s = state.get();
            XPathExpression compiled = s.compiled(path);
            try {
                return compiled.evaluate(s.builder().parse(new InputSource(new StringReader(xml))), kind);
            } catch (XPathExpressionException e) {
                throw Failure.of("RuntimeException", "Invalid XML document: " + e.getMessage() + "\n" + xml);
            } catch (SAXException | IOException e) {
                throw Failure.of("RuntimeException", "Error loading expression '" + path + "': " + e.getMessage());
            }
        }
    }

    /** The compiled path and the parser of one thread. */
    private static final class State implements ErrorHandler {
        private XPathExpression compiled;
        private DocumentBuilder builder;

        XPathExpression compiled(String path) {
            if (compiled == null) {
                try {
                    compiled = XPathFactory.newInstance().newXPath().compile(path);
                } catch (XPathExpressionException e) {
                    throw Failure.of("RuntimeException", "Invalid XPath '" + path + "'" + e.getMessage());
                }
            }
            return compiled;
        }

        DocumentBuilder builder() {
            if (builder == null) {
                try {
                    DocumentBuilderFactory dbf = DocumentBuilderFactory.newInstance();
                    dbf.setFeature("http://xml.org/sax/features/external-general-entities", false);
                    dbf.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
                    builder = dbf.newDocumentBuilder();
                    builder.setErrorHandler(this);
                } catch (ParserConfigurationException e) {
                    throw new IllegalStateException("the JDK's XML parser cannot be configured as Spark configures it", e);
                }
            }
            return builder;
        }

        @Override
        public void warning(SAXParseException e) {
        }

        @Override
        public void error(SAXParseException e) {
        }

        @Override
        public void fatalError(SAXParseException e) throws SAXException {
            throw e;
        }
    }
}
