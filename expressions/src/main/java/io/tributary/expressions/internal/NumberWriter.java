package io.tributary.expressions.internal;

import io.tributary.expressions.internal.NumberFormat.Item;
import io.tributary.expressions.internal.NumberFormat.Kind;
import io.tributary.expressions.internal.NumberFormat.Token;
import java.math.BigDecimal;
import java.util.List;

/**
 * {@code to_char} of a number: Spark's {@code ToNumberParser.format}, the digits laid into the format's places, blanks
 * for missing leading digits (zeros under a leading 0), signs moved next to the digits, {@code #} for a number too wide.
 */
final class NumberWriter {
    private NumberWriter() {
    }

    /** {@code value} written in {@code format}; digits the format has no room for are written as {@code #}. */
    static String write(NumberFormat format, BigDecimal value) {
        List<Item> items = format.items();
        String plain = value.toPlainString();
        int dot = plain.indexOf('.');
        int end = dot < 0 ? plain.length() : dot;
        int from = 0;
        while (from < end && (plain.charAt(from) == '-' || plain.charAt(from) == '0')) {
            from++;
        }
        String before = plain.substring(from, end);
        int last = plain.length();
        while (dot >= 0 && last > dot + 1 && plain.charAt(last - 1) == '0') {
            last--;
        }
        String after = dot < 0 ? "" : plain.substring(dot + 1, last);
        int point = format.pointIndex();
        int roomBefore = 0;
        int roomAfter = 0;
        for (int i = 0; i < items.size(); i++) {
            if (point >= 0 && i > point) {
                roomAfter += items.get(i).digitCount();
            } else {
                roomBefore += items.get(i).digitCount();
            }
        }
        if (roomBefore < before.length() || roomAfter < after.length()) {
            before = "#".repeat(roomBefore);
            after = "#".repeat(roomAfter);
        }
        before = " ".repeat(roomBefore - before.length()) + before;
        after = after + "0".repeat(roomAfter - after.length());
        boolean negative = value.signum() < 0;
        StringBuilder out = new StringBuilder();
        int b = 0;
        int a = 0;
        boolean reachedPoint = false;
        for (Item item : items) {
            if (item.digits()) {
                for (Token t : item.group()) {
                    if (t.kind() == Kind.SEPARATOR) {
                        if (out.length() > 0 && Character.isDigit(out.charAt(out.length() - 1))) {
                            out.append(',');
                        } else {
                            appendSpace(out);
                        }
                        continue;
                    }
                    for (int k = 0; k < t.count(); k++) {
                        if (reachedPoint) {
                            out.append(after.charAt(a++));
                            continue;
                        }
                        char c = before.charAt(b++);
                        if (c == ' ' && t.exact()) {
                            out.append('0');
                        } else if (c == ' ') {
                            appendSpace(out);
                        } else {
                            out.append(c);
                        }
                    }
                }
                continue;
            }
            switch (item.token().kind()) {
                case POINT -> {
                    if (out.length() > 0 && out.charAt(out.length() - 1) == ' ') {
                        out.setCharAt(out.length() - 1, '0');
                    }
                    out.append('.');
                    reachedPoint = true;
                }
                case DOLLAR -> out.append('$');
                case SIGN -> {
                    blankLonePoint(out);
                    appendSign(out, negative ? '-' : '+');
                }
                case MINUS -> {
                    if (negative) {
                        blankLonePoint(out);
                        appendSign(out, '-');
                    } else {
                        out.append(' ');
                    }
                }
                case OPEN -> {
                    if (negative) {
                        out.append('<');
                    }
                }
                case CLOSE -> {
                    blankLonePoint(out);
                    if (negative) {
                        appendSign(out, '>');
                    } else {
                        out.append("  ");
                    }
                }
                default -> {
                }
            }
        }
        blankLonePoint(out);
        String s = out.toString();
        return s.isEmpty() || s.equals("+") || s.equals("-") ? "0" : s;
    }

    /** Appends {@code c}, moved left past the blanks before it. */
    private static void appendSign(StringBuilder out, char c) {
        out.append(c);
        for (int i = out.length() - 1; i >= 1 && out.charAt(i - 1) == ' ' && out.charAt(i) == c; i--) {
            out.setCharAt(i, ' ');
            out.setCharAt(i - 1, c);
        }
    }

    /** Appends a blank, moving a sign or {@code <} before it to its right. */
    private static void appendSpace(StringBuilder out) {
        out.append(' ');
        for (int i = out.length() - 1; i >= 1 && "+-<".indexOf(out.charAt(i - 1)) >= 0 && out.charAt(i) == ' '; i--) {
            out.setCharAt(i, out.charAt(i - 1));
            out.setCharAt(i - 1, ' ');
        }
    }

    /** A decimal point with no digit after it becomes a blank. */
    private static void blankLonePoint(StringBuilder out) {
        int i = out.indexOf(".");
        if (i >= 0 && (i == out.length() - 1 || out.charAt(i + 1) == ' ')) {
            out.setCharAt(i, ' ');
        }
    }
}
