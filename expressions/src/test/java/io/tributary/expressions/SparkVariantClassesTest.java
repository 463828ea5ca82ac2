package io.tributary.expressions;

import static org.assertj.core.api.Assertions.assertThatCode;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The classes spark-variant's bytecode names are on the class path: the JVM loads them when it verifies spark-variant's
 * classes at run time, which the tests skip ({@code -XX:-BytecodeVerificationRemote}), so a missing one fails only in
 * production, on the first {@code parse_json}.
 */
class SparkVariantClassesTest {
    @ParameterizedTest
    @ValueSource(strings = {"org.apache.spark.SparkRuntimeException", "org.apache.spark.QueryContext", "org.apache.spark.network.util.JavaUtils",
            "org.apache.logging.log4j.message.MessageFactory", "scala.collection.immutable.Map", "scala.collection.immutable.Map$"})
    void isOnTheClassPath(String name) {
        assertThatCode(() -> Class.forName(name, false, getClass().getClassLoader())).doesNotThrowAnyException();
    }
}
