package io.rackfabric.loadtests.bench.jmh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.loadtests.bench.BenchCompare;
import io.rackfabric.loadtests.cli.RackRun;
import io.rackfabric.loadtests.report.Json;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.runner.BenchmarkList;
import org.openjdk.jmh.runner.BenchmarkListEntry;

/**
 * The benchmarks work without JMH timing them: every setup (which checks that its prepared
 * traffic is decided as the benchmark claims) and every benchmark method, called directly often
 * enough that each cycles through its inputs. No speed is asserted.
 */
class JmhBenchmarksTest {

  /** More than any benchmark's cycle of inputs (64 requesters, 29 hosts). */
  private static final int CALLS = 300;

  @TempDir Path dir;

  @Test
  void shouldSetUpAndRunEveryBenchmarkWhenCalledDirectly() throws Exception {
    int methods = 0;
    for (Class<?> c : JmhBench.BENCHMARKS) {
      Object state = c.getDeclaredConstructor().newInstance();
      for (Method setup : annotated(c, Setup.class)) {
        setup.invoke(state);
      }
      for (Method benchmark : annotated(c, Benchmark.class)) {
        for (int i = 0; i < CALLS; i++) {
          Object result = benchmark.invoke(state);
          if (benchmark.getReturnType() != void.class) {
            assertNotNull(result, c.getSimpleName() + "." + benchmark.getName());
          }
        }
        methods++;
      }
    }
    assertEquals(18, methods, "benchmark methods; the table in docs/benchmarks.md lists each");
  }

  @Test
  void shouldReleaseABatchPerIngressWhenEachHasSentTheDefaultBatchSize() {
    CreditBench credit = new CreditBench();
    credit.setUp();
    long released = 0;
    int sends = LadonFixture.COMPUTE_HOSTS * 32; // rackfabric.fabric.release-batch = 32
    for (int i = 0; i < sends; i++) {
      released += credit.egressRelease();
    }
    assertEquals(sends, released, "every TLP's header credit went back, in batches");
  }

  @Test
  void shouldListEveryGeneratedBenchmarkInTheRunnerWhenCompiled() throws Exception {
    Set<String> generated = new TreeSet<>();
    try (InputStream in = getClass().getClassLoader().getResourceAsStream(BenchmarkList.BENCHMARK_LIST.substring(1))) {
      assertNotNull(in, "the JMH annotation processor wrote no " + BenchmarkList.BENCHMARK_LIST);
      for (BenchmarkListEntry e : BenchmarkList.readBenchmarkList(in)) {
        generated.add(e.getUsername());
      }
    }
    Set<String> declared = new TreeSet<>();
    for (Class<?> c : JmhBench.BENCHMARKS) {
      for (Method m : annotated(c, Benchmark.class)) {
        declared.add(c.getName() + "." + m.getName());
      }
    }
    // A benchmark class missing from JmhBench.BENCHMARKS would be compiled but never run.
    assertEquals(declared, generated);
  }

  @Test
  void shouldSelectBenchmarksByFigureNameWhenOnlyIsGiven() {
    assertEquals(List.of(NtbBench.class.getName() + ".requesterIdRepeat", NtbBench.class.getName() + ".requesterIdSpread"),
        JmhBench.select(java.util.regex.Pattern.compile("ntb\\.requesterId")));
    assertEquals(18, JmhBench.select(java.util.regex.Pattern.compile("")).size());
  }

  @Test
  void shouldNameFiguresByClassAndMethodWhenReporting() {
    assertEquals("routing.memWriteToNtbPort",
        JmhBench.figureName(RoutingBench.class.getName() + ".memWriteToNtbPort"));
    assertEquals("wireCalendar.lateIntoGap",
        JmhBench.figureName(WireCalendarBench.class.getName() + ".lateIntoGap"));
  }

  @Test
  void shouldWriteFiguresTheCompareCommandReadsWhenAnErrorIsUnknown() throws Exception {
    List<JmhBench.Measured> figures = List.of(
        new JmhBench.Measured("routing.memWriteToNtbPort", 12.5, 0.25, "ns/op", 3),
        new JmhBench.Measured("credit.egressRelease", 7.0, Double.NaN, "ns/op", 1));
    Map<String, Object> doc = JmhBench.document(figures, JmhBench.Timing.QUICK, "routing|credit", Instant.parse("2026-11-21T12:00:00Z"),
        new double[] {1.25, 2.5});
    String text = Json.write(doc);
    assertTrue(text.contains("\"error\": null"), text);
    assertTrue(text.contains("\"only\": \"routing|credit\""), text);
    Path a = dir.resolve("a.json");
    Files.writeString(a, text);

    String out = compare(a, a);
    assertTrue(out.contains("(jmh, 2026-11-21T12:00:00Z, "), out);
    assertTrue(out.contains(", load 1.3-2.5, "), out);
    assertEquals(2, out.lines().filter(l -> l.endsWith("1.000  ns/op")).count(), out);
    assertFalse(out.contains("only in"), out);
  }

  @Test
  void shouldExitTwoNamingTheValueWhenTheArgumentsCannotSelectABenchmark() {
    RackRun rack = new RackRun();
    assertEquals(2, rack.run("bench", "jmh", "--only", "rout("));
    assertTrue(rack.err().startsWith("rack bench jmh: --only=rout( is not a regular expression"), rack.err());
    assertEquals(2, rack.run("bench", "jmh", "--only", "nothing"));
    assertTrue(rack.err().startsWith("rack bench jmh: --only=nothing matches no benchmark (credit.egressRelease, "),
        rack.err());
    assertEquals(2, rack.run("bench", "jmh", "routing"));
    assertTrue(rack.err().contains("'routing'"), rack.err());
    assertEquals(2, rack.run("bench", "jmh", "--json", dir.resolve("missing/out.json").toString()));
    assertTrue(rack.err().contains("--json=" + dir.resolve("missing/out.json") + ": no directory"), rack.err());
    assertEquals("", rack.out(), "nothing ran");
  }

  private String compare(Path a, Path b) throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    assertEquals(0, BenchCompare.run(a, b, new PrintStream(bytes, true)));
    return bytes.toString();
  }

  private static List<Method> annotated(Class<?> c, Class<? extends java.lang.annotation.Annotation> a) {
    return Arrays.stream(c.getDeclaredMethods()).filter(m -> m.isAnnotationPresent(a))
        .sorted((x, y) -> x.getName().compareTo(y.getName())).collect(Collectors.toList());
  }
}
