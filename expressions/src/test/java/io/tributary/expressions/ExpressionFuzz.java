package io.tributary.expressions;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Differential testing against Spark, by hand, never in CI (it runs only when {@code fuzz.dir} is set).
 * {@code -Dfuzz.step=generate} writes {@code fuzz.count} (3000) random, type-valid expressions, seeded by
 * {@code fuzz.seed} (1), nested up to three calls deep over the golden rows' columns and edge literals, as a
 * {@code cases.txt} in the scratch folder {@code fuzz.dir} (with the golden {@code rows.jsonl} and {@code case.json});
 * {@code SparkExpressions} records Spark's {@code spark.tsv} there; {@code -Dfuzz.step=compare} evaluates every
 * case as {@code GoldenExpressionsTest} does and writes the ones that differ to {@code differences.txt}, counted by
 * the outermost function in {@code summary.txt}.
 */
@EnabledIfSystemProperty(named = "fuzz.dir", matches = ".+")
class ExpressionFuzz {
    /** Templates {@code RET TEXT}: {@code $c} a generated argument of type code c, {@code {a|b}} a choice. */
    private static final String TEMPLATES = """
            i length($s)|i ascii($s)|i instr($s, $s)|i locate($s, $s, $k)|i size($a)|i year($t)|i month($T)|i day($t)
            i dayofweek($t)|i hour($T)|i minute($T)|i second($T)|i datediff($t, $t)|i dayofyear($t)|i weekofyear($T)
            i quarter($t)|i find_in_set($s, $s)|i levenshtein($s, $s)|i bit_length($s)|i char_length($s)|i array_size($a)
            i unix_date($t)|i int($x)|i regexp_count($s, {'[a-z]'|'\\\\d+'|'.'})|i bit_count($l)|i try_add($i, $i)
            i ($i & $i)|i shiftleft($i, $k)|i element_at($a, $k)|i array_max($a)|i hash($x)|i $a[$k]|i try_element_at($a, $k)
            i extract({YEAR|DOW|DOY|WEEK|QUARTER|DAY} FROM $T)|i date_part({'year'|'dayofweek_iso'|'week'}, $t)|i pmod($i, $i)
            i ($i % $i)|i ($i + $i)|i ($i - $i)|i ($i * $i)|i abs($i)|i -($i)|i ~$i|i bitwise_not_missing|i weekday($t)
            l bigint($x)|l unix_seconds($T)|l unix_micros($T)|l unix_millis($T)|l ceil($d)|l floor($d)|l xxhash64($x)|l ($n div $n)
            l unix_timestamp($T)|l unix_timestamp($s, {'yyyy-MM-dd'|'yyyy-MM-dd HH:mm:ss'})|l shiftright($l, $k)|l crc32($s)
            l factorial($k)|l array_position($a, $i)|l ($l + $l)|l ($l * $i)|l ($l - $l)|l abs($l)|l round($l, {-2|0|-19})
            l conv_missing|l sign_missing|l try_multiply($l, $l)|l ($l % $l)|l greatest($l, $i)
            d double($x)|d sqrt($n)|d ln($n)|d log10($n)|d exp($n)|d pow($n, $n)|d atan2($n, $n)|d sin($n)|d cbrt($n)
            d log1p($n)|d hypot($n, $n)|d degrees($n)|d radians($n)|d months_between($T, $T)|d nanvl($d, $d)|d cot($n)
            d asinh($n)|d acosh($n)|d ($d / $n)|d ($d * $d)|d ($d + $i)|d ($d - $d)|d signum($n)|d log($n, $n)|d log2($n)
            d round($d, $k)|d bround($d, {0|1|-1|2})|d rint($d)|d ($d % $d)|d tanh($n)|d float($x)|d expm1($n)|d atan($n)
            d try_divide($d, $n)|d months_between($t, $t, $b)|d acos($n)|d asin($n)|d cosh($n)|d e()|d pi()|d ceil($d, $k)
            m CAST($x AS DECIMAL({10,2|38,18|5,0|38,0|3,3}))|m round($m, {0|1|-1|3})|m bround($m, {0|1|-1})|m ($m * $m)
            m ($m / $m)|m ($m + $m)|m ($m - $n)|m try_divide($m, $m)|m abs($m)|m zeroifnull($m)|m nullifzero($m)|m ($m % $m)
            m floor($m)|m ceil($m)|m ($m * $i)|m ($m + $l)|m -($m)|m try_add($m, $m)|m pmod($m, $m)|m try_to_number($s, '999.99')
            m to_number({'12.34'|'-0.5'|'99'}, {'99.99'|'S9.99'|'999'})|m avg_missing|m ceil($m, $k)|m floor($m, {-1|2})
            s upper($s)|s lower($s)|s trim($s)|s ltrim($s)|s rtrim($s)|s btrim($s, $s)|s substring($s, $k, $k)|s substr($s, $k)
            s left($s, $k)|s right($s, $k)|s concat($s, $s)|s concat_ws($s, $s, $s)|s lpad($s, $k, $s)|s rpad($s, $k, $s)
            s replace($s, $s, $s)|s split_part($s, $s, $k)|s initcap($s)|s reverse($s)|s repeat($s, {0|1|3})|s translate($s, $s, $s)
            s overlay($s PLACING $s FROM $k)|s chr($l)|s soundex($s)|s quote($s)|s mask($s)|s base64($s)|s hex($x)|s bin($l)
            s conv($s, {10|16|2}, {16|-10|36})|s format_number($n, {0|2|5})|s format_number($n, '#,##0.0')|s date_format($T, $f)
            s from_unixtime($l, $f)|s string($x)|s CAST($x AS STRING)|s format_string({'%s-%s'|'%d'|'%10.3f'|'%x'}, $x, $x)|s typeof($x)
            s md5($s)|s sha1($s)|s sha2($s, {0|256|512})|s regexp_replace($s, {'[a-z]'|'\\\\s+'|'(.)'}, {'X'|'$1'|''})
            s regexp_extract($s, {'([a-z]+)'|'(\\\\d+)'|'(.)(.)'}, {0|1|2})|s substring_index($s, $s, $k)|s elt($k, $s, $s)
            s url_encode($s)|s try_url_decode($s)|s array_join($a, $s)|s array_join($a, $s, $s)|s dayname($t)|s monthname($T)
            s to_char($n, {'999.99'|'S9,999'|'$99.9'|'0000'})|s to_char($t, $f)|s decode(encode($s, 'UTF-8'), 'UTF-8')
            s unbase64_missing|s printf('%s-%s', $x, $x)|s elt(1, $s)|s space({0|3|-1})|s upper(string($x))|s concat($s, $x)
            s trim({BOTH|LEADING|TRAILING} $s FROM $s)|s lpad($s, $k)|s date_format($t, $f)|s string(date_trunc($u, $T))
            b ($s like $s)|b ($s rlike {'^a'|'\\\\d'|'.*'})|b startswith($s, $s)|b endswith($s, $s)|b contains($s, $s)
            b ($x = $x)|b ($x < $x)|b ($x <=> $x)|b ($x >= $x)|b ($x != $x)|b ($b and $b)|b ($b or $b)|b (not $b)|b isnull($x)
            b isnan($d)|b array_contains($a, $i)|b ($x in ($x, $x))|b ($n between $n and $n)|b luhn_check($s)|b is_valid_utf8($s)
            b ($s ilike $s)|b regexp_like($s, {'[0-9]'|'^$'|'\\\\s'})|b exists($a, v -> v > $i)|b boolean($x)|b equal_null($x, $x)
            b ($t < $s)|b ($T = $t)|b ($s = $n)|b ($s > $d)|b ($b = $s)|b ($m = $d)|b ($i = $l)|b ($T > $s)|b ($d = $i)|b ($s <=> $t)
            t to_date($s)|t date_add($t, $i)|t date_sub($t, $i)|t add_months($t, $i)|t last_day($t)|t next_day($t, {'MO'|'sunday'|'xx'})
            t make_date($i, $k, $k)|t trunc($t, {'year'|'MM'|'week'|'quarter'|'x'})|t date($x)|t try_to_date($s)|t date_from_unix_date($i)
            t dateadd($t, $i)|t ($t + $i)|t ($t - $k)|t to_date($s, {'yyyy-MM-dd'|'dd/MM/yyyy'|'yyyyDDD'})|t CAST($x AS DATE)
            t date_add($s, $k)|t last_day($s)|t add_months($s, $k)|t ($t + INTERVAL $k DAY)|t ($t - INTERVAL {'1-2'|'10000-0'} YEAR TO MONTH)
            T to_timestamp($s)|T timestamp($x)|T date_trunc($u, $T)|T timestamp_seconds($l)|T timestamp_millis($l)|T timestamp_micros($l)
            T make_timestamp($i, $k, $k, $k, $k, $d)|T from_utc_timestamp($T, $z)|T to_utc_timestamp($T, $z)|T try_to_timestamp($s)
            T ($T + INTERVAL $k HOUR)|T ($T - INTERVAL '1 02:03:04.5' DAY TO SECOND)|T to_timestamp($s, $f)|T CAST($x AS TIMESTAMP)
            T ($T + INTERVAL {'1-1'|'-3000-0'} YEAR TO MONTH)|T date_trunc($u, $s)|T timestamp_seconds($d)|T dateadd($u, $k, $T)
            T timestampadd({DAY|MONTH|SECOND|YEAR}, $l, $T)|T convert_timezone($z, $z, $T)|T make_timestamp_ltz($i, $k, $k, $k, $k, $m)
            a array($i, $i)|a sort_array($a, $b)|a array_distinct($a)|a slice($a, $k, $k)|a array_union($a, $a)|a array_remove($a, $i)
            a array_compact($a)|a array_append($a, $i)|a array_insert($a, $k, $i)|a flatten(array($a, $a))|a transform($a, v -> v + $i)
            a filter($a, v -> v > $i)|a map_values($p)|a array_repeat($i, {0|2})|a reverse($a)|a array_except($a, $a)|a array_sort($a)
            a sequence($k, $k)|a array_intersect($a, $a)|a array_prepend($a, $i)|a concat($a, $a)|a transform($a, (v, j) -> v * j)
            p map('a', $i)|p map_concat($p, map('z', $i))|p map_filter($p, (k, v) -> v > $i)|p transform_values($p, (k, v) -> v + $i)
            p map_from_arrays(array('a', 'b'), array($i, $i))|p str_to_map_missing|p map('k', $i, 'j', $i)
            x if($b, $x, $x)|x coalesce($x, $x)|x nullif($x, $x)|x CASE WHEN $b THEN $x ELSE $x END|x greatest($n, $n)|x least($x, $x)
            x nvl($x, $x)|x nvl2($x, $x, $x)|x CASE $i WHEN $i THEN $x WHEN $k THEN $x END|x try_cast($x AS $y)|x CAST($x AS $y)
            x if($b, $s, $n)|x coalesce($t, $s)|x CASE WHEN $b THEN $T ELSE $t END|x coalesce($i, $d, $m)|x if($b, $m, $l)|x nvl($t, $T)
            """;
    private static final Map<Character, List<String>> LITERALS = Map.ofEntries(
            Map.entry('i', List.of("0", "-1", "7", "2147483647", "-2147483648", "CAST(NULL AS INT)", "2Y", "-32768S")),
            Map.entry('l', List.of("0L", "9223372036854775807L", "-9223372036854775808L", "3000000000L", "-1L", "86400L")),
            Map.entry('d', List.of("-0.0D", "double('NaN')", "double('Infinity')", "double('-Infinity')", "1e308D", "4.9E-324D", "0.1D",
                    "2.5D", "-1.5D", "1e-10D", "float('NaN')", "3.4E38F", "CAST(NULL AS DOUBLE)")),
            Map.entry('m', List.of("0.5", "-2.5", "1.005", "12345678901234567890.123456789012345678", "99999999999999999999999999999999999999",
                    "-0.00001", "0.000", "9999999999.99BD", "CAST(NULL AS DECIMAL(10,2))", "123.450")),
            Map.entry('s', List.of("''", "' '", "'  a b  '", "'Ab c'", "'üñí'", "'\uD83D\uDE00x'", "'x\uD834\uDD1E'", "'\\t\\n'", "'123'",
                    "' 42 '", "'-0'", "'1e3'", "'NaN'", "'Infinity'", "'-Infinity'", "'2024-02-29'", "'2023-02-29'", "'1582-10-10'",
                    "'0001-01-01 00:00:00'", "'2024-03-10 02:30:00'", "'2024-10-27T01:30:00+01:00'", "'9999-12-31 23:59:59.999999'",
                    "'true'", "'T'", "'ß'", "'İ'", "'a%b_c'", "'2147483648'", "'-9223372036854775809'", "'1.5e400'", "'0x1F'",
                    "CAST(NULL AS STRING)", "'12.345'", "' -7 '", "'1969-12-31 23:59:59.9999999'", "'+12:00'")),
            Map.entry('b', List.of("true", "false", "CAST(NULL AS BOOLEAN)")),
            Map.entry('t', List.of("DATE'1582-10-10'", "DATE'1582-10-04'", "DATE'0001-01-01'", "DATE'9999-12-31'", "DATE'2024-02-29'",
                    "DATE'1970-01-01'", "DATE'1900-02-28'", "DATE'-0001-06-15'", "CAST(NULL AS DATE)")),
            Map.entry('T', List.of("TIMESTAMP'2024-03-10 02:30:00'", "TIMESTAMP'1969-12-31 23:59:59.999999'", "TIMESTAMP'0001-01-01 00:00:00'",
                    "TIMESTAMP'9999-12-31 23:59:59.999999'", "TIMESTAMP'1582-10-10 12:00:00'", "TIMESTAMP'2024-10-27 01:30:00+01:00'",
                    "TIMESTAMP'1900-01-01 00:00:00'", "TIMESTAMP'2024-02-29 23:59:59.5'", "TIMESTAMP'1883-11-18 16:59:59-07:00'")),
            Map.entry('a', List.of("array(1, NULL, 3)", "array()", "array(2147483647, -2147483648)", "CAST(NULL AS ARRAY<INT>)")),
            Map.entry('p', List.of("map('a', 1)", "map()", "map('k', NULL)")),
            Map.entry('k', List.of("0", "1", "2", "-1", "3", "5", "100", "-100")),
            Map.entry('f', List.of("'yyyy-MM-dd'", "'yyyy-MM-dd HH:mm:ss.SSSSSS'", "'EEE, d MMM yyyy'", "'QQQ yy'", "'D'", "'hh a'",
                    "'G yyyy'", "'XXX'", "'u'", "'MMMM'", "'kk:mm'", "'yyyyyy'", "'[yyyy]'", "'x'", "'L'")),
            Map.entry('u', List.of("'year'", "'month'", "'week'", "'day'", "'hour'", "'quarter'", "'microsecond'", "'mm'", "'x'")),
            Map.entry('z', List.of("'UTC'", "'America/Los_Angeles'", "'Asia/Kolkata'", "'+05:45'", "'Europe/Amsterdam'", "'GMT-8'", "'bad/zone'")),
            Map.entry('y', List.of("BOOLEAN", "TINYINT", "SMALLINT", "INT", "BIGINT", "FLOAT", "DOUBLE", "DECIMAL(10,2)", "DECIMAL(38,18)",
                    "DECIMAL(5,0)", "STRING", "DATE", "TIMESTAMP", "BINARY", "TIMESTAMP_NTZ")));
    private static final Map<Character, List<String>> COLUMNS = Map.of('i', List.of("i", "st.x"), 'l', List.of("l"), 'd', List.of("d"),
            'm', List.of("m"), 's', List.of("s", "st.y"), 'b', List.of("b"), 't', List.of("dt"), 'T', List.of("ts"), 'a', List.of("arr"),
            'p', List.of("mp"));
    private static final String SCALARS = "ildmsbtT";
    private static final Pattern SLOT = Pattern.compile("\\$(.)|\\{([^}]*)}");

    private final Map<Character, List<String>> templates = new TreeMap<>();
    private Random random;

    ExpressionFuzz() {
        for (String line : TEMPLATES.strip().split("\n")) {
            for (String t : splitTop(line.strip())) {
                if (!t.endsWith("_missing")) {
                    templates.computeIfAbsent(t.charAt(0), c -> new ArrayList<>()).add(t.substring(2));
                }
            }
        }
    }

    @Test
    @EnabledIfSystemProperty(named = "fuzz.step", matches = "generate")
    void generate() throws IOException {
        Path dir = Path.of(System.getProperty("fuzz.dir"));
        Files.createDirectories(dir);
        random = new Random(Long.getLong("fuzz.seed", 1L));
        int count = Integer.getInteger("fuzz.count", 3000);
        List<String> lines = new ArrayList<>(List.of("# ExpressionFuzz: seed " + Long.getLong("fuzz.seed", 1L) + ", " + count + " cases"));
        for (int n = 0; n < count; n++) {
            char type = SCALARS.charAt(random.nextInt(SCALARS.length()));
            lines.add(random.nextInt(5) + "\t" + expression(random.nextInt(4) == 0 ? "xap".charAt(random.nextInt(3)) : type, 1 + random.nextInt(3)));
        }
        Files.write(dir.resolve("cases.txt"), lines, StandardCharsets.UTF_8);
        for (String name : List.of("rows.jsonl", "case.json")) {
            Files.copy(Path.of("..", "golden", "expressions", name), dir.resolve(name), StandardCopyOption.REPLACE_EXISTING);
        }
    }

    @Test
    @EnabledIfSystemProperty(named = "fuzz.step", matches = "compare")
    void compare() throws IOException {
        Path dir = Path.of(System.getProperty("fuzz.dir"));
        List<String> differences = new ArrayList<>();
        Map<String, Integer> byFunction = new TreeMap<>();
        int cases = 0;
        for (String line : Files.readAllLines(dir.resolve("spark.tsv"), StandardCharsets.UTF_8)) {
            String[] f = line.split("\t", -1);
            GoldenCase c = new GoldenCase(Integer.parseInt(f[0]), GoldenCase.unescape(f[1]), f[2], f[3]);
            cases++;
            String problem = GoldenExpressionsTest.check(c);
            if (problem != null) {
                differences.add(c.row() + "\t" + c.expression() + "\t" + problem);
                String kind = problem.replaceAll("^(\\w+).*", "$1");
                byFunction.merge(kind + " " + c.expression().replaceAll("^\\(?([\\w ]+?)\\(.*", "$1"), 1, Integer::sum);
            }
        }
        Files.write(dir.resolve("differences.txt"), differences, StandardCharsets.UTF_8);
        List<String> summary = new ArrayList<>(List.of(cases + " cases, " + differences.size() + " differ"));
        byFunction.forEach((k, v) -> summary.add(v + "\t" + k));
        Files.write(dir.resolve("summary.txt"), summary, StandardCharsets.UTF_8);
        assertThat(cases).isPositive();
    }

    /** An expression of type code {@code type} (x any scalar), calls nested up to {@code depth} deep. */
    private String expression(char type, int depth) {
        if (type == 'x') {
            type = SCALARS.charAt(random.nextInt(SCALARS.length()));
        } else if (type == 'n') {
            type = "ildm".charAt(random.nextInt(4));
        }
        List<String> own = templates.get(type);
        if (depth == 0 || own == null || random.nextInt(4) == 0) {
            List<String> columns = COLUMNS.get(type);
            if (columns != null && random.nextBoolean()) {
                return pick(columns);
            }
            return pick(LITERALS.get(type));
        }
        String template = random.nextInt(6) == 0 ? pick(templates.get('x')) : pick(own);
        Matcher m = SLOT.matcher(template);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            String part = m.group(1) != null ? expression(m.group(1).charAt(0), depth - 1) : pick(List.of(m.group(2).split("\\|")));
            m.appendReplacement(sb, Matcher.quoteReplacement(part));
        }
        m.appendTail(sb);
        return sb.toString();
    }

    private String pick(List<String> choices) {
        return choices.get(random.nextInt(choices.size()));
    }

    /** A line's templates, split at the {@code |} outside braces. */
    private static List<String> splitTop(String line) {
        List<String> parts = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            depth += c == '{' ? 1 : c == '}' ? -1 : 0;
            if (c == '|' && depth == 0) {
                parts.add(line.substring(start, i).strip());
                start = i + 1;
            }
        }
        parts.add(line.substring(start).strip());
        return parts;
    }
}
