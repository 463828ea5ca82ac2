package io.tributary.expressions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import org.junit.jupiter.api.Test;

/**
 * Spark's session constants as a Tributary job answers them (the golden cases check their types and Spark's fixed names;
 * the user and the version depend on the machine and the build), and the words Spark reads without parentheses.
 */
class SessionConstantsTest {
    private static final Schema INPUT = Schema.parse("id INT");
    private static final Schema USER_COLUMN = Schema.parse("user STRING, id INT");

    private static Object eval(Schema input, String expression, Object... row) {
        return Expression.compile(input, expression).eval(row);
    }

    @Test
    void theUserIsTheOperatingSystemUserRunningTheService() {
        String me = System.getProperty("user.name");
        assertThat(eval(INPUT, "current_user()", 1)).isEqualTo(me);
        assertThat(eval(INPUT, "user()", 1)).isEqualTo(me);
        assertThat(eval(INPUT, "session_user()", 1)).isEqualTo(me);
        assertThat(eval(INPUT, "CURRENT_USER", 1)).isEqualTo(me);
        assertThat(eval(INPUT, "concat(user, '@', session_user)", 1)).isEqualTo(me + "@" + me);
    }

    @Test
    void aColumnNamedUserIsStillAColumn() {
        assertThat(eval(USER_COLUMN, "upper(user)", "ada", 1)).isEqualTo("ADA");
        assertThat(eval(USER_COLUMN, "user()", "ada", 1)).isEqualTo(System.getProperty("user.name"));
    }

    @Test
    void theVersionNamesSparksReleaseThenTributarysBuild() {
        String version = (String) eval(INPUT, "version()", 1);
        assertThat(version).startsWith("4.2.0 tributary-").doesNotContain("${").doesNotEndWith("unknown");
        assertThat(eval(INPUT, "split(version(), ' ')[0]", 1)).isEqualTo("4.2.0");
    }

    @Test
    void theCatalogAndDatabaseAreSparksDefaults() {
        assertThat(eval(INPUT, "current_catalog()", 1)).isEqualTo("spark_catalog");
        assertThat(eval(INPUT, "current_database()", 1)).isEqualTo("default");
        assertThat(eval(INPUT, "current_schema()", 1)).isEqualTo("default");
    }

    @Test
    void anArgumentIsRefusedNamingTheFunction() {
        String refusal = catchThrowableOfType(TributaryException.class, () -> Expression.compile(INPUT, "current_database(id)")).getMessage();
        assertThat(refusal).contains("current_database");
    }
}
