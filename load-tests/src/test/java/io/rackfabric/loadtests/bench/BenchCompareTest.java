package io.rackfabric.loadtests.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.loadtests.cli.RackRun;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BenchCompareTest {

  @TempDir Path dir;

  @Test
  void shouldPrintTheRatioPerFigureWhenTwoRunsShareIt() throws Exception {
    Path a = write("a.json", """
        {"benchmark": "jmh", "date": "2026-11-21T10:00:00Z", "machine": {"cores": 2, "java": "OpenJDK 17"},
         "figures": [
           {"name": "routing.memWriteToNtbPort", "value": 10.0, "unit": "ns/op", "clock": "wall"},
           {"name": "single_jvm.fabric_hops_per_s", "value": 400000, "unit": "hops/s", "clock": "wall"},
           {"name": "credit.egressRelease", "value": 8, "unit": "ns/op", "clock": "wall"},
           {"name": "gone", "value": 1, "unit": "ns/op", "clock": "wall"}]}
        """);
    Path b = write("b.json", """
        {"benchmark": "jmh", "figures": [
           {"name": "routing.memWriteToNtbPort", "value": 25.0, "unit": "ns/op", "clock": "wall"},
           {"name": "single_jvm.fabric_hops_per_s", "value": 100000, "unit": "hops/s", "clock": "wall"},
           {"name": "credit.egressRelease", "value": 8, "unit": "us/op", "clock": "wall"},
           {"name": "new", "value": null, "unit": "ns/op", "clock": "wall"}]}
        """);

    String out = run(a, b);

    assertTrue(out.contains("A: " + a + " (jmh, 2026-11-21T10:00:00Z, 2 cores, OpenJDK 17)"), out);
    assertEquals("2.500  ns/op", column(out, "routing.memWriteToNtbPort"), out);
    assertEquals("0.250  hops/s", column(out, "single_jvm.fabric_hops_per_s"), out);
    assertTrue(line(out, "credit.egressRelease").endsWith("units differ: ns/op vs us/op"), out);
    assertTrue(line(out, "gone").contains("only in A"), out);
    assertTrue(line(out, "new").contains("only in B"), out);
  }

  @Test
  void shouldRefuseWhenAFileIsMissingOrNotAResult() throws Exception {
    Path good = write("good.json", "{\"figures\": []}");
    Path notJson = write("bad.json", "figures = [ {");
    Path noFigures = write("none.json", "{\"benchmark\": \"jmh\"}");
    Path textValue = write("text.json", "{\"figures\": [{\"name\": \"x\", \"value\": \"fast\"}]}");
    Path missing = dir.resolve("missing.json");

    assertTrue(refused(good, missing).startsWith("no result file "));
    assertTrue(refused(notJson, good).contains("is not a JSON result file"));
    assertTrue(refused(good, noFigures).contains("has no list of figures"));
    assertTrue(refused(textValue, good).startsWith(textValue + " has no list of figures with name and value:"
        + " figures[0]"));
  }

  @Test
  void shouldExitTwoNamingTheFileWhenRackBenchCompareGetsOneFileOrABadOne() throws Exception {
    RackRun rack = new RackRun();
    Path good = write("good.json", "{\"figures\": []}");
    assertEquals(2, rack.run("bench", "compare", good.toString()));
    assertEquals("rack bench compare: compare needs two result files, got [" + good + "] (rack bench compare A.json"
        + " B.json)\n", rack.err());
    assertEquals(2, rack.run("bench", "compare", good.toString(), dir.resolve("missing.json").toString()));
    assertEquals("rack bench compare: no result file " + dir.resolve("missing.json") + "\n", rack.err());
    assertEquals(0, rack.run("bench", "compare", good.toString(), good.toString()), rack.err());
    assertTrue(rack.out().startsWith("A: " + good), rack.out());
  }

  private String refused(Path a, Path b) {
    return assertThrows(BenchCompare.NotAResult.class, () -> run(a, b)).getMessage();
  }

  private Path write(String name, String text) throws Exception {
    Path p = dir.resolve(name);
    Files.writeString(p, text);
    return p;
  }

  private static String run(Path a, Path b) throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    assertEquals(0, BenchCompare.run(a, b, new PrintStream(bytes, true)));
    return bytes.toString();
  }

  private static String line(String out, String figure) {
    return out.lines().filter(l -> l.startsWith(figure + " ")).findFirst().orElseThrow(() -> new AssertionError(out));
  }

  /** The ratio and unit at the end of a figure's line. */
  private static String column(String out, String figure) {
    String l = line(out, figure).trim();
    String[] parts = l.split("\\s+");
    return parts[parts.length - 2] + "  " + parts[parts.length - 1];
  }
}
