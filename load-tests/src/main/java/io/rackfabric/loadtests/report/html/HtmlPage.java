package io.rackfabric.loadtests.report.html;

import java.util.List;

/**
 * A self-contained HTML page: inline CSS, no script, no external resource, so that a report opens
 * from a file on a machine without network access. Text is escaped here; SVG comes in as markup
 * from {@link SvgPlot} and {@link SvgTimeline}.
 */
public final class HtmlPage {

  private static final String CSS = """
      body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 24px; color: #222; max-width: 1200px; }
      h1 { font-size: 22px; margin-bottom: 4px; }
      h2 { font-size: 17px; margin-top: 28px; border-bottom: 1px solid #ddd; padding-bottom: 3px; }
      h3 { font-size: 15px; margin-top: 18px; }
      p.note { color: #555; font-size: 13px; margin: 4px 0 10px; }
      table { border-collapse: collapse; font-size: 13px; margin: 8px 0 14px; }
      th, td { border: 1px solid #ccc; padding: 3px 8px; text-align: left; vertical-align: top; }
      th { background: #f2f2f2; }
      td.num { text-align: right; font-variant-numeric: tabular-nums; }
      tr.fail td, span.fail { color: #b00020; font-weight: bold; }
      span.pass { color: #2b7a0b; font-weight: bold; }
      .side { display: flex; flex-wrap: wrap; gap: 18px; }
      .side > div { flex: 1 1 560px; min-width: 0; }
      svg { max-width: 100%; height: auto; margin: 6px 0; }
      """;

  private final StringBuilder body = new StringBuilder(8192);
  private final String title;

  public HtmlPage(String title) {
    this.title = title;
  }

  public HtmlPage h1(String text) {
    return element("h1", null, text);
  }

  public HtmlPage h2(String id, String text) {
    return element("h2", id, text);
  }

  public HtmlPage h3(String text) {
    return element("h3", null, text);
  }

  /** A short explanation under a heading. */
  public HtmlPage note(String text) {
    body.append("<p class=\"note\">").append(Markup.escape(text)).append("</p>\n");
    return this;
  }

  /** A pass or fail word, coloured. */
  public HtmlPage verdict(boolean pass, String text) {
    body.append("<p><span class=\"").append(pass ? "pass" : "fail").append("\">").append(pass ? "PASS" : "FAIL")
        .append("</span> ").append(Markup.escape(text)).append("</p>\n");
    return this;
  }

  /** A link to {@code href} (relative to the page). */
  public HtmlPage link(String href, String text) {
    body.append("<p><a href=\"").append(Markup.escape(href)).append("\">").append(Markup.escape(text))
        .append("</a></p>\n");
    return this;
  }

  /** Markup made by this package's writers (SVG, a nested block), inserted as is. */
  public HtmlPage markup(String markup) {
    body.append(markup);
    return this;
  }

  public HtmlPage open(String cls) {
    body.append("<div class=\"").append(Markup.escape(cls)).append("\">\n");
    return this;
  }

  public HtmlPage close() {
    body.append("</div>\n");
    return this;
  }

  /**
   * A table (no header row when {@code headers} is empty); cells that parse as numbers are
   * right-aligned. A row whose {@code failed} flag is
   * set is marked (class {@code fail}).
   */
  public HtmlPage table(String id, List<String> headers, List<Row> rows) {
    body.append("<table id=\"").append(Markup.escape(id)).append("\">\n");
    if (!headers.isEmpty()) {
      body.append("<thead><tr>");
      headers.forEach(h -> body.append("<th>").append(Markup.escape(h)).append("</th>"));
      body.append("</tr></thead>\n");
    }
    body.append("<tbody>\n");
    for (Row r : rows) {
      body.append(r.failed() ? "<tr class=\"fail\">" : "<tr>");
      for (Cell c : r.cells()) {
        body.append(numeric(c.text()) ? "<td class=\"num\">" : "<td>");
        if (c.href() != null) {
          body.append("<a href=\"").append(Markup.escape(c.href())).append("\">").append(Markup.escape(c.text()))
              .append("</a>");
        } else {
          body.append(Markup.escape(c.text()));
        }
        body.append("</td>");
      }
      body.append("</tr>\n");
    }
    body.append("</tbody>\n</table>\n");
    return this;
  }

  /** One table cell: text, and a link when {@code href} is not null. */
  public record Cell(String text, String href) {
    public static Cell of(String text) {
      return new Cell(text == null ? "" : text, null);
    }
  }

  /** One table row. */
  public record Row(List<Cell> cells, boolean failed) {
    public Row {
      cells = List.copyOf(cells);
    }

    public static Row of(String... texts) {
      return new Row(java.util.Arrays.stream(texts).map(Cell::of).toList(), false);
    }
  }

  private static boolean numeric(String s) {
    return s.matches("-?[0-9][0-9,]*(\\.[0-9]+)?");
  }

  private HtmlPage element(String tag, String id, String text) {
    body.append('<').append(tag);
    if (id != null) {
      body.append(" id=\"").append(Markup.escape(id)).append('"');
    }
    body.append('>').append(Markup.escape(text)).append("</").append(tag).append(">\n");
    return this;
  }

  public String render() {
    return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" + Markup.escape(title)
        + "</title>\n<style>\n" + CSS + "</style>\n</head>\n<body>\n" + body + "</body>\n</html>\n";
  }
}
