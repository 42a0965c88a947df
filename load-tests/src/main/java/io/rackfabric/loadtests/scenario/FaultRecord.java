package io.rackfabric.loadtests.scenario;

import io.rackfabric.loadtests.scenario.language.Clock;
import io.rackfabric.loadtests.scenario.language.FaultSpec;
import io.rackfabric.loadtests.scenario.language.Mode;
import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.loadtests.scenario.language.TopologyRef;
import io.rackfabric.loadtests.scenario.api.RunResult;
import io.rackfabric.loadtests.scenario.api.RunResult.AppliedFault;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * The fault record of a run, {@code fault_record} in its {@code result.json}: what {@code rack run
 * --replay} needs to run it again. The build that wrote it, the scenario as a copy in the run's
 * folder ({@value #SCENARIO_COPY}, and {@value #TOPOLOGY_COPY} when the topology came from a file),
 * mode, seed and transport, and every fault that was applied: kind, target, parameters, how it was
 * asked (a model or a wall time, drawn by random-faults or written out) and, per step, the model
 * time it entered the model at ({@link AppliedFault#recordedModelNs}).
 */
public final class FaultRecord {

  /** The record's format; a replay refuses any other. */
  public static final int VERSION = 1;
  public static final String KEY = "fault_record";
  public static final String SCENARIO_COPY = "scenario.conf";
  public static final String TOPOLOGY_COPY = "scenario-topology.conf";

  private static final String PROJECT_VERSION = readVersion();

  private FaultRecord() {}

  /** This build's version (the pom's), or "unknown" when the build left no version file. */
  public static String projectVersion() {
    return PROJECT_VERSION;
  }

  private static String readVersion() {
    try (InputStream in = FaultRecord.class.getResourceAsStream("/rackfabric-version.properties")) {
      if (in == null) {
        return "unknown";
      }
      Properties p = new Properties();
      p.load(in);
      String v = p.getProperty("version", "unknown").trim();
      return v.isEmpty() || v.startsWith("${") ? "unknown" : v;
    } catch (IOException e) {
      return "unknown";
    }
  }

  /**
   * Copies the scenario text the run uses into its folder, and its topology file when it has one,
   * so that the folder alone replays it.
   */
  public static void saveScenario(Path runDir, String text, Scenario scenario) throws IOException {
    Files.createDirectories(runDir);
    Files.writeString(runDir.resolve(SCENARIO_COPY), text);
    TopologyRef topology = scenario.topology();
    if (topology.origin() == TopologyRef.Origin.FILE && topology.file() != null) {
      Path target = runDir.resolve(TOPOLOGY_COPY).toAbsolutePath().normalize();
      if (!topology.file().toAbsolutePath().normalize().equals(target)) {
        Files.copy(topology.file(), target, StandardCopyOption.REPLACE_EXISTING);
      }
    }
  }

  /** The record of a run; the copies are named once {@link #noteFolder} has seen them. */
  public static Map<String, Object> of(RunResult run) {
    Scenario s = run.scenario();
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("record_version", VERSION);
    m.put("rackfabric_version", PROJECT_VERSION);
    m.put("scenario", s.name());
    m.put("scenario_copy", null);
    m.put("topology_copy", null);
    m.put("mode", s.mode().text());
    m.put("seed", s.seed());
    m.put("transport", s.mode() == Mode.MULTI_JVM ? s.multiJvm().transport() : null);
    List<AppliedFault> byOperator = run.faults().stream()
        .filter(a -> a.spec().kind().equals(OperatorSwitchovers.KIND)).toList();
    // An operator's switchover landed at a wall moment: the run cannot be made again.
    m.put("reproducible", s.reproducible() && byOperator.isEmpty());
    m.put("replay_of", null);
    List<Object> faults = new ArrayList<>();
    for (int i = 0; i < s.faults().size(); i++) {
      FaultSpec f = s.faults().get(i);
      List<AppliedFault> steps = new ArrayList<>();
      for (AppliedFault a : run.faults()) {
        if (a.spec() == f) {
          steps.add(a);
        }
      }
      if (steps.isEmpty()) {
        continue; // never applied (the run ended first): nothing to replay
      }
      Map<String, Object> fm = new LinkedHashMap<>();
      fm.put("index", i);
      fm.put("kind", f.kind());
      fm.put("target", f.target());
      fm.put("params", new LinkedHashMap<>(f.params().values()));
      fm.put("random", f.random());
      fm.put("where", f.where());
      Map<String, Object> asked = new LinkedHashMap<>();
      asked.put("clock", f.at().clock().text());
      asked.put("at", f.at().written());
      asked.put("at_ns", f.at().nanos());
      asked.put("steps_ns", f.steps());
      fm.put("asked", asked);
      List<Object> applied = new ArrayList<>();
      for (AppliedFault a : steps) {
        applied.add(step(a));
      }
      fm.put("applied", applied);
      faults.add(fm);
    }
    for (AppliedFault a : byOperator) {
      Map<String, Object> fm = new LinkedHashMap<>();
      fm.put("index", null);
      fm.put("kind", OperatorSwitchovers.KIND);
      fm.put("target", a.spec().target());
      fm.put("params", Map.of());
      fm.put("random", false);
      fm.put("where", a.spec().where());
      Map<String, Object> asked = new LinkedHashMap<>();
      asked.put("clock", Clock.WALL.text());
      asked.put("at", a.spec().at().written());
      asked.put("at_ns", null);
      asked.put("steps_ns", List.of());
      fm.put("asked", asked);
      fm.put("applied", List.of(step(a)));
      faults.add(fm);
    }
    m.put("faults", faults);
    return m;
  }

  /** One applied step as the record keeps it; what is not known (negative) is null. */
  private static Map<String, Object> step(AppliedFault a) {
    Map<String, Object> am = new LinkedHashMap<>();
    am.put("step", a.step() + 1);
    long model = a.recordedModelNs();
    am.put("model_ns", model < 0 ? null : model);
    am.put("model_from", a.modelSource());
    am.put("rack_model_ns", a.rackModelNs() < 0 ? null : a.rackModelNs());
    am.put("wall_after_s", a.wallAtNanos() < 0 ? null : a.wallAtNanos() / 1e9);
    am.put("note", a.note());
    return am;
  }

  /**
   * Names in a result's record the copies that are in {@code runDir}, and the folder it replays
   * ({@code replayOf}, or null).
   */
  @SuppressWarnings("unchecked")
  public static void noteFolder(Map<String, Object> result, Path runDir, Path replayOf) {
    Object record = result.get(KEY);
    if (!(record instanceof Map<?, ?>)) {
      return;
    }
    Map<String, Object> r = (Map<String, Object>) record;
    if (runDir != null && Files.isRegularFile(runDir.resolve(SCENARIO_COPY))) {
      r.put("scenario_copy", SCENARIO_COPY);
    }
    if (runDir != null && Files.isRegularFile(runDir.resolve(TOPOLOGY_COPY))) {
      r.put("topology_copy", TOPOLOGY_COPY);
    }
    if (replayOf != null) {
      r.put("replay_of", replayOf.toString());
    }
  }
}
