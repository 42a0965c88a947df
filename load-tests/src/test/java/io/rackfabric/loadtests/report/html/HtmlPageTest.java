package io.rackfabric.loadtests.report.html;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.loadtests.report.html.HtmlPage.Cell;
import io.rackfabric.loadtests.report.html.HtmlPage.Row;
import java.util.List;
import org.junit.jupiter.api.Test;

class HtmlPageTest {

  @Test
  void shouldEscapeCellsAlignNumbersAndMarkFailedRowsWhenWritingATable() {
    String html = new HtmlPage("t <1>").table("tab", List.of("name", "value"), List.of(
        Row.of("<script>", "1,234.5"), new Row(List.of(Cell.of("broken"), new Cell("link", "a b/report.html")), true)))
        .render();
    assertFalse(html.contains("<script>"));
    assertTrue(html.contains("<td>&lt;script&gt;</td><td class=\"num\">1,234.5</td>"));
    assertTrue(html.contains("<tr class=\"fail\"><td>broken</td><td><a href=\"a b/report.html\">link</a></td>"));
    assertTrue(html.contains("<th>name</th><th>value</th>"));
    assertTrue(html.contains("<title>t &lt;1&gt;</title>"));
  }

  @Test
  void shouldWriteNoHeaderRowAndNoExternalResourceWhenTheTableHasNoHeaders() {
    String html = new HtmlPage("t").table("summary", List.of(), List.of(Row.of("a", "b"))).render();
    assertFalse(html.contains("<thead>"));
    assertFalse(html.contains("http://") || html.contains("https://") || html.contains("<script"),
        "a self-contained page: nothing to fetch");
    assertTrue(html.startsWith("<!DOCTYPE html>"));
  }
}
