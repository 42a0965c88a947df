package io.rackfabric.loadtests.report.html;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A timeline as inline SVG: one row per lane (a take-over, a fail-over), each step a bar from its
 * start to its end on a shared time axis, instants as diamonds. Steps keep their label as the
 * bar's tooltip and as text when it fits. Classes: {@code svg.timeline}, {@code g.lane} with
 * {@code data-name}, {@code rect.span} with {@code data-step}, {@code path.instant}.
 */
public final class SvgTimeline {

  private static final int LEFT = 150;
  private static final int RIGHT = 24;
  private static final int TOP = 34;
  private static final int BOTTOM = 46;
  private static final int ROW = 30;

  record Span(String lane, String step, double from, double to, int color) {}

  record Instant(String lane, String label, double at) {}

  private final String id;
  private final String title;
  private final String xLabel;
  private final List<Span> spans = new ArrayList<>();
  private final List<Instant> instants = new ArrayList<>();
  private final Map<String, Integer> steps = new LinkedHashMap<>();

  public SvgTimeline(String id, String title, String xLabel) {
    this.id = id;
    this.title = title;
    this.xLabel = xLabel;
  }

  /** A step of {@code lane} from {@code from} to {@code to}; steps of one name share a colour. */
  public SvgTimeline span(String lane, String step, double from, double to) {
    if (Double.isFinite(from) && Double.isFinite(to)) {
      int color = steps.computeIfAbsent(step, s -> steps.size());
      spans.add(new Span(lane, step, Math.min(from, to), Math.max(from, to), color));
    }
    return this;
  }

  public SvgTimeline instant(String lane, String label, double at) {
    if (Double.isFinite(at)) {
      instants.add(new Instant(lane, label, at));
    }
    return this;
  }

  private List<String> lanes() {
    List<String> lanes = new ArrayList<>();
    spans.forEach(s -> {
      if (!lanes.contains(s.lane())) {
        lanes.add(s.lane());
      }
    });
    instants.forEach(i -> {
      if (!lanes.contains(i.lane())) {
        lanes.add(i.lane());
      }
    });
    return lanes;
  }

  Axis axis() {
    double min = Double.NaN;
    double max = Double.NaN;
    for (Span s : spans) {
      min = Double.isNaN(min) ? s.from() : Math.min(min, s.from());
      max = Double.isNaN(max) ? s.to() : Math.max(max, s.to());
    }
    for (Instant i : instants) {
      min = Double.isNaN(min) ? i.at() : Math.min(min, i.at());
      max = Double.isNaN(max) ? i.at() : Math.max(max, i.at());
    }
    return Axis.covering(min, max, 8);
  }

  public String render() {
    List<String> lanes = lanes();
    int width = SvgPlot.WIDTH;
    // The legend's entries, left to right, wrapping onto further lines when a line is full.
    List<double[]> legendAt = new ArrayList<>();
    double lx = 12;
    int line = 0;
    for (String step : steps.keySet()) {
      double w = 24 + 6.2 * step.length();
      if (lx + w > width - RIGHT && lx > 12) {
        lx = 12;
        line++;
      }
      legendAt.add(new double[] {lx, line});
      lx += w;
    }
    int height = TOP + BOTTOM + ROW * Math.max(1, lanes.size()) + (steps.isEmpty() ? 0 : 18 + 14 * line);
    StringBuilder b = new StringBuilder(2048);
    b.append("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"timeline\" id=\"").append(Markup.escape(id))
        .append("\" viewBox=\"0 0 ").append(width).append(' ').append(height).append("\" width=\"").append(width)
        .append("\" height=\"").append(height).append("\" role=\"img\" aria-label=\"").append(Markup.escape(title))
        .append("\">\n<title>").append(Markup.escape(title)).append("</title>\n");
    b.append("<rect class=\"frame\" x=\"0\" y=\"0\" width=\"").append(width).append("\" height=\"").append(height)
        .append("\" fill=\"#fff\" stroke=\"#ccc\"/>\n");
    SvgPlot.text(b, "title", width / 2.0, 20, "middle", title, "font-size=\"14\" font-weight=\"bold\"");
    if (lanes.isEmpty()) {
      SvgPlot.text(b, "empty", width / 2.0, height / 2.0 + 6, "middle", "no data", "font-size=\"13\" fill=\"#888\"");
      return b.append("</svg>\n").toString();
    }
    Axis x = axis();
    double x0 = LEFT;
    double x1 = width - RIGHT;
    double yBottom = TOP + ROW * lanes.size();
    b.append("<g class=\"axis x\">\n");
    SvgPlot.line(b, "axis-line", x0, yBottom, x1, yBottom, "#333");
    for (double t : x.ticks()) {
      double px = x.map(t, x0, x1);
      SvgPlot.line(b, "grid", px, TOP, px, yBottom, "#eee");
      SvgPlot.text(b, "tick", px, yBottom + 15, "middle", x.label(t), "font-size=\"10\"");
    }
    SvgPlot.text(b, "axis-label", (x0 + x1) / 2, yBottom + 32, "middle", xLabel, "font-size=\"11\"");
    b.append("</g>\n");
    for (int row = 0; row < lanes.size(); row++) {
      String lane = lanes.get(row);
      double top = TOP + row * ROW + 5;
      b.append("<g class=\"lane\" data-name=\"").append(Markup.escape(lane)).append("\">\n");
      SvgPlot.text(b, "lane-label", x0 - 6, top + 14, "end", lane, "font-size=\"11\"");
      for (Span s : spans) {
        if (!s.lane().equals(lane)) {
          continue;
        }
        double left = x.map(s.from(), x0, x1);
        double w = Math.max(1.5, x.map(s.to(), x0, x1) - left);
        b.append("<rect class=\"span\" data-step=\"").append(Markup.escape(s.step())).append("\" x=\"")
            .append(Markup.coord(left)).append("\" y=\"").append(Markup.coord(top)).append("\" width=\"")
            .append(Markup.coord(w)).append("\" height=\"20\" fill=\"")
            .append(SvgPlot.PALETTE[s.color() % SvgPlot.PALETTE.length]).append("\"><title>")
            .append(Markup.escape(s.step() + ": " + x.label(s.from()) + " to " + x.label(s.to())))
            .append("</title></rect>\n");
      }
      for (Instant i : instants) {
        if (!i.lane().equals(lane)) {
          continue;
        }
        double px = x.map(i.at(), x0, x1);
        b.append("<path class=\"instant\" fill=\"#b00020\" d=\"M").append(Markup.coord(px)).append(' ')
            .append(Markup.coord(top + 2)).append(" l6 8 l-6 8 l-6 -8 z\"><title>").append(Markup.escape(i.label()))
            .append("</title></path>\n");
      }
      b.append("</g>\n");
    }
    if (!steps.isEmpty()) {
      b.append("<g class=\"legend\">\n");
      int k = 0;
      for (Map.Entry<String, Integer> e : steps.entrySet()) {
        double at = legendAt.get(k)[0];
        double y = yBottom + 52 + 14 * legendAt.get(k)[1];
        k++;
        b.append("<rect x=\"").append(Markup.coord(at)).append("\" y=\"").append(Markup.coord(y - 9))
            .append("\" width=\"10\" height=\"10\" fill=\"")
            .append(SvgPlot.PALETTE[e.getValue() % SvgPlot.PALETTE.length]).append("\"/>\n");
        SvgPlot.text(b, "legend-label", at + 14, y, "start", e.getKey(), "font-size=\"10\"");
      }
      b.append("</g>\n");
    }
    return b.append("</svg>\n").toString();
  }
}
