package io.tributary.connect.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.schema.BadRecordException;
import io.tributary.schema.RowJson;
import io.tributary.schema.RowPack;
import io.tributary.schema.Topics;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.header.Header;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * A sink record's rows, whatever converter made its value: JSON text (Connect's
 * {@code StringConverter}, one row or several JSON lines as the stages pack them), bytes of JSON
 * ({@code ByteArrayConverter}), a map ({@code JsonConverter} without schemas) or a struct (a
 * converter with schemas). Rows are parsed by the stages' {@link RowJson}, so a value means the
 * same here as in {@code tributary run}. Watermark markers of {@code tributary run}'s events topic are no rows.
 */
public final class RecordRows {
    private static final ObjectMapper JSON = new ObjectMapper();

    private RecordRows() {
    }

    /** True for {@code tributary run}'s watermark markers, which carry no row. */
    public static boolean isMarker(SinkRecord r) {
        return r.headers().lastWithName(Topics.MARKER_HEADER) != null;
    }

    /** The value of header {@code name} as text, or null. */
    public static String header(SinkRecord r, String name) {
        Header h = r.headers().lastWithName(name);
        return h == null || h.value() == null ? null : h.value().toString();
    }

    /**
     * The record's rows, parsed with {@code rows}.
     *
     * @throws BadRecordException naming the row (of a packed record) and the field when a row does not fit the schema
     */
    public static List<Object[]> rows(SinkRecord r, RowJson rows) {
        byte[] value = bytes(r.value());
        if (value == null) {
            throw ConnectErrors.tombstone();
        }
        List<Object[]> out = new ArrayList<>();
        int[] n = {0};
        RowPack.forEachRow(value, (bytes, offset, length) -> {
            n[0]++;
            try {
                out.add(rows.parse(bytes, offset, length));
            } catch (BadRecordException e) {
                throw n[0] == 1 ? e : ConnectErrors.badPackedRow(n[0], e);
            }
        });
        return out;
    }

    /** The record's key as bytes (text as UTF-8, a map or list as JSON), or null when it has none. */
    public static byte[] keyBytes(SinkRecord r) {
        return bytes(r.key());
    }

    private static byte[] bytes(Object value) {
        if (value == null) {
            return null;
        }
        if (value instanceof String s) {
            return s.getBytes(StandardCharsets.UTF_8);
        }
        if (value instanceof byte[] b) {
            return b;
        }
        if (value instanceof ByteBuffer bb) {
            byte[] b = new byte[bb.remaining()];
            bb.duplicate().get(b);
            return b;
        }
        try {
            return JSON.writeValueAsBytes(plain(value));
        } catch (JsonProcessingException e) {
            throw ConnectErrors.notJson(e.getOriginalMessage());
        }
    }

    /** Connect data as plain Java values Jackson writes: structs as maps, dates as ISO-8601 instants, bytes as base64. */
    private static Object plain(Object v) {
        if (v instanceof Struct s) {
            Map<String, Object> m = new LinkedHashMap<>();
            for (Field f : s.schema().fields()) {
                m.put(f.name(), plain(s.get(f)));
            }
            return m;
        }
        if (v instanceof Map<?, ?> map) {
            Map<String, Object> m = new LinkedHashMap<>();
            map.forEach((k, x) -> m.put(String.valueOf(k), plain(x)));
            return m;
        }
        if (v instanceof List<?> list) {
            return list.stream().map(RecordRows::plain).toList();
        }
        if (v instanceof Date d) {
            return d.toInstant().toString();
        }
        if (v instanceof byte[] b) {
            return Base64.getEncoder().encodeToString(b);
        }
        return v;
    }
}
