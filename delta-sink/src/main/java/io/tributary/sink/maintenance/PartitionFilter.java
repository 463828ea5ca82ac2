package io.tributary.sink.maintenance;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** {@code --where} of optimize: {@code col = value [AND col = value ...]} on partition columns, matched against the log's partition values. */
final class PartitionFilter {
    private static final Pattern EQ = Pattern.compile("\\s*`?(\\w+)`?\\s*=\\s*(?:'([^']*)'|\"([^\"]*)\"|([^\\s'\"]+))\\s*");

    private final Map<String, String> equalities;

    private PartitionFilter(Map<String, String> equalities) {
        this.equalities = equalities;
    }

    static PartitionFilter parse(String where, List<String> partitionColumns) {
        Map<String, String> eq = new LinkedHashMap<>();
        if (where == null) {
            return new PartitionFilter(eq);
        }
        for (String part : where.split("(?i)\\s+and\\s+")) {
            Matcher m = EQ.matcher(part);
            if (!m.matches()) {
                throw MaintenanceErrors.notAnEquality(where, part.trim());
            }
            String col = partitionColumns.stream().filter(c -> c.equalsIgnoreCase(m.group(1))).findFirst().orElseThrow(() ->
                    MaintenanceErrors.notAPartitionColumn(where, m.group(1), partitionColumns));
            String value = m.group(2) != null ? m.group(2) : m.group(3) != null ? m.group(3) : m.group(4);
            eq.put(col, "null".equals(value.toLowerCase(Locale.ROOT)) && m.group(4) != null ? null : value);
        }
        return new PartitionFilter(eq);
    }

    boolean matches(Map<String, String> partitionValues) {
        for (Map.Entry<String, String> e : equalities.entrySet()) {
            if (!java.util.Objects.equals(partitionValues.get(e.getKey()), e.getValue())) {
                return false;
            }
        }
        return true;
    }
}
