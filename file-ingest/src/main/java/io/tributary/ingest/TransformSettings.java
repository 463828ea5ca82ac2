package io.tributary.ingest;

import io.tributary.expressions.Transform;
import io.tributary.settings.Setting;
import java.util.List;

/**
 * The row transform's settings under their own names; a spec writes them under {@code transform.}
 * ({@code transform.where}, {@code transform.select}). {@link IngestConfigBuilder#transform(io.tributary.settings.Values)}
 * reads them; the expressions are Spark SQL, checked when the pipeline starts (docs/transform.md).
 */
public final class TransformSettings {
    public static final Setting<String> WHERE = Setting.string("where", "Spark's filter/where: a Spark SQL boolean expression; only the"
            + " rows where it is true are published, e.g. \"amt > 0 AND user IS NOT NULL\" (docs/transform.md)");
    public static final Setting<List<String>> SELECT = Setting.custom("select", Setting.Kind.LIST, (k, v) -> Transform.selectItems(v),
            "Spark's selectExpr: the output columns, each \"*\", a column or \"expression AS name\", e.g. [\"*\", \"lower(trim(user)) AS"
                    + " user\"]; applied after where; the table gets these columns (docs/transform.md)");

    /** Every setting, in the order the documentation lists them. */
    public static final List<Setting<?>> ALL = List.of(WHERE, SELECT);

    private TransformSettings() {
    }
}
