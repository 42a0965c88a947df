package io.rackfabric.loadtests.report.html;

import java.util.ArrayList;
import java.util.List;

/**
 * An x-y chart as inline SVG, plain markup with no script: lines, scatter points and bars, axes
 * with round ticks and labels, vertical markers (a fault, a take-over step) and a legend. The
 * caller picks the units (the axis labels say model or wall time); points that are not finite are
 * left out. A plot with no point says so in its frame instead of drawing an axis for nothing.
 *
 * <p>Elements carry classes a reader (or a test) can find: {@code svg.plot} with the given id,
 * {@code g.series} with {@code data-name} per series, {@code polyline.line}, {@code circle.point},
 * {@code rect.bar}, {@code line.marker}, {@code text.tick}, {@code text.axis-label}.
 */
public final class SvgPlot {

  static final int WIDTH = 760;
  static final int HEIGHT = 320;
  private static final int LEFT = 78;
  private static final int RIGHT = 20;
  private static final int TOP = 40;
  private static final int BOTTOM = 52;
  static final String[] PALETTE = {"#1f6fb4", "#d9611b", "#2b9348", "#b5179e", "#6c757d", "#c9a227"};

  /** How a series is drawn. */
  public enum Style { LINE, SCATTER, BARS }

  /**
   * One series: for bars each x is a bar's left edge and {@code barWidth} its width (in x units).
   */
  record Series(String name, Style style, double[] xs, double[] ys, double barWidth) {}

  /** A vertical line across the plot at {@code x}, labelled at its top. */
  record Marker(double x, String label) {}

  private final String id;
  private final String title;
  private final String xLabel;
  private final String yLabel;
  private final List<Series> series = new ArrayList<>();
  private final List<Marker> markers = new ArrayList<>();
  private boolean yFromZero;

  /**
   * @param id the svg element's id (unique in the page)
   * @param title shown above the plot
   * @param xLabel the x axis' quantity and unit, e.g. "model time since the stream began (ms)"
   * @param yLabel the y axis' quantity and unit
   */
  public SvgPlot(String id, String title, String xLabel, String yLabel) {
    this.id = id;
    this.title = title;
    this.xLabel = xLabel;
    this.yLabel = yLabel;
  }

  public SvgPlot line(String name, double[] xs, double[] ys) {
    return add(new Series(name, Style.LINE, xs, ys, 0));
  }

  public SvgPlot scatter(String name, double[] xs, double[] ys) {
    return add(new Series(name, Style.SCATTER, xs, ys, 0));
  }

  /** Bars from each x to x + width, from 0 (or the axis' bottom) up to y. */
  public SvgPlot bars(String name, double[] xs, double[] ys, double width) {
    if (!(width > 0)) {
      throw new IllegalArgumentException("width=" + width + " must be > 0");
    }
    yFromZero = true;
    return add(new Series(name, Style.BARS, xs, ys, width));
  }

  public SvgPlot marker(double x, String label) {
    if (Double.isFinite(x)) {
      markers.add(new Marker(x, label));
    }
    return this;
  }

  /** Keeps 0 on the y axis (counts, rates). */
  public SvgPlot yFromZero() {
    yFromZero = true;
    return this;
  }

  private SvgPlot add(Series s) {
    if (s.xs().length != s.ys().length) {
      throw new IllegalArgumentException("series " + s.name() + ": xs=" + s.xs().length + " values but ys="
          + s.ys().length);
    }
    series.add(s);
    return this;
  }

  /** Points that will be drawn, over every series. */
  public int points() {
    int n = 0;
    for (Series s : series) {
      for (int i = 0; i < s.xs().length; i++) {
        n += finite(s, i) ? 1 : 0;
      }
    }
    return n;
  }

  /**
   * The x axis the plot will draw: the data's range and the bars' right edges. Markers do not
   * stretch it (a take-over that ends long after the stream would squeeze the data into a corner):
   * one outside is named under the plot instead.
   */
  Axis xAxis() {
    double min = Double.NaN;
    double max = Double.NaN;
    for (Series s : series) {
      for (int i = 0; i < s.xs().length; i++) {
        if (finite(s, i)) {
          min = min(min, s.xs()[i]);
          max = max(max, s.xs()[i] + (s.style() == Style.BARS ? s.barWidth() : 0));
        }
      }
    }
    return Axis.covering(min, max, 8);
  }

  /** The y axis the plot will draw. */
  Axis yAxis() {
    double min = yFromZero ? 0 : Double.NaN;
    double max = yFromZero ? 0 : Double.NaN;
    for (Series s : series) {
      for (int i = 0; i < s.xs().length; i++) {
        if (finite(s, i)) {
          min = min(min, s.ys()[i]);
          max = max(max, s.ys()[i]);
        }
      }
    }
    // Headroom, so that points at the maximum do not sit on the frame.
    return Axis.covering(min, max + (max - min) * 0.05, 5);
  }

  private static double min(double a, double b) {
    return Double.isNaN(a) ? b : Math.min(a, b);
  }

  private static double max(double a, double b) {
    return Double.isNaN(a) ? b : Math.max(a, b);
  }

  private static boolean finite(Series s, int i) {
    return Double.isFinite(s.xs()[i]) && Double.isFinite(s.ys()[i]);
  }

  public String render() {
    StringBuilder b = new StringBuilder(4096);
    b.append("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"plot\" id=\"").append(Markup.escape(id))
        .append("\" viewBox=\"0 0 ").append(WIDTH).append(' ').append(HEIGHT).append("\" width=\"").append(WIDTH)
        .append("\" height=\"").append(HEIGHT).append("\" role=\"img\" aria-label=\"").append(Markup.escape(title))
        .append("\">\n");
    b.append("<title>").append(Markup.escape(title)).append("</title>\n");
    b.append("<rect class=\"frame\" x=\"0\" y=\"0\" width=\"").append(WIDTH).append("\" height=\"").append(HEIGHT)
        .append("\" fill=\"#fff\" stroke=\"#ccc\"/>\n");
    text(b, "title", WIDTH / 2.0, 20, "middle", title, "font-size=\"14\" font-weight=\"bold\"");
    if (points() == 0) {
      text(b, "empty", WIDTH / 2.0, HEIGHT / 2.0, "middle", "no data", "font-size=\"13\" fill=\"#888\"");
      return b.append("</svg>\n").toString();
    }
    Axis x = xAxis();
    Axis y = yAxis();
    double x0 = LEFT;
    double x1 = WIDTH - RIGHT;
    double y0 = HEIGHT - BOTTOM;
    double y1 = TOP;
    axes(b, x, y, x0, x1, y0, y1);
    for (int k = 0; k < series.size(); k++) {
      Series s = series.get(k);
      String color = PALETTE[k % PALETTE.length];
      b.append("<g class=\"series\" data-name=\"").append(Markup.escape(s.name())).append("\" data-style=\"")
          .append(s.style().name().toLowerCase(java.util.Locale.ROOT)).append("\">\n");
      switch (s.style()) {
        case LINE -> {
          b.append("<polyline class=\"line\" fill=\"none\" stroke=\"").append(color)
              .append("\" stroke-width=\"1.5\" points=\"");
          for (int i = 0; i < s.xs().length; i++) {
            if (finite(s, i)) {
              b.append(Markup.coord(x.map(s.xs()[i], x0, x1))).append(',')
                  .append(Markup.coord(y.map(s.ys()[i], y0, y1))).append(' ');
            }
          }
          b.append("\"/>\n");
        }
        case SCATTER -> {
          for (int i = 0; i < s.xs().length; i++) {
            if (finite(s, i)) {
              b.append("<circle class=\"point\" r=\"2\" fill=\"").append(color).append("\" cx=\"")
                  .append(Markup.coord(x.map(s.xs()[i], x0, x1))).append("\" cy=\"")
                  .append(Markup.coord(y.map(s.ys()[i], y0, y1))).append("\"/>\n");
            }
          }
        }
        case BARS -> {
          double base = y.map(Math.max(y.lo(), 0), y0, y1);
          for (int i = 0; i < s.xs().length; i++) {
            if (finite(s, i)) {
              double left = x.map(s.xs()[i], x0, x1);
              double right = x.map(s.xs()[i] + s.barWidth(), x0, x1);
              double top = y.map(s.ys()[i], y0, y1);
              b.append("<rect class=\"bar\" fill=\"").append(color).append("\" x=\"").append(Markup.coord(left))
                  .append("\" y=\"").append(Markup.coord(Math.min(top, base))).append("\" width=\"")
                  .append(Markup.coord(Math.max(0.5, right - left - 0.5))).append("\" height=\"")
                  .append(Markup.coord(Math.abs(base - top))).append("\"/>\n");
            }
          }
        }
        default -> throw new IllegalStateException(s.style().name());
      }
      b.append("</g>\n");
    }
    List<String> outside = new ArrayList<>();
    for (int i = 0; i < markers.size(); i++) {
      Marker m = markers.get(i);
      if (m.x() < x.lo() || m.x() > x.hi()) {
        outside.add(m.label() + " at " + x.label(m.x()));
        continue;
      }
      double mx = x.map(m.x(), x0, x1);
      b.append("<line class=\"marker\" stroke=\"#b00020\" stroke-dasharray=\"4 3\" x1=\"").append(Markup.coord(mx))
          .append("\" x2=\"").append(Markup.coord(mx)).append("\" y1=\"").append(Markup.coord(y0))
          .append("\" y2=\"").append(Markup.coord(y1)).append("\"/>\n");
      boolean right = mx > (x0 + x1) / 2;
      text(b, "marker-label", right ? mx - 3 : mx + 3, y1 + 11 + 12 * (i % 3), right ? "end" : "start", m.label(),
          "font-size=\"10\" fill=\"#b00020\"");
    }
    if (!outside.isEmpty()) {
      text(b, "marker-outside", x1, HEIGHT - 12, "end", "beyond the axis: " + String.join(", ", outside),
          "font-size=\"10\" fill=\"#b00020\"");
    }
    legend(b, x1);
    return b.append("</svg>\n").toString();
  }

  private void axes(StringBuilder b, Axis x, Axis y, double x0, double x1, double y0, double y1) {
    b.append("<g class=\"axis x\">\n");
    line(b, "axis-line", x0, y0, x1, y0, "#333");
    for (double t : x.ticks()) {
      double px = x.map(t, x0, x1);
      line(b, "grid", px, y0, px, y1, "#eee");
      line(b, "tick-mark", px, y0, px, y0 + 4, "#333");
      text(b, "tick", px, y0 + 16, "middle", x.label(t), "font-size=\"10\"");
    }
    text(b, "axis-label", (x0 + x1) / 2, HEIGHT - 12, "middle", xLabel, "font-size=\"11\"");
    b.append("</g>\n<g class=\"axis y\">\n");
    line(b, "axis-line", x0, y0, x0, y1, "#333");
    for (double t : y.ticks()) {
      double py = y.map(t, y0, y1);
      line(b, "grid", x0, py, x1, py, "#eee");
      line(b, "tick-mark", x0 - 4, py, x0, py, "#333");
      text(b, "tick", x0 - 6, py + 3, "end", y.label(t), "font-size=\"10\"");
    }
    b.append("<text class=\"axis-label\" font-size=\"11\" text-anchor=\"middle\" transform=\"translate(14 ")
        .append(Markup.coord((y0 + y1) / 2)).append(") rotate(-90)\">").append(Markup.escape(yLabel))
        .append("</text>\n</g>\n");
  }

  private void legend(StringBuilder b, double right) {
    if (series.size() < 2 && (series.isEmpty() || series.get(0).name().isEmpty())) {
      return;
    }
    b.append("<g class=\"legend\">\n");
    double at = right;
    for (int k = series.size() - 1; k >= 0; k--) {
      String name = series.get(k).name();
      double w = 14 + 6.2 * name.length();
      at -= w + 10;
      b.append("<rect x=\"").append(Markup.coord(at)).append("\" y=\"26\" width=\"10\" height=\"10\" fill=\"")
          .append(PALETTE[k % PALETTE.length]).append("\"/>\n");
      text(b, "legend-label", at + 14, 35, "start", name, "font-size=\"10\"");
    }
    b.append("</g>\n");
  }

  static void line(StringBuilder b, String cls, double xa, double ya, double xb, double yb, String color) {
    b.append("<line class=\"").append(cls).append("\" stroke=\"").append(color).append("\" x1=\"")
        .append(Markup.coord(xa)).append("\" y1=\"").append(Markup.coord(ya)).append("\" x2=\"")
        .append(Markup.coord(xb)).append("\" y2=\"").append(Markup.coord(yb)).append("\"/>\n");
  }

  static void text(StringBuilder b, String cls, double x, double y, String anchor, String text, String extra) {
    b.append("<text class=\"").append(cls).append("\" x=\"").append(Markup.coord(x)).append("\" y=\"")
        .append(Markup.coord(y)).append("\" text-anchor=\"").append(anchor).append("\" ").append(extra).append('>')
        .append(Markup.escape(text)).append("</text>\n");
  }
}
