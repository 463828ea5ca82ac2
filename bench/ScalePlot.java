import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.imageio.ImageIO;

/**
 * Plots bench/scale.sh's TSV: CPU time (user + system, the noise of a shared machine affects it least) and peak RSS against the rows, one line per workload, as a PNG.
 * Usage: {@code java bench/ScalePlot.java /tmp/tributary-scale.tsv docs/scale.png} (headless; the JDK alone).
 */
public class ScalePlot {
    private static final int W = 1000;
    private static final int H = 420;
    private static final Color[] COLORS = {new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c), new Color(0x9467bd)};

    record Point(double rows, double cpu, double rss) {}

    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            System.err.println("usage: java bench/ScalePlot.java SCALE.tsv OUT.png");
            System.exit(2);
        }
        Map<String, List<Point>> series = new LinkedHashMap<>();
        List<String> lines = Files.readAllLines(Path.of(args[0]));
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split("\t");
            series.computeIfAbsent(f[0], k -> new ArrayList<>())
                    .add(new Point(Double.parseDouble(f[1]), Double.parseDouble(f[4]), Double.parseDouble(f[3])));
        }
        System.setProperty("java.awt.headless", "true");
        BufferedImage image = new BufferedImage(W, H, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, W, H);
        panel(g, 0, "CPU time (s)", series, true);
        panel(g, W / 2, "peak RSS (MiB)", series, false);
        g.dispose();
        ImageIO.write(image, "png", Path.of(args[1]).toFile());
    }

    private static void panel(Graphics2D g, int x0, String title, Map<String, List<Point>> series, boolean cpu) {
        int left = x0 + 70;
        int right = x0 + W / 2 - 20;
        int top = 40;
        int bottom = H - 60;
        double maxRows = series.values().stream().flatMap(List::stream).mapToDouble(Point::rows).max().orElse(1);
        double maxY = series.values().stream().flatMap(List::stream).mapToDouble(p -> cpu ? p.cpu() : p.rss()).max().orElse(1);
        maxY = niceCeiling(maxY);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 14));
        g.setColor(Color.BLACK);
        g.drawString(title + " against rows (millions)", left, top - 16);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        for (int i = 0; i <= 5; i++) {
            int y = bottom - (bottom - top) * i / 5;
            g.setColor(new Color(0xdddddd));
            g.drawLine(left, y, right, y);
            g.setColor(Color.BLACK);
            g.drawString(String.format(Locale.ROOT, "%.0f", maxY * i / 5), left - 45, y + 4);
        }
        for (int m = 0; m <= maxRows / 1e6; m++) {
            int x = left + (int) ((right - left) * (m * 1e6) / maxRows);
            g.drawLine(x, bottom, x, bottom + 4);
            if (m % 2 == 0 || maxRows <= 5e6) {
                g.drawString(Integer.toString(m), x - 4, bottom + 18);
            }
        }
        g.drawLine(left, bottom, right, bottom);
        g.drawLine(left, top, left, bottom);
        int c = 0;
        for (Map.Entry<String, List<Point>> e : series.entrySet()) {
            Color color = COLORS[c % COLORS.length];
            g.setColor(color);
            g.setStroke(new BasicStroke(2f));
            int px = -1;
            int py = -1;
            for (Point p : e.getValue()) {
                int x = left + (int) ((right - left) * p.rows() / maxRows);
                int y = bottom - (int) ((bottom - top) * (cpu ? p.cpu() : p.rss()) / maxY);
                g.fillOval(x - 4, y - 4, 8, 8);
                if (px >= 0) {
                    g.drawLine(px, py, x, y);
                }
                px = x;
                py = y;
            }
            g.drawString(e.getKey(), left + 12, top + 16 + 16 * c);
            c++;
        }
        g.setStroke(new BasicStroke(1f));
    }

    private static double niceCeiling(double v) {
        double step = Math.pow(10, Math.floor(Math.log10(v)));
        for (double m : new double[] {1, 2, 2.5, 5, 10}) {
            if (m * step >= v) {
                return m * step;
            }
        }
        return 10 * step;
    }
}
