package io.tributary.expressions.internal;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.types.variant.Variant;
import org.apache.spark.types.variant.VariantUtil;

/**
 * A path into a VARIANT as Spark's {@code variant_get} reads it ({@code VariantPathParser}): {@code $} followed by
 * {@code .key}, {@code ['key']}, {@code ["key"]} or {@code [index]} steps. A key is matched exactly (case matters), an
 * index from 0; a step that finds nothing (no such key, an index past the end, a key of an array) gives null.
 */
final class VariantPath {
    /** One step: a key, or an index when {@code key} is null. */
    private record Step(String key, int index) {
    }

    private final List<Step> steps;

    private VariantPath(List<Step> steps) {
        this.steps = steps;
    }

    /** The path {@code text}, or null when it is not one. */
    static VariantPath parse(String text) {
        if (text == null || !text.startsWith("$")) {
            return null;
        }
        List<Step> steps = new ArrayList<>();
        int i = 1;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (c == '.') {
                int end = i + 1;
                while (end < text.length() && text.charAt(end) != '.' && text.charAt(end) != '[') {
                    end++;
                }
                if (end == i + 1) {
                    return null;
                }
                steps.add(new Step(text.substring(i + 1, end), -1));
                i = end;
            } else if (c == '[') {
                int close = text.indexOf(']', i);
                if (close < 0) {
                    return null;
                }
                String inside = text.substring(i + 1, close);
                if (inside.length() >= 2 && (inside.charAt(0) == '\'' || inside.charAt(0) == '"')
                        && inside.charAt(inside.length() - 1) == inside.charAt(0)) {
                    String key = inside.substring(1, inside.length() - 1);
                    if (key.indexOf(inside.charAt(0)) >= 0) {
                        return null;
                    }
                    steps.add(new Step(key, -1));
                } else if (!inside.isEmpty() && inside.chars().allMatch(Character::isDigit) && inside.length() <= 9) {
                    steps.add(new Step(null, Integer.parseInt(inside)));
                } else {
                    return null;
                }
                i = close + 1;
            } else {
                return null;
            }
        }
        return new VariantPath(List.copyOf(steps));
    }

    /** The part of {@code v} the path names, or null. */
    Variant find(Variant v) {
        Variant at = v;
        for (Step s : steps) {
            if (s.key() != null) {
                if (at.getType() != VariantUtil.Type.OBJECT) {
                    return null;
                }
                at = at.getFieldByKey(s.key());
            } else {
                if (at.getType() != VariantUtil.Type.ARRAY || s.index() >= at.arraySize()) {
                    return null;
                }
                at = at.getElementAtIndex(s.index());
            }
            if (at == null) {
                return null;
            }
        }
        return at;
    }
}
