package io.tributary.expressions.internal;

import java.nio.charset.StandardCharsets;
import java.text.BreakIterator;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** What {@link TextFunctions} compute, as Spark 4.2's {@code UTF8String} and string expressions do. */
final class TextKernels {
    /** Soundex codes of A to Z; 7 is a letter skipped without separating codes (H, W). */
    private static final String SOUNDEX = "01230127022455012623017202";

    private TextKernels() {
    }

    static String splitPart(String s, String delim, int part) {
        if (part == 0) {
            throw Failure.of("INVALID_INDEX_OF_ZERO", "split_part's partNum is 0; parts are counted from 1 (or from -1 at the end)");
        }
        if (part == Integer.MIN_VALUE) {
            // Spark 4.2 fails here with a bare exception, whose class is then the error class
            throw Failure.of("ArrayIndexOutOfBoundsException", "split_part's partNum " + part + " is out of range");
        }
        List<String> parts = new ArrayList<>();
        int from = 0;
        for (int at = delim.isEmpty() ? -1 : s.indexOf(delim); at >= 0; at = s.indexOf(delim, from)) {
            parts.add(s.substring(from, at));
            from = at + delim.length();
        }
        parts.add(s.substring(from));
        int at = part > 0 ? part - 1 : parts.size() + part;
        return at >= 0 && at < parts.size() ? parts.get(at) : "";
    }

    static String substringIndex(String s, String delim, int count) {
        if (delim.isEmpty() || count == 0) {
            return "";
        }
        if (count == Integer.MIN_VALUE) {
            // Spark 4.2 fails here with a bare exception, whose class is then the error class
            throw Failure.of("NegativeArraySizeException", "substring_index's count " + count + " is out of range");
        }
        if (count > 0) {
            int idx = -1;
            while (count > 0) {
                idx = s.indexOf(delim, idx + 1);
                if (idx < 0) {
                    return s;
                }
                count--;
            }
            return s.substring(0, idx);
        }
        int idx = s.length() - delim.length() + 1;
        while (count < 0) {
            idx = idx - 1 < 0 ? -1 : s.lastIndexOf(delim, idx - 1);
            if (idx < 0) {
                return s;
            }
            count++;
        }
        return s.substring(idx + delim.length());
    }

    static String translate(String s, String from, String to) {
        Map<Integer, Integer> dict = new HashMap<>();
        int[] f = from.codePoints().toArray();
        int[] t = to.codePoints().toArray();
        for (int i = 0; i < f.length; i++) {
            dict.putIfAbsent(f[i], i < t.length ? t[i] : 0);
        }
        StringBuilder sb = new StringBuilder(s.length());
        s.codePoints().forEach(cp -> {
            Integer r = dict.get(cp);
            if (r == null) {
                sb.appendCodePoint(cp);
            } else if (r != 0) {
                sb.appendCodePoint(r);
            }
        });
        return sb.toString();
    }

    /** {@code s} without the leading and trailing characters found in {@code chars}. */
    static String trim(String s, String chars) {
        int a = 0;
        int b = s.length();
        while (a < b && chars.indexOf(s.codePointAt(a)) >= 0) {
            a += Character.charCount(s.codePointAt(a));
        }
        while (b > a && chars.indexOf(s.codePointBefore(b)) >= 0) {
            b -= Character.charCount(s.codePointBefore(b));
        }
        return s.substring(a, b);
    }

    /** The text without the leading (or trailing) characters of {@code chars}. */
    static String trimSide(String s, String chars, boolean left) {
        int a = 0;
        int b = s.length();
        while (left && a < b && chars.indexOf(s.codePointAt(a)) >= 0) {
            a += Character.charCount(s.codePointAt(a));
        }
        while (!left && b > a && chars.indexOf(s.codePointBefore(b)) >= 0) {
            b -= Character.charCount(s.codePointBefore(b));
        }
        return s.substring(a, b);
    }

    static int locate(String sub, String s, int pos) {
        if (pos < 1) {
            return 0;
        }
        if (sub.isEmpty()) {
            return 1;
        }
        return Text.indexOf(s, sub, pos - 1);
    }

    static int findInSet(String s, String list) {
        if (s.contains(",")) {
            return 0;
        }
        return Arrays.asList(list.split(",", -1)).indexOf(s) + 1;
    }

    static String overlay(String input, String replace, int pos, int len) {
        int length = len >= 0 ? len : Text.length(replace);
        return Text.substring(input, 1, pos - 1) + replace + Text.substring(input, pos + length, Integer.MAX_VALUE);
    }

    static byte[] overlay(byte[] input, byte[] replace, int pos, int len) {
        int length = len >= 0 ? len : replace.length;
        byte[] head = Text.substring(input, 1, pos - 1);
        byte[] tail = Text.substring(input, pos + length, Integer.MAX_VALUE);
        byte[] out = new byte[head.length + replace.length + tail.length];
        System.arraycopy(head, 0, out, 0, head.length);
        System.arraycopy(replace, 0, out, head.length, replace.length);
        System.arraycopy(tail, 0, out, head.length + replace.length, tail.length);
        return out;
    }

    static String chr(long n) {
        return n < 0 ? "" : String.valueOf((char) (n & 0xFF));
    }

    static int levenshtein(String a, String b) {
        int[] s = a.codePoints().toArray();
        int[] t = b.codePoints().toArray();
        int[] prev = new int[t.length + 1];
        int[] cur = new int[t.length + 1];
        for (int j = 0; j <= t.length; j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= s.length; i++) {
            cur[0] = i;
            for (int j = 1; j <= t.length; j++) {
                int cost = s[i - 1] == t[j - 1] ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
            }
            int[] swap = prev;
            prev = cur;
            cur = swap;
        }
        return prev[t.length];
    }

    static int levenshtein(String a, String b, int threshold) {
        int d = levenshtein(a, b);
        return d <= threshold ? d : -1;
    }

    static String soundex(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        if (b.length == 0) {
            return s;
        }
        int c = upper(b[0]);
        if (c < 'A' || c > 'Z') {
            return s;
        }
        char[] sx = {(char) c, '0', '0', '0'};
        int at = 1;
        char last = SOUNDEX.charAt(c - 'A');
        for (int i = 1; i < b.length && at < 4; i++) {
            c = upper(b[i]);
            if (c < 'A' || c > 'Z') {
                last = '0';
                continue;
            }
            char code = SOUNDEX.charAt(c - 'A');
            if (code == '7') {
                continue;
            }
            if (code != '0' && code != last) {
                sx[at++] = code;
            }
            last = code;
        }
        return new String(sx);
    }

    private static int upper(byte b) {
        return b >= 'a' && b <= 'z' ? b - 32 : b;
    }

    /**
     * Spark's mask: {@code with} holds the upper, lower, digit and other replacements, -1 to keep the character. As Spark, it
     * goes by UTF-16 unit: a character beyond the BMP is two others.
     */
    static String mask(String s, int[] with) {
        StringBuilder sb = new StringBuilder(s.length());
        s.chars().forEach(cp -> {
            int kind = switch (Character.getType(cp)) {
                case Character.UPPERCASE_LETTER -> 0;
                case Character.LOWERCASE_LETTER -> 1;
                case Character.DECIMAL_DIGIT_NUMBER -> 2;
                default -> 3;
            };
            if (with[kind] < 0) {
                sb.append((char) cp);
            } else {
                sb.appendCodePoint(with[kind]);
            }
        });
        return sb.toString();
    }

    static boolean luhn(String digits) {
        if (digits.isEmpty()) {
            return false;
        }
        int sum = 0;
        boolean second = false;
        for (int i = digits.length() - 1; i >= 0; i--) {
            char ch = digits.charAt(i);
            if (!Character.isDigit(ch)) {
                return false;
            }
            int d = Character.getNumericValue(ch);
            int doubled = second ? d * 2 : d;
            sum += doubled % 10 + doubled / 10;
            second = !second;
        }
        return sum % 10 == 0;
    }

    static List<List<String>> sentences(String s, String language, String country) {
        Locale locale = language != null && country != null ? new Locale(language, country)
                : language != null ? new Locale(language) : Locale.US;
        BreakIterator sentences = BreakIterator.getSentenceInstance(locale);
        sentences.setText(s);
        List<List<String>> out = new ArrayList<>();
        int from = 0;
        while (sentences.next() != BreakIterator.DONE) {
            String sentence = s.substring(from, sentences.current());
            from = sentences.current();
            BreakIterator words = BreakIterator.getWordInstance(locale);
            words.setText(sentence);
            List<String> found = new ArrayList<>();
            int w = 0;
            while (words.next() != BreakIterator.DONE) {
                String word = sentence.substring(w, words.current());
                w = words.current();
                if (Character.isLetterOrDigit(word.charAt(0))) {
                    found.add(word);
                }
            }
            out.add(found);
        }
        return out;
    }
}
