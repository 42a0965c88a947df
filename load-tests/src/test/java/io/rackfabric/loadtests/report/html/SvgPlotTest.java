package io.rackfabric.loadtests.report.html;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

class SvgPlotTest {

  /** Parses the markup as XML: fails on anything not well-formed (an unescaped '<' or '&'). */
  static Document parse(String svg) throws Exception {
    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    f.setNamespaceAware(true);
    return f.newDocumentBuilder().parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
  }

  static List<Element> elements(Document d, String tag, String cls) {
    NodeList nodes = d.getElementsByTagName(tag);
    java.util.ArrayList<Element> out = new java.util.ArrayList<>();
    for (int i = 0; i < nodes.getLength(); i++) {
      Element e = (Element) nodes.item(i);
      if (cls == null || List.of(e.getAttribute("class").split(" ")).contains(cls)) {
        out.add(e);
      }
    }
    return out;
  }

  @Test
  void shouldWidenTheAxisToRoundTicksCoveringTheDataWhenTheRangeIsArbitrary() {
    Axis a = Axis.covering(3, 97, 8);
    assertEquals(0, a.lo());
    assertEquals(100, a.hi());
    assertEquals(20, a.step());
    assertEquals(List.of(0.0, 20.0, 40.0, 60.0, 80.0, 100.0), a.ticks());
    assertEquals(0, a.decimals());
  }

  @Test
  void shouldPickStepsOfOneTwoOrFiveAndEnoughDecimalsWhenValuesAreSmall() {
    assertEquals(0.5, Axis.niceStep(0.3), 1e-12);
    assertEquals(10, Axis.niceStep(7), 1e-12);
    assertEquals(1, Axis.niceStep(1), 1e-12);
    assertEquals(0.02, Axis.niceStep(0.012), 1e-12);
    Axis a = Axis.covering(0.011, 0.093, 5);
    assertEquals(2, a.decimals());
    assertEquals("0.02", a.label(0.02));
    assertTrue(a.lo() <= 0.011 && a.hi() >= 0.093);
  }

  @Test
  void shouldGiveANonEmptyAxisWhenAllValuesAreEqualOrThereAreNone() {
    Axis one = Axis.covering(5, 5, 5);
    assertTrue(one.lo() < 5 && one.hi() > 5, one.toString());
    assertTrue(one.lo() >= 0, "a positive value keeps a positive axis: " + one);
    Axis zero = Axis.covering(0, 0, 5);
    assertEquals(0, zero.lo());
    assertEquals(1, zero.hi());
    Axis none = Axis.covering(Double.NaN, Double.NaN, 5);
    assertTrue(none.hi() > none.lo());
  }

  @Test
  void shouldPlaceTheDataExtremesOnTheAxisEndsWhenTheyAreTicks() throws Exception {
    String svg = new SvgPlot("p", "t", "x", "y").scatter("s", new double[] {0, 100}, new double[] {0, 50}).render();
    List<Element> points = elements(parse(svg), "circle", "point");
    assertEquals(2, points.size());
    assertEquals("78", points.get(0).getAttribute("cx"), "x = 0 at the left edge of the plot area");
    assertEquals("740", points.get(1).getAttribute("cx"), "x = 100 at the right edge (760 - 20)");
    assertEquals("268", points.get(0).getAttribute("cy"), "y = 0 at the bottom (320 - 52)");
    assertEquals(60, new SvgPlot("p", "t", "x", "y").scatter("s", new double[] {0, 100}, new double[] {0, 50})
        .yAxis().hi(), 1e-9, "50 plus 5% headroom rounds up to the next tick");
    assertEquals("78", points.get(1).getAttribute("cy"), "y = 50 at 5/6 of the height: 268 - 228 x 5/6");
  }

  @Test
  void shouldEscapeTitlesLabelsAndSeriesNamesWhenTheyHoldMarkup() throws Exception {
    String svg = new SvgPlot("id\"x", "a <b> & \"c\"", "x < 1", "y & z").line("s<1>", new double[] {1, 2},
        new double[] {3, 4}).render();
    assertFalse(svg.contains("<b>"));
    assertTrue(svg.contains("a &lt;b&gt; &amp; &quot;c&quot;"));
    Document d = parse(svg);
    assertEquals("id\"x", d.getDocumentElement().getAttribute("id"));
    assertEquals("s<1>", elements(d, "g", "series").get(0).getAttribute("data-name"));
    assertEquals(1, elements(d, "polyline", "line").size());
  }

  @Test
  void shouldSayNoDataAndDrawNoAxisWhenEverySeriesIsEmptyOrNotFinite() throws Exception {
    SvgPlot plot = new SvgPlot("e", "empty", "x", "y").line("none", new double[0], new double[0])
        .scatter("nan", new double[] {Double.NaN, 1}, new double[] {1, Double.POSITIVE_INFINITY});
    assertEquals(0, plot.points());
    Document d = parse(plot.render());
    assertEquals(1, elements(d, "text", "empty").size());
    assertEquals(0, elements(d, "text", "tick").size());
    assertEquals(0, elements(d, "polyline", null).size());
  }

  @Test
  void shouldLeaveOutPointsThatAreNotFiniteAndKeepTheRest() throws Exception {
    SvgPlot plot = new SvgPlot("n", "t", "x", "y").scatter("s", new double[] {1, Double.NaN, 3},
        new double[] {1, 2, 3});
    assertEquals(2, plot.points());
    assertEquals(2, elements(parse(plot.render()), "circle", "point").size());
  }

  @Test
  void shouldStretchTheXAxisOverBarEdgesButNameMarkersOutsideItWhenTheyLieBeyondTheData() throws Exception {
    SvgPlot plot = new SvgPlot("m", "t", "x", "y").bars("b", new double[] {10, 20}, new double[] {1, 2}, 10)
        .marker(-5, "fault").marker(15, "inside");
    Axis x = plot.xAxis();
    assertTrue(x.lo() <= 10 && x.hi() >= 30 && x.lo() > -5, x.toString());
    assertEquals(0, plot.yAxis().lo(), "bars start at 0");
    Document d = parse(plot.render());
    assertEquals(1, elements(d, "line", "marker").size());
    assertEquals("beyond the axis: fault at -5", elements(d, "text", "marker-outside").get(0).getTextContent());
  }

  @Test
  void shouldRefuseASeriesWhenItsXAndYCountsDiffer() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new SvgPlot("x", "t", "x", "y").line("s", new double[] {1, 2}, new double[] {1}));
    assertTrue(e.getMessage().contains("xs=2") && e.getMessage().contains("ys=1"), e.getMessage());
    assertThrows(IllegalArgumentException.class,
        () -> new SvgPlot("x", "t", "x", "y").bars("b", new double[] {1}, new double[] {1}, 0));
  }

  @Test
  void shouldDrawOneBarPerValueAndAMarkerLineWhenGivenBarsAndAMarker() throws Exception {
    Document d = parse(new SvgPlot("b", "t", "x", "y").bars("b", new double[] {0, 1, 2}, new double[] {3, 0, 5}, 1)
        .marker(1.5, "take-over").render());
    assertEquals(3, elements(d, "rect", "bar").size());
    assertEquals(1, elements(d, "line", "marker").size());
    assertEquals("take-over", elements(d, "text", "marker-label").get(0).getTextContent());
  }

  @Test
  void shouldDrawALanePerNameAndASpanPerStepWhenGivenATimeline() throws Exception {
    SvgTimeline t = new SvgTimeline("tl", "take-over <1>", "model time (s)")
        .span("take-over 1", "detection", 0, 0.25).span("take-over 1", "reboot", 0.251, 38.35)
        .span("data plane", "down", 0, 0).instant("take-over 1", "fault", 0);
    Document d = parse(t.render());
    assertEquals(2, elements(d, "g", "lane").size());
    assertEquals(3, elements(d, "rect", "span").size());
    assertEquals(1, elements(d, "path", "instant").size());
    assertTrue(t.axis().hi() >= 38.35);
    Document empty = parse(new SvgTimeline("e", "none", "x").render());
    assertEquals(1, elements(empty, "text", "empty").size());
  }

  @Test
  void shouldShowMinusZeroAsZeroAndGroupThousandsWhenFormattingNumbers() {
    assertEquals("0", Markup.number(-0.0, 0));
    assertEquals("0.00", Markup.number(-0.001, 2));
    assertEquals("12,345.5", Markup.number(12345.5, 1));
    assertEquals("a&amp;b&lt;&gt;&quot;&#39;", Markup.escape("a&b<>\"'\u0001"));
  }
}
