package io.rackfabric.loadtests.scenario;

import static io.rackfabric.loadtests.scenario.ScenarioRunnerTest.figure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.loadtests.harness.NodeProcesses;
import io.rackfabric.loadtests.scenario.ScenarioRunner.Checked;
import io.rackfabric.loadtests.scenario.ScenarioRunner.Outcome;
import io.rackfabric.loadtests.scenario.api.RunResult.AppliedFault;
import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.loadtests.scenario.language.ScenarioLoader;
import io.rackfabric.loadtests.scenario.language.ScenarioOptions;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code rack switchover} under load: a multi-JVM run of the {@code ladon-testbed} rack (five node
 * JVMs under the model-time kernel) carries both CHs' NIC streams and control requests, with no
 * switchover step of its own; once its traffic runs, a separate process runs {@code rack switchover
 * --to bmh} against the seed the run printed, then another {@code --to mmh}. Both switch over, no
 * packet is lost, every request is applied once, the run's invariants hold, and the run records
 * each as an {@code operator-switchover} at the model time its master took it, not reproducible.
 * The operators' JVMs are killed on every path; the runner stops the rack's JVMs when it returns.
 */
@Tag("multi-jvm")
@Timeout(value = 15, unit = TimeUnit.MINUTES)
class OperatorSwitchoverUnderLoadMultiJvmTest {

  /** 3 s of model time; both CHs stream to 2.4 s and open a page every 100 ms to 2.4 s. */
  private static final String SCENARIO = """
      scenario {
        name = operator-switchover-under-load
        topology = ladon-testbed
        mode = multi-jvm
        run { duration = 3000ms, wall-limit = 12m }
        nic-stream { from = [ch1, ch2], count = 120, size = 64, interval = 20ms }
        control-requests { from = [ch1, ch2], count = 24, interval = 100ms }
        invariants = [
          no-packet-lost
          control-requests-answered
          { kind = master-is, host = mmh }
          { kind = backup-is, host = bmh }
        ]
      }
      """;
  private static final long STREAM_END_NS = 120 * 20_000_000L;
  private static final Pattern SEED = Pattern.compile("^  seed (\\S+:\\d+) \\(this driver JVM; topology (\\S+)\\)$");

  @Test
  void shouldSwitchOverThereAndBackUnderStreamsAndRequestsWhenAnOperatorAsksARunningScenario() throws Exception {
    Path runDir = Path.of("target", "multi-jvm", "operator-switchover-" + System.currentTimeMillis()).toAbsolutePath();
    Files.createDirectories(runDir);
    Scenario s = ScenarioLoader.parse(SCENARIO, "operator-switchover-under-load (test)", runDir,
        MultiJvmScenarioTest.KINDS, ScenarioOptions.NONE);
    BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    PrintStream progress = new PrintStream(new Lines(lines), true, StandardCharsets.UTF_8);
    ExecutorService runner = Executors.newSingleThreadExecutor();
    List<Process> operators = new ArrayList<>();
    Future<Outcome> run = runner.submit(() -> new ScenarioRunner(MultiJvmScenarioTest.KINDS).run(s, runDir, progress));
    try {
      Matcher seed = SEED.matcher(awaitLine(lines, run, l -> SEED.matcher(l).matches(), 4));
      assertTrue(seed.matches());
      awaitLine(lines, run, l -> l.startsWith("  traffic: "), 6);

      String there = switchover(runDir, operators, seed, s, "bmh");
      assertTrue(there.contains("switchover mmh -> bmh: "), there);
      assertTrue(there.contains("  now: mmh BACKUP, bmh MASTER\n"), there);
      String back = switchover(runDir, operators, seed, s, "mmh");
      assertTrue(back.contains("switchover bmh -> mmh: "), back);
      assertTrue(back.contains("  now: mmh MASTER, bmh BACKUP\n"), back);

      Outcome o = run.get(10, TimeUnit.MINUTES);
      for (Checked c : o.invariants()) {
        assertTrue(c.verdict().pass(), c.spec().label() + ": " + c.verdict().detail());
      }
      for (String ch : List.of("ch1", "ch2")) {
        assertEquals(120, figure(o, "nic." + ch + ".received").value(), ch);
        assertEquals(0, figure(o, "nic." + ch + ".lost").value(), ch);
        assertEquals(24, figure(o, "control." + ch + ".pages_open").value(), ch + ": each request applied once");
      }
      // The operators' switchovers, as the hosts kept them, are the run's figures and its record.
      assertTrue(figure(o, "switchover1.mmh.hand_over").value() > 0);
      assertTrue(figure(o, "switchover2.bmh.hand_over").value() > 0);
      List<AppliedFault> byOperator = o.result().faults().stream()
          .filter(f -> f.spec().kind().equals(OperatorSwitchovers.KIND)).toList();
      assertEquals(List.of("mmh", "bmh"), byOperator.stream().map(f -> f.spec().target()).toList());
      long first = byOperator.get(0).modelAt();
      long second = byOperator.get(1).modelAt();
      assertTrue(0 < first && first < second && second < STREAM_END_NS,
          "both landed while the streams ran: " + first + ", " + second);
      Map<String, Object> record = FaultRecord.of(o.result());
      assertEquals(false, record.get("reproducible"));
      assertEquals(2, ((List<?>) record.get("faults")).size());
      assertTrue(o.result().notes().stream().anyMatch(n -> n.startsWith("not reproducible: operator-switchover of mmh")),
          o.result().notes().toString());
      System.out.printf("operator switchovers at model %d ns and %d ns; %s%n%s%n", first, second,
          o.figures().stream().filter(f -> f.name().startsWith("switchover") || f.name().startsWith("control.")
              || f.name().startsWith("nic.ch"))
              .map(Object::toString).toList(), there + back);
    } finally {
      operators.forEach(Process::destroyForcibly);
      if (!run.isDone()) {
        try {
          run.get(12, TimeUnit.MINUTES); // the runner stops the rack's JVMs itself when the run ends
        } catch (Exception e) {
          System.out.println("the run ended with " + e);
        }
      }
      runner.shutdownNow();
    }
  }

  /** Runs {@code rack switchover --to TARGET} in a JVM of its own against the run's seed; its output on exit 0. */
  private static String switchover(Path runDir, List<Process> operators, Matcher seed, Scenario s, String target)
      throws Exception {
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
    cmd.addAll(NodeProcesses.JVM_OPENS);
    cmd.addAll(List.of("-Xmx256m", "-XX:+UseSerialGC", "-Dlogback.configurationFile=rack-node-logback.xml", "-cp",
        System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")),
        "io.rackfabric.cluster.cli.Rack", "switchover", "--topology", seed.group(2), "--seed", seed.group(1),
        "--transport", s.multiJvm().transport(), "--to", target, "--timeout", "3m"));
    Path out = runDir.resolve("logs").resolve("operator-to-" + target + ".out");
    Path err = runDir.resolve("logs").resolve("operator-to-" + target + ".err");
    Files.createDirectories(out.getParent());
    Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    operators.add(p);
    assertTrue(p.waitFor(4, TimeUnit.MINUTES), "rack switchover --to " + target + " did not exit within 4 minutes");
    String text = Files.readString(out).replace(System.lineSeparator(), "\n");
    assertEquals(0, p.exitValue(), text + Files.readString(err));
    return text;
  }

  /** The next progress line that matches, within {@code minutes}; fails if the run ended first. */
  private static String awaitLine(BlockingQueue<String> lines, Future<Outcome> run,
      java.util.function.Predicate<String> wanted, int minutes) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(minutes);
    while (System.nanoTime() < deadline) {
      String line = lines.poll(1, TimeUnit.SECONDS);
      if (line != null && wanted.test(line)) {
        return line;
      }
      if (line == null && run.isDone()) {
        run.get(); // throws what ended it
        throw new AssertionError("the run ended before the awaited line");
      }
    }
    throw new AssertionError("no awaited progress line within " + minutes + " minutes");
  }

  /** The runner's progress, echoed, one line at a time into a queue. */
  private static final class Lines extends OutputStream {
    private final BlockingQueue<String> lines;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream();

    Lines(BlockingQueue<String> lines) {
      this.lines = lines;
    }

    @Override
    public synchronized void write(int b) throws IOException {
      System.out.write(b);
      if (b == '\n') {
        String text = line.toString(StandardCharsets.UTF_8);
        lines.add(text.endsWith("\r") ? text.substring(0, text.length() - 1) : text);
        line.reset();
      } else {
        line.write(b);
      }
    }
  }
}
