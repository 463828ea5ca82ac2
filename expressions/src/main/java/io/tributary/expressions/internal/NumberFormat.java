package io.tributary.expressions.internal;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Spark's number format language of {@code to_number} and {@code to_char} ({@code ToNumberParser}): {@code 0} and
 * {@code 9} digits, {@code .} or {@code D} the decimal point, {@code ,} or {@code G} a thousands separator, {@code $},
 * {@code S} and {@code MI} signs, {@code PR} angle brackets around a negative number. A format is read once (upper-cased,
 * as Spark reads it); {@link #problem()} is Spark's refusal of it, {@link #parse} and {@link #format} its two uses.
 */
final class NumberFormat {
    enum Kind { DIGITS, POINT, SEPARATOR, DOLLAR, SIGN, MINUS, OPEN, CLOSE, OTHER }

    /** One token of the format; DIGITS with {@code count} digits, {@code exact} when they must all be there (a leading 0). */
    record Token(Kind kind, int count, boolean exact, char ch) {
        static Token of(Kind kind) {
            return new Token(kind, 0, false, ' ');
        }

        String label() {
            return switch (kind) {
                case DIGITS -> "digit sequence";
                case POINT -> ". or D";
                case SEPARATOR -> ", or G";
                case DOLLAR -> "$";
                case SIGN -> "S";
                case MINUS -> "MI";
                case OPEN, CLOSE -> "PR";
                case OTHER -> "character '" + ch + "'";
            };
        }
    }

    /** A run of digits and separators of the format, or one other token ({@code group} null). */
    record Item(Token token, List<Token> group) {
        boolean digits() {
            return group != null;
        }

        int digitCount() {
            return group == null ? 0 : group.stream().mapToInt(Token::count).sum();
        }
    }

    private final String format;
    private final List<Item> items;
    private final int precision;
    private final int scale;

    NumberFormat(String format) {
        this.format = format.toUpperCase(Locale.ROOT);
        this.items = group(tokens(this.format));
        int point = pointIndex();
        int p = 0;
        int s = 0;
        for (int i = 0; i < items.size(); i++) {
            p += items.get(i).digitCount();
            if (point >= 0 && i > point) {
                s += items.get(i).digitCount();
            }
        }
        this.precision = p;
        this.scale = s;
    }

    int precision() {
        return precision;
    }

    int scale() {
        return scale;
    }

    private static List<Token> tokens(String f) {
        List<Token> out = new ArrayList<>();
        boolean afterPoint = false;
        int i = 0;
        while (i < f.length()) {
            char c = f.charAt(i);
            if (c == '0' || c == '9') {
                int start = i;
                do {
                    i++;
                } while (i < f.length() && (f.charAt(i) == '0' || f.charAt(i) == '9'));
                out.add(new Token(Kind.DIGITS, i - start, c == '0' && !afterPoint, ' '));
                continue;
            }
            boolean pair = i + 1 < f.length();
            if (c == '.' || c == 'D') {
                out.add(Token.of(Kind.POINT));
                afterPoint = true;
            } else if (c == ',' || c == 'G') {
                out.add(Token.of(Kind.SEPARATOR));
            } else if (c == '$') {
                out.add(Token.of(Kind.DOLLAR));
            } else if (c == 'S') {
                out.add(Token.of(Kind.SIGN));
            } else if (c == 'M' && pair && f.charAt(i + 1) == 'I') {
                out.add(Token.of(Kind.MINUS));
                i++;
            } else if (c == 'P' && pair && f.charAt(i + 1) == 'R') {
                out.add(0, Token.of(Kind.OPEN));
                out.add(Token.of(Kind.CLOSE));
                i++;
            } else {
                out.add(new Token(Kind.OTHER, 0, false, c));
            }
            i++;
        }
        return out;
    }

    private static List<Item> group(List<Token> tokens) {
        List<Item> out = new ArrayList<>();
        List<Token> run = new ArrayList<>();
        for (Token t : tokens) {
            if (t.kind() == Kind.DIGITS || t.kind() == Kind.SEPARATOR) {
                run.add(t);
                continue;
            }
            if (!run.isEmpty()) {
                out.add(new Item(null, run));
                run = new ArrayList<>();
            }
            out.add(new Item(t, null));
        }
        if (!run.isEmpty()) {
            out.add(new Item(null, run));
        }
        return out;
    }

    private int indexOf(Kind kind) {
        for (int i = 0; i < items.size(); i++) {
            if (!items.get(i).digits() && items.get(i).token().kind() == kind) {
                return i;
            }
        }
        return -1;
    }

    List<Item> items() {
        return items;
    }

    /** {@code value} written in this format; digits the format has no room for are written as {@code #}. */
    String format(BigDecimal value) {
        return NumberWriter.write(this, value);
    }

    int pointIndex() {
        return indexOf(Kind.POINT);
    }

    /** Spark's refusal of the format at analysis, {@code INVALID_FORMAT.<subclass>: reason}; null when it is valid. */
    String problem() {
        String quoted = "'" + format + "'";
        if (format.isEmpty()) {
            return "INVALID_FORMAT.EMPTY: the format is empty; write one with digits such as '999.99'";
        }
        int firstDigits = -1;
        for (int i = 0; i < items.size() && firstDigits < 0; i++) {
            firstDigits = items.get(i).digits() ? i : -1;
        }
        if (firstDigits < 0) {
            return "INVALID_FORMAT.WRONG_NUM_DIGIT: the format " + quoted + " has no digit (0 or 9)";
        }
        int dollar = indexOf(Kind.DOLLAR);
        int point = pointIndex();
        if (firstDigits < dollar) {
            return "INVALID_FORMAT.CUR_MUST_BEFORE_DIGIT: in the format " + quoted + " the $ comes after a digit; it goes before the digits";
        }
        if (point >= 0 && point < dollar) {
            return "INVALID_FORMAT.CUR_MUST_BEFORE_DEC: in the format " + quoted + " the $ comes after the decimal point; it goes before it";
        }
        for (int i = 0; i < items.size(); i++) {
            List<Token> g = items.get(i).group();
            if (g == null) {
                continue;
            }
            if (point < 0 || i < point) {
                for (int j = 0; j < g.size(); j++) {
                    boolean sep = g.get(j).kind() == Kind.SEPARATOR;
                    if (sep && (j == 0 || j == g.size() - 1 || g.get(j - 1).kind() == Kind.SEPARATOR)) {
                        return "INVALID_FORMAT.CONT_THOUSANDS_SEPS: in the format " + quoted + " a thousands separator (, or G) needs a digit"
                                + " on each side";
                    }
                }
            } else if (g.stream().anyMatch(t -> t.kind() == Kind.SEPARATOR)) {
                return "INVALID_FORMAT.THOUSANDS_SEPS_MUST_BEFORE_DEC: in the format " + quoted + " a thousands separator (, or G) follows"
                        + " the decimal point";
            }
        }
        for (Kind once : List.of(Kind.POINT, Kind.SIGN, Kind.MINUS, Kind.DOLLAR, Kind.CLOSE)) {
            long n = items.stream().filter(it -> !it.digits() && it.token().kind() == once).count();
            if (n > 1) {
                return "INVALID_FORMAT.WRONG_NUM_TOKEN: the format " + quoted + " has " + Token.of(once).label() + " " + n
                        + " times; it may have it once";
            }
        }
        List<List<Kind>> order = List.of(List.of(Kind.OPEN), List.of(Kind.MINUS, Kind.SIGN), List.of(Kind.DOLLAR), List.of(Kind.DIGITS),
                List.of(Kind.POINT), List.of(Kind.DIGITS), List.of(Kind.DOLLAR), List.of(Kind.MINUS, Kind.SIGN, Kind.CLOSE));
        int at = 0;
        for (List<Kind> allowed : order) {
            if (at < items.size()) {
                Item it = items.get(at);
                if (allowed.contains(it.digits() ? Kind.DIGITS : it.token().kind())) {
                    at++;
                }
            }
        }
        if (at < items.size()) {
            Item it = items.get(at);
            String label = it.digits() ? "digit sequence" : it.token().label();
            return "INVALID_FORMAT.UNEXPECTED_TOKEN: the format " + quoted + " has " + label + " out of place; the order is"
                    + " [MI|S] [$] [digits and separators] [. or D] [digits] [$] [PR|MI|S]";
        }
        return null;
    }

    /** The number {@code input} writes in this format, or null when it does not match it. */
    BigDecimal parse(String input) {
        StringBuilder before = new StringBuilder();
        StringBuilder after = new StringBuilder();
        boolean reachedPoint = false;
        boolean opened = false;
        boolean closed = false;
        boolean negate = false;
        int at = 0;
        int n = input.length();
        for (Item item : items) {
            if (item.digits()) {
                at = digitGroups(item.group(), input, at, reachedPoint ? after : before);
                if (at < 0) {
                    return null;
                }
                continue;
            }
            if (at >= n) {
                continue; // every token but digits is optional at the end of the input (the $ too, as in Spark)
            }
            char c = input.charAt(at);
            switch (item.token().kind()) {
                case POINT -> {
                    if (c == '.') {
                        reachedPoint = true;
                        at++;
                    }
                }
                case DOLLAR -> {
                    if (c != '$') {
                        return null;
                    }
                    at++;
                }
                case SIGN, MINUS -> {
                    if (c == '-') {
                        negate = !negate;
                        at++;
                    } else if (c == '+' && item.token().kind() == Kind.SIGN) {
                        at++;
                    }
                }
                case OPEN -> {
                    if (c == '<') {
                        if (opened) {
                            return null;
                        }
                        opened = true;
                        at++;
                    }
                }
                case CLOSE -> {
                    if (c == '>') {
                        if (!opened) {
                            return null;
                        }
                        closed = true;
                        negate = !negate;
                        at++;
                    }
                }
                default -> {
                }
            }
        }
        if (at < n || opened != closed || (before.length() == 0 && after.length() == 0)) {
            return null;
        }
        StringBuilder text = new StringBuilder(negate ? "-" : "").append(before);
        if (scale > 0) {
            text.append('.').append(after).append("0".repeat(scale - after.length()));
        }
        return new BigDecimal(text.toString()).setScale(scale);
    }

    /**
     * Reads the digits, separators and blanks from {@code start} into {@code digits}; the index after them, or -1 when their
     * groups do not fit the format's: a group of a leading 0 needs exactly its count, others at most theirs.
     */
    private static int digitGroups(List<Token> group, String input, int start, StringBuilder digits) {
        List<Integer> sizes = new ArrayList<>(); // the input's groups, last first, as the format's are compared
        int current = 0;
        int at = start;
        while (at < input.length()) {
            char c = input.charAt(at);
            if (Character.isDigit(c)) {
                current++;
                digits.append(c);
            } else if (c == ',') {
                sizes.add(0, current);
                current = 0;
            } else if (!Character.isWhitespace(c)) {
                break;
            }
            at++;
        }
        sizes.add(0, current);
        List<Token> expected = new ArrayList<>();
        for (Token t : group) {
            if (t.kind() == Kind.DIGITS) {
                expected.add(0, t);
            }
        }
        if (sizes.size() > expected.size()) {
            return -1;
        }
        for (int i = 0; i < expected.size(); i++) {
            int actual = i < sizes.size() ? sizes.get(i) : 0;
            Token t = expected.get(i);
            if (t.exact() ? actual != t.count() : actual > t.count()) {
                return -1;
            }
        }
        return at;
    }
}
