package io.rackfabric.loadtests.scenario;

import io.rackfabric.loadtests.scenario.language.Durations;
import io.rackfabric.loadtests.scenario.language.FaultSpec;
import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.loadtests.scenario.language.ScenarioSettings;
import io.rackfabric.loadtests.scenario.language.TrafficSpec;
import io.rackfabric.fabric.address.Addresses;
import io.rackfabric.loadtests.report.Figure;
import io.rackfabric.loadtests.report.Machine;
import io.rackfabric.loadtests.scenario.ScenarioRunner.Checked;
import io.rackfabric.loadtests.scenario.ScenarioRunner.Outcome;
import io.rackfabric.loadtests.scenario.api.RunResult;
import io.rackfabric.loadtests.scenario.api.RunResult.AppliedFault;
import io.rackfabric.loadtests.scenario.ftgm.FtgmCampaignJson;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The JSON result of a scenario run: the scenario's parameters and seed, the topology and mode,
 * every fault step applied with its times, every figure with its unit and clock, every invariant
 * with pass or fail and what was seen, and the {@link FaultRecord} a replay runs from. Written with {@link io.rackfabric.loadtests.report.Json}.
 */
public final class ResultJson {

  private ResultJson() {}

  public static Map<String, Object> of(Outcome outcome) {
    RunResult run = outcome.result();
    Scenario s = run.scenario();
    Map<String, Object> m = header(s);
    m.put("passed", outcome.passed());
    m.put("finished", run.finished());
    m.put("interrupted", false);
    m.put("parameters", parameters(s));
    List<Object> faults = new ArrayList<>();
    for (AppliedFault f : run.faults()) {
      Map<String, Object> fm = new LinkedHashMap<>();
      fm.put("fault", f.spec().label());
      fm.put("kind", f.spec().kind());
      fm.put("target", f.spec().target());
      fm.put("step", f.step() + 1);
      fm.put("steps", f.spec().steps().size());
      fm.put("clock", f.spec().at().clock().text());
      fm.put("scheduled_ns", f.spec().steps().get(f.step()));
      fm.put("model_ns", f.modelAt() < 0 ? null : f.modelAt());
      fm.put("entered_model_ns", f.recordedModelNs() < 0 ? null : f.recordedModelNs());
      fm.put("entered_model_from", f.modelSource());
      fm.put("applied_after_wall_s", f.wallAtNanos() < 0 ? null : f.wallAtNanos() / 1e9);
      fm.put("note", f.note());
      faults.add(fm);
    }
    m.put("faults_applied", faults);
    if (!s.inProcess()) {
      m.put(FaultRecord.KEY, FaultRecord.of(run));
    }
    m.put("figures", outcome.figures().stream().map(Figure::toMap).toList());
    List<Object> invariants = new ArrayList<>();
    for (Checked c : outcome.invariants()) {
      Map<String, Object> im = new LinkedHashMap<>();
      im.put("name", c.spec().label());
      im.put("kind", c.spec().kind());
      im.put("pass", c.verdict().pass());
      im.put("detail", c.verdict().detail());
      im.put("where", c.spec().where());
      invariants.add(im);
    }
    m.put("invariants", invariants);
    if (!run.loans().isEmpty()) {
      m.put("loans", loans(run));
    }
    if (run.ftgm() != null) {
      m.put("ftgm_campaign", FtgmCampaignJson.of(run.ftgm()));
    }
    m.put("notes", run.notes());
    m.put("machine", Machine.describe());
    return m;
  }

  /** Each loans step and the controller's answer: what {@code rack replay} shows as events. */
  private static List<Object> loans(RunResult run) {
    List<Object> out = new ArrayList<>();
    for (var r : run.loans()) {
      Map<String, Object> lm = new LinkedHashMap<>();
      lm.put("step", r.step().kind().key());
      lm.put("device", r.step().device());
      lm.put("by", r.step().host());
      lm.put("issued_ns_model", r.issuedAt());
      lm.put("expected", r.step().expectAccepted() ? "accepted" : "rejected");
      lm.put("status", r.status() == null ? null : r.status().name().toLowerCase(Locale.ROOT));
      lm.put("answered_ns_model", r.answeredAt() < 0 ? null : r.answeredAt());
      lm.put("detail", r.detail());
      lm.put("events", r.events());
      out.add(lm);
    }
    return out;
  }

  /**
   * The result of a run stopped by an interruption (Ctrl-C, SIGTERM) before its end: no verdict
   * ({@code passed} null), {@code finished} false, {@code interrupted} true, the model time the rack
   * was known to have reached (null when not known) and what was measured so far; no figures and
   * no invariants, which are computed only at a run's end.
   */
  public static Map<String, Object> interrupted(Scenario s, RunProgress progress) {
    Map<String, Object> m = header(s);
    m.put("passed", null);
    m.put("finished", false);
    m.put("interrupted", true);
    long reached = progress.modelReachedNs();
    m.put("model_reached_ns", reached < 0 ? null : reached);
    m.put("parameters", parameters(s));
    m.put("measured_so_far", progress.measured());
    m.put("figures", List.of());
    m.put("invariants", List.of());
    m.put("machine", Machine.describe());
    return m;
  }

  private static Map<String, Object> header(Scenario s) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("scenario", s.name());
    if (s.description() != null) {
      m.put("description", s.description());
    }
    m.put("source", s.source());
    Map<String, Object> topology = new LinkedHashMap<>();
    topology.put("name", s.topology().topology().name());
    topology.put("from", s.topology().written());
    topology.put("origin", s.topology().origin().name().toLowerCase(Locale.ROOT));
    m.put("topology", topology);
    m.put("mode", s.inProcess() ? "in-process" : s.mode().text());
    m.put("seed", s.seed());
    m.put("settings", s.settings());
    return m;
  }

  /** Config maps come unordered; a result file should read the same from run to run. */
  private static Object sorted(Object v) {
    if (v instanceof Map<?, ?> m) {
      Map<String, Object> out = new java.util.TreeMap<>();
      m.forEach((k, x) -> out.put(String.valueOf(k), sorted(x)));
      return out;
    }
    return v;
  }

  private static Map<String, Object> parameters(Scenario s) {
    Map<String, Object> p = new LinkedHashMap<>();
    Map<String, Object> run = new LinkedHashMap<>();
    run.put("duration_ns_model", s.run().hasDuration() ? s.run().durationNs() : null);
    run.put("model_end_ns", s.run().modelEndNs());
    run.put("wall_limit_s", s.run().wallLimitNs() / 1e9);
    run.put("settle_s", s.run().settleNs() / 1e9);
    run.put("reproducible", s.reproducible());
    p.put("run", run);
    if (s.mode() == io.rackfabric.loadtests.scenario.language.Mode.MULTI_JVM) {
      Map<String, Object> multi = new LinkedHashMap<>();
      multi.put("transport", s.multiJvm().transport());
      multi.put("media_driver", s.multiJvm().sharedMediaDriver() ? "shared" : "embedded");
      p.put("multi_jvm", multi);
    }
    List<Object> traffic = new ArrayList<>();
    for (TrafficSpec t : s.traffic()) {
      Map<String, Object> tm = new LinkedHashMap<>();
      tm.put("name", t.name());
      tm.put("from", t.from());
      tm.put("to", t.to());
      tm.put("op", t.op().text());
      tm.put("address", Addresses.hex(t.address()));
      tm.put("sink", t.sink());
      tm.put("sink_address", Addresses.hex(t.sinkAddress()));
      tm.put("size_bytes", t.size());
      tm.put("interval_ns_model", t.intervalNs());
      tm.put("count", t.count());
      tm.put("start_ns_model", t.startNs());
      tm.put("payload", t.payload());
      tm.put("path", t.path());
      traffic.add(tm);
    }
    p.put("traffic", traffic);
    List<Object> faults = new ArrayList<>();
    for (FaultSpec f : s.faults()) {
      Map<String, Object> fm = new LinkedHashMap<>();
      fm.put("kind", f.kind());
      fm.put("target", f.target());
      fm.put("at", f.at().written());
      fm.put("clock", f.at().clock().text());
      fm.put("at_ns", f.at().nanos());
      fm.put("steps_ns", f.steps());
      fm.put("random", f.random());
      f.params().values().forEach((k, v) -> fm.put(k, v instanceof Long l && k.equals("period") ? Durations.text(l) : v));
      faults.add(fm);
    }
    p.put("faults", faults);
    p.put("invariants", s.invariants().stream().map(i -> i.label()).toList());
    p.put("figures", s.figures());
    // The data plane's own parameters as the run's JVMs read them: latencies, buffers, timers.
    p.put("fabric", sorted(ScenarioSettings.config(s.configOverrides()).getConfig("rackfabric.fabric").root().unwrapped()));
    return p;
  }
}
