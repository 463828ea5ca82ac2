package io.tributary.expressions.internal;

import static io.tributary.schema.DataType.STRING;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/** Spark's parse_url and try_parse_url: a part of a URL as {@link URI} reads it, or a key's value in its query. */
final class UrlFunctions {
    private UrlFunctions() {
    }

    static void register(Consumer<FunctionDef> add) {
        add.accept(Fn.custom("parse_url", 2, 3, "parse_url(url STRING, part STRING[, key STRING]) → STRING", "null if an argument is null or the part is absent",
                "the URL's HOST, PATH, QUERY, REF, PROTOCOL, FILE, AUTHORITY or USERINFO (upper-case), or the value of key in its QUERY;"
                        + " INVALID_URL when it does not parse", (call, args) -> parseUrl(call, args, false)));
        add.accept(Fn.custom("try_parse_url", 2, 3, "try_parse_url(url STRING, part STRING[, key STRING]) → STRING",
                "null if an argument is null, the part is absent or the URL does not parse", "parse_url, null where it fails",
                (call, args) -> parseUrl(call, args, true)));
    }

    private static Bound parseUrl(Analyzer.Call call, List<Bound> args, boolean orNull) {
        List<Bound> cast = new ArrayList<>(args.stream().map(b -> call.as(b, STRING)).toList());
        return call.apply(cast, STRING, a -> {
            URI uri;
            try {
                uri = new URI((String) a[0]);
            } catch (URISyntaxException e) {
                if (orNull) {
                    return null;
                }
                throw Failure.of("INVALID_URL", "the url '" + a[0] + "' is invalid: " + e.getMessage() + "; use try_parse_url to get null");
            }
            String part = (String) a[1];
            if (a.length > 2) {
                return part.equals("QUERY") ? queryValue(uri.getRawQuery(), (String) a[2]) : null;
            }
            return switch (part) {
                case "HOST" -> uri.getHost();
                case "PATH" -> uri.getRawPath();
                case "QUERY" -> uri.getRawQuery();
                case "REF" -> uri.getRawFragment();
                case "PROTOCOL" -> uri.getScheme();
                case "FILE" -> uri.getRawQuery() != null ? uri.getRawPath() + "?" + uri.getRawQuery() : uri.getRawPath();
                case "AUTHORITY" -> uri.getRawAuthority();
                case "USERINFO" -> uri.getRawUserInfo();
                default -> null;
            };
        });
    }

    /** As Spark: the key is part of a regular expression, not quoted. */
    private static String queryValue(String query, String key) {
        if (query == null) {
            return null;
        }
        Pattern p;
        try {
            p = Pattern.compile("(&|^)" + key + "=([^&]*)");
        } catch (PatternSyntaxException e) {
            // Spark lets the exception through: its class is the error class
            throw Failure.of("PatternSyntaxException", "the key '" + key + "' does not make a regular expression: " + e.getDescription());
        }
        Matcher m = p.matcher(query);
        return m.find() ? m.group(2) : null;
    }
}
