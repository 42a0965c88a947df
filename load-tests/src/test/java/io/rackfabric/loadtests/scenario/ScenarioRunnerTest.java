package io.rackfabric.loadtests.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.cluster.cli.Rack;
import io.rackfabric.loadtests.scenario.language.KindCatalog;
import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.loadtests.scenario.language.ScenarioLoader;
import io.rackfabric.loadtests.scenario.language.ScenarioOptions;
import io.rackfabric.fabric.stats.EndpointStats;
import io.rackfabric.loadtests.report.Figure;
import io.rackfabric.loadtests.scenario.ScenarioRunner.Checked;
import io.rackfabric.loadtests.scenario.ScenarioRunner.Outcome;
import io.rackfabric.loadtests.scenario.api.FaultType;
import io.rackfabric.loadtests.scenario.api.FigureType;
import io.rackfabric.loadtests.scenario.api.InvariantType;
import io.rackfabric.loadtests.scenario.api.RunningRack;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Scenarios run end to end in this JVM: the rack starts, traffic runs, faults happen at their
 * model times, and the result holds what the fabric's own counters and AER records say.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class ScenarioRunnerTest {

  static final KindCatalog<FaultType, InvariantType, FigureType> KINDS = ScenarioKinds.standard();

  @TempDir Path dir;

  /** Joins the rack before traffic and checks it can reach a component through it. */
  static final class Probe implements RackAttachment {
    boolean attached;
    boolean detached;
    long writesBeforeTraffic = -1;

    @Override
    public void attach(RunningRack rack) throws Exception {
      attached = true;
      EndpointStats mem = rack.endpointStats("mem");
      writesBeforeTraffic = mem.writesReceived();
    }

    @Override
    public void detach(RunningRack rack) {
      detached = true;
    }
  }

  @Test
  void shouldHoldEveryInvariantAndReportWhatWasLostWhenTheDemoNtbLinkGoesDownMidRun() throws Exception {
    Scenario s = ScenarioLoader.loadBundled("link-down-demo", KINDS, ScenarioOptions.NONE);
    Probe probe = new Probe();
    Outcome o = new ScenarioRunner(KINDS, List.of(probe)).run(s, dir, quiet());

    for (Checked c : o.invariants()) {
      assertTrue(c.verdict().pass(), c.spec().label() + ": " + c.verdict().detail());
    }
    assertEquals(7, o.invariants().size());
    assertTrue(o.passed());
    assertTrue(probe.attached && probe.detached);
    assertEquals(0, probe.writesBeforeTraffic, "attachments join before the first request");

    // ch1 stamps one write every 100ns for 100us; the link fails at 50us. Lost: the 500 stamped at
    // or after it, and those still on their way to the failing link then, no more than its one-way
    // latency covers.
    assertEquals(1000, figure(o, "traffic.ch1-to-ch2.sent").value());
    double delivered = figure(o, "sink.ch2.delivered").value();
    double inFlight = Math.ceil(figure(o, "sink.ch2.latency_max").value() / 100.0);
    assertTrue(delivered < 500 && delivered >= 500 - inFlight, delivered + " delivered, " + inFlight + " in flight");
    assertEquals(1000 - delivered, figure(o, "sink.ch2.lost").value());
    assertEquals(500, figure(o, "sink.mem.delivered").value());
    assertEquals(0, figure(o, "sink.mem.lost").value());
    assertEquals(1000 - delivered, figure(o, "failed_ends.dropped").value(), "every lost write counted at the failed link");
    Figure detection = figure(o, "fault1.link-down.tor.ntb2.aer_detection.mh");
    assertEquals("model", detection.clock());
    assertEquals("ns", detection.unit());
    assertTrue(detection.value() > 0 && detection.value() <= 5000, "AER at mh " + detection.value() + " ns after");
    Figure latency = figure(o, "sink.ch2.latency_p50");
    assertEquals("model", latency.clock());
    assertTrue(latency.value() > 0);
    assertEquals("wall", figure(o, "run_time").clock());

    Map<String, Object> json = ResultJson.of(o);
    assertEquals("link-down-demo", json.get("scenario"));
    assertEquals("single-jvm", json.get("mode"));
    assertEquals(1L, json.get("seed"));
    assertEquals(true, json.get("passed"));
    assertEquals("demo", ((Map<?, ?>) json.get("topology")).get("name"));
    Map<?, ?> applied = (Map<?, ?>) ((List<?>) json.get("faults_applied")).get(0);
    assertEquals("link-down", applied.get("kind"));
    assertEquals(50_000L, applied.get("model_ns"));
    assertEquals("model", applied.get("clock"));
    for (Object f : (List<?>) json.get("figures")) {
      Map<?, ?> fm = (Map<?, ?>) f;
      assertTrue(Set.of("model", "wall", "count").contains(fm.get("clock")), fm.toString());
      assertTrue(fm.get("unit") != null && fm.get("value") != null, fm.toString());
    }
    for (Object i : (List<?>) json.get("invariants")) {
      assertEquals(true, ((Map<?, ?>) i).get("pass"), i.toString());
    }
    Map<?, ?> params = (Map<?, ?>) json.get("parameters");
    assertEquals(2, ((List<?>) params.get("traffic")).size());
    assertTrue(((Map<?, ?>) params.get("fabric")).containsKey("ntb-latency"));
  }

  @Test
  void shouldDropOnlyWhileTheCableIsDownWhenALadonLinkFlaps() throws Exception {
    Scenario s = ScenarioLoader.loadBundled("link-flap-ladon", KINDS, ScenarioOptions.NONE);
    Outcome o = new ScenarioRunner(KINDS).run(s, dir, quiet());
    for (Checked c : o.invariants()) {
      assertTrue(c.verdict().pass(), c.spec().label() + ": " + c.verdict().detail());
    }
    assertEquals(4, o.result().faults().size(), "two downs and two ups");
    // 100ns apart, down for 10us twice: 200 of ch1's 600 writes are stamped while the cable is
    // down. Those on their way to it when it fails are lost too, and those stamped after the
    // fail-over moved ch2 to the secondary plane arrive: each fault moves the count by at most the
    // writes in flight, either way.
    assertEquals(600, figure(o, "traffic.ch1-to-ch2.sent").value());
    double delivered = figure(o, "sink.ch2.delivered").value();
    double inFlight = Math.ceil(figure(o, "sink.ch2.latency_max").value() / 100.0);
    assertEquals(600, delivered + figure(o, "sink.ch2.lost").value(), "every write delivered or lost");
    assertTrue(Math.abs(delivered - 400) <= 2 * inFlight, delivered + " delivered, " + inFlight + " in flight");
    assertEquals(2, figure(o, "aer.mmh.records").value());
    // The fail-over of the first down ran across the hold at the second (every CH acknowledged:
    // the invariant), and the second down needed no round of its own.
    assertTrue(figure(o, "fault1.link-flap.nt-pri.ch2.failover.ch2.total").value() > 0);
    assertTrue(o.figures().stream().noneMatch(f -> f.name().startsWith("fault3.") && f.name().contains(".failover.")));
  }

  @Test
  void shouldReportAerAtTheRootWhenAnEndpointActorIsStopped() throws Exception {
    Path file = dir.resolve("stop.conf");
    Files.writeString(file, String.join("\n",
        "scenario {",
        "  topology = demo",
        "  run { duration = 40us }",
        "  traffic = [ { from = mh, to = mem, interval = 100ns } ]",
        "  faults = [ { kind = stop-actor, target = mem, at = 20us } ]",
        "  invariants = [",
        "    { kind = aer-reported-at, root = mh, within = 5us }",
        "    no-loss-before-fault",
        "    no-loss-except-on-failed-link",
        "  ]",
        "}"));
    Scenario s = ScenarioLoader.load(file, KINDS, ScenarioOptions.NONE);
    Outcome o = new ScenarioRunner(KINDS).run(s, dir.resolve("run"), quiet());
    for (Checked c : o.invariants()) {
      assertTrue(c.verdict().pass(), c.spec().label() + ": " + c.verdict().detail());
    }
    assertEquals(Set.of("mem"), o.result().failedComponents());
    assertTrue(o.result().faultedEnds().contains("leaf.to-mem"));
    assertFalse(o.result().endpointsAtEnd().containsKey("mem"), "a stopped actor answers nothing");
  }

  @Test
  void shouldExitOneAndWriteTheFailedInvariantWhenWritesAreLost() throws Exception {
    Path file = dir.resolve("lossy.conf");
    Files.writeString(file, String.join("\n",
        "scenario {",
        "  topology = demo",
        "  traffic = [ { name = x, from = ch1, to = ch2, interval = 100ns, count = 200 } ]",
        "  faults = [ { kind = link-down, target = ch2, at = 10us } ]",
        "  invariants = [ every-write-delivered-once, in-order ]",
        "}"));
    Path json = dir.resolve("out/result.json");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int status = Rack.run(List.of("run", file.toString(), "--json", json.toString(), "--run-dir",
        dir.resolve("run").toString()), new PrintStream(out, true, StandardCharsets.UTF_8), quiet());
    String printed = out.toString(StandardCharsets.UTF_8);
    assertEquals(1, status, printed);
    // 100 are stamped at or after the fault, and those on their way to ch2's link then are lost too.
    Matcher delivered = Pattern.compile("FAIL  every-write-delivered-once: ch2: (\\d+) of 200 sent delivered")
        .matcher(printed);
    assertTrue(delivered.find(), printed);
    int d = Integer.parseInt(delivered.group(1));
    assertTrue(d < 100 && d >= 80, printed);
    assertTrue(printed.contains("pass  in-order"), printed);
    String written = Files.readString(json);
    assertTrue(written.contains("\"passed\": false"), written);
    assertTrue(written.contains("\"pass\": false"), written);
  }

  @Test
  void shouldExitTwoNamingFileAndLineWhenTheScenarioIsBad() throws Exception {
    Path file = dir.resolve("bad.conf");
    Files.writeString(file, String.join("\n",
        "scenario {",
        "  topology = demo",
        "  faults = [ { kind = link-down, target = tor.nope, at = \"wall 1s\" } ]",
        "}"));
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status = Rack.run(List.of("run", file.toString()), quiet(), new PrintStream(err, true, StandardCharsets.UTF_8));
    assertEquals(2, status);
    assertTrue(err.toString(StandardCharsets.UTF_8).startsWith(file + ":3: scenario.faults[0].target: no link end 'tor.nope'"),
        err.toString(StandardCharsets.UTF_8));
  }

  static Figure figure(Outcome o, String name) {
    return o.figures().stream().filter(f -> f.name().equals(name)).findFirst()
        .orElseThrow(() -> new AssertionError("no figure " + name + " in " + o.figures().stream().map(Figure::name).toList()));
  }

  static PrintStream quiet() {
    return new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
  }
}
