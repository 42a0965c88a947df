package io.rackfabric.loadtests.scenario;

import io.rackfabric.cluster.cli.UsageException;
import io.rackfabric.cluster.node.ClusterSettings;
import io.rackfabric.loadtests.scenario.language.At;
import io.rackfabric.loadtests.scenario.language.Clock;
import io.rackfabric.loadtests.scenario.language.Durations;
import io.rackfabric.loadtests.scenario.language.FaultSpec;
import io.rackfabric.loadtests.scenario.language.KindCatalog;
import io.rackfabric.loadtests.scenario.language.Mode;
import io.rackfabric.loadtests.scenario.language.Param;
import io.rackfabric.loadtests.scenario.language.Params;
import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.loadtests.scenario.language.ScenarioContext;
import io.rackfabric.loadtests.scenario.language.ScenarioException;
import io.rackfabric.loadtests.scenario.language.ScenarioLoader;
import io.rackfabric.loadtests.scenario.language.ScenarioOptions;
import io.rackfabric.loadtests.report.Figure;
import io.rackfabric.loadtests.report.Json;
import io.rackfabric.loadtests.scenario.api.FaultType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * {@code rack run --replay RUN_DIR}: a recorded run again, from its folder alone. The scenario is
 * its copy there ({@link FaultRecord#SCENARIO_COPY}), loaded with the recorded mode, seed and
 * transport; its fault schedule is the record's, each applied step at the model time it entered
 * the model: a wall-time step of the original becomes a model-time step at the model time the
 * rack had reached then, and faults drawn by random-faults are taken from the record, not drawn
 * again. A folder that is not a run's, a result without a fault record, and a record of another
 * format or another build are refused with the reason ({@link UsageException}, exit 2). The path
 * is only read from: it is normalised and no part of it reaches a shell.
 */
public final class Replay {

  /** What the parser also requires of a scenario's name: it names the replay's folder. */
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]*");

  /**
   * A replay ready to run.
   *
   * @param dir the recorded run's folder, absolute and normalised
   * @param scenario the scenario with the recorded faults in place of its own
   * @param text the scenario text of the copy, to copy again into the replay's folder
   * @param recorded the recorded run's result.json
   */
  public record Loaded(Path dir, Scenario scenario, String text, Map<String, Object> recorded) {}

  private Replay() {}

  /**
   * Reads a run's folder and builds its replay.
   *
   * @throws UsageException when the folder cannot be replayed, saying why
   * @throws ScenarioException when the scenario copy no longer loads (this build reads it otherwise)
   */
  public static Loaded load(String arg, KindCatalog<FaultType, ?, ?> catalog) throws UsageException,
      ScenarioException {
    return load(arg, catalog, null);
  }

  /** @param tlsDir for a run over tls-tcp: the rack's keys folder, or null for the stores in the settings */
  public static Loaded load(String arg, KindCatalog<FaultType, ?, ?> catalog, String tlsDir) throws UsageException,
      ScenarioException {
    Path dir;
    try {
      dir = Path.of(arg).toAbsolutePath().normalize();
    } catch (InvalidPathException e) {
      throw new UsageException("--replay " + printable(arg) + ": not a usable path (" + e.getReason() + ")");
    }
    if (!Files.isDirectory(dir)) {
      throw refuse(arg, "not a directory; give the folder of a run (rack run prints it: wrote .../result.json)");
    }
    Path resultFile = dir.resolve(RunFiles.RESULT);
    if (!Files.isRegularFile(resultFile)) {
      throw refuse(arg, "no " + RunFiles.RESULT + " in it: not the folder of a finished run");
    }
    Map<String, Object> result = readJson(arg, resultFile);
    if (!(result.get(FaultRecord.KEY) instanceof Map<?, ?> raw)) {
      throw refuse(arg, RunFiles.RESULT + " has no fault record (\"" + FaultRecord.KEY + "\"): the run was recorded"
          + " before rackfabric kept one, or it ran no rack (an ftgm-campaign); it cannot be replayed");
    }
    Map<String, Object> record = strings(raw);
    Object version = record.get("record_version");
    if (!(version instanceof Number n) || n.doubleValue() != FaultRecord.VERSION) {
      throw refuse(arg, "its fault record is of record_version " + version + ", and this build replays "
          + FaultRecord.VERSION + " only");
    }
    Object built = record.get("rackfabric_version");
    if (!FaultRecord.projectVersion().equals(built)) {
      throw refuse(arg, "recorded by rackfabric " + built + ", and this is rackfabric " + FaultRecord.projectVersion()
          + ": another version may run the scenario otherwise, so its figures would not be a replay");
    }
    if (!FaultRecord.SCENARIO_COPY.equals(record.get("scenario_copy"))
        || !Files.isRegularFile(dir.resolve(FaultRecord.SCENARIO_COPY))) {
      throw refuse(arg, "no copy of the scenario (" + FaultRecord.SCENARIO_COPY + ") beside its " + RunFiles.RESULT
          + "; only runs started by rack run leave one");
    }
    boolean topologyCopy = record.get("topology_copy") != null;
    if (topologyCopy && (!FaultRecord.TOPOLOGY_COPY.equals(record.get("topology_copy"))
        || !Files.isRegularFile(dir.resolve(FaultRecord.TOPOLOGY_COPY)))) {
      throw refuse(arg, "its record names a topology copy, and there is no " + FaultRecord.TOPOLOGY_COPY + " in it");
    }
    String name = text(arg, record, "scenario");
    if (!NAME.matcher(name).matches()) {
      throw refuse(arg, "the fault record is damaged: scenario name " + printable(name) + " is not a name");
    }
    String modeText = text(arg, record, "mode");
    Mode mode = Mode.parse(modeText).orElseThrow(() -> refuse(arg, "the fault record is damaged: mode "
        + printable(modeText) + " not in {single-jvm, multi-jvm}"));
    long seed = number(arg, record, "seed", "seed").longValue();
    Object transport = record.get("transport");
    if (transport != null && !ClusterSettings.TRANSPORTS.contains(transport)) {
      throw refuse(arg, "the fault record is damaged: transport " + printable(String.valueOf(transport))
          + " not in {" + String.join(", ", ClusterSettings.TRANSPORTS) + "}");
    }

    Path copy = dir.resolve(FaultRecord.SCENARIO_COPY);
    String text;
    try {
      text = Files.readString(copy);
    } catch (IOException e) {
      throw refuse(arg, "cannot read " + FaultRecord.SCENARIO_COPY + ": " + e.getMessage());
    }
    // The copy's own topology path was relative to where the scenario was; the copy of it is here.
    // (A later key wins in HOCON; the value is this class's constant, not text from the folder.)
    String parsed = topologyCopy ? text + "\nscenario.topology = \"" + FaultRecord.TOPOLOGY_COPY + "\"\n" : text;
    Scenario base = ScenarioLoader.parse(parsed, copy.toString(), dir, catalog,
        new ScenarioOptions(mode, seed, (String) transport, Map.of(), tlsDir, settings(arg, result)));
    List<FaultSpec> faults = faults(arg, record, base, catalog);
    Scenario s = base.withFaults(faults);
    if (!s.name().equals(name)) {
      s = new Scenario(name, s.description(), s.source(), s.topology(), s.mode(), s.seed(), s.run(), s.multiJvm(),
          s.traffic(), s.faults(), s.invariants(), s.figures(), s.nicStream(), s.takeover(), s.baseline(),
          s.controlRequests(), s.ftgmCampaign(), s.reproducible(), s.wallTimeFaults(), s.settings(), s.gpuCopies(),
          s.diskReads(), s.gpuPingPongs(), s.loans(), s.guests());
    }
    return new Loaded(dir, s, text, result);
  }

  /**
   * The run's settings as result.json lists them (its scenario's block and its --set flags), to be
   * applied as --set flags are: over the copy's block, which holds the same or fewer. A result
   * written before runs had settings has none.
   */
  private static Map<String, String> settings(String arg, Map<String, Object> result) throws UsageException {
    Object raw = result.get("settings");
    if (raw == null) {
      return Map.of();
    }
    if (!(raw instanceof Map<?, ?> m)) {
      throw refuse(arg, RunFiles.RESULT + " is damaged: settings is not an object");
    }
    Map<String, String> out = new LinkedHashMap<>();
    for (Map.Entry<?, ?> e : m.entrySet()) {
      if (!(e.getValue() instanceof String v)) {
        throw refuse(arg, RunFiles.RESULT + " is damaged: settings." + printable(String.valueOf(e.getKey()))
            + " is not a string");
      }
      out.put(String.valueOf(e.getKey()), v);
    }
    return out;
  }

  /** The record's faults, each step at its recorded model time; in the record's order. */
  private static List<FaultSpec> faults(String arg, Map<String, Object> record, Scenario base,
      KindCatalog<FaultType, ?, ?> catalog) throws UsageException {
    if (!(record.get("faults") instanceof List<?> list)) {
      throw refuse(arg, "the fault record is damaged: faults is not a list");
    }
    ScenarioContext context = new ScenarioContext(base.topology().topology(), base.mode(), base.run(), base.traffic(),
        base.multiJvm());
    List<FaultSpec> out = new ArrayList<>();
    for (int i = 0; i < list.size(); i++) {
      String at = "faults[" + i + "]";
      if (!(list.get(i) instanceof Map<?, ?> m)) {
        throw refuse(arg, "the fault record is damaged: " + at + " is not an object");
      }
      Map<String, Object> f = strings(m);
      String kindName = text(arg, f, "kind");
      if (kindName.equals(OperatorSwitchovers.KIND)) {
        throw refuse(arg, "an operator switched the rack over at a wall moment (" + at + ", rack switchover, not a"
            + " step of the scenario): the run is not reproducible");
      }
      FaultType kind = catalog.fault(kindName).orElseThrow(() -> refuse(arg, "the fault record names fault kind "
          + printable(kindName) + ", which this build does not know"));
      String target = text(arg, f, "target");
      Optional<String> problem = kind.target().problem(target, context);
      if (problem.isPresent()) {
        throw refuse(arg, at + " " + kindName + ": " + problem.get());
      }
      Params params = params(arg, at, kind, f.get("params"));
      List<Long> steps = steps(arg, at, f.get("applied"));
      Map<String, Object> asked = f.get("asked") instanceof Map<?, ?> a ? strings(a) : Map.of();
      String written = asked.get("at") instanceof String w ? w : Durations.text(steps.get(0));
      boolean wasWall = !Clock.MODEL.text().equals(asked.get("clock"));
      At when = new At(Clock.MODEL, steps.get(0), wasWall
          ? "model " + Durations.text(steps.get(0)) + " (recorded for " + written + ")" : written);
      String where = f.get("where") instanceof String w ? w : base.source() + " (" + at + " of the record)";
      out.add(new FaultSpec(kindName, target, when, params, steps, where, Boolean.TRUE.equals(f.get("random"))));
    }
    return out;
  }

  /**
   * The recorded model time of each applied step, from the first; steps must come 1, 2, ... (a
   * run that ended before a step recorded the ones before it). A later step never goes before an
   * earlier one, so that a replay applies them in their order.
   */
  private static List<Long> steps(String arg, String at, Object applied) throws UsageException {
    if (!(applied instanceof List<?> list) || list.isEmpty()) {
      throw refuse(arg, "the fault record is damaged: " + at + ".applied lists no step");
    }
    List<Map<String, Object>> sorted = new ArrayList<>();
    for (Object o : list) {
      if (!(o instanceof Map<?, ?> m)) {
        throw refuse(arg, "the fault record is damaged: " + at + ".applied holds a non-object");
      }
      sorted.add(strings(m));
    }
    sorted.sort(Comparator.comparingDouble(m -> m.get("step") instanceof Number n ? n.doubleValue() : -1));
    List<Long> steps = new ArrayList<>();
    long last = 0;
    for (int i = 0; i < sorted.size(); i++) {
      Map<String, Object> s = sorted.get(i);
      if (!(s.get("step") instanceof Number n) || n.longValue() != i + 1) {
        throw refuse(arg, "the fault record is damaged: " + at + " has step " + s.get("step") + " where step "
            + (i + 1) + " belongs");
      }
      if (!(s.get("model_ns") instanceof Number t) || t.longValue() < 0) {
        throw refuse(arg, at + " step " + (i + 1) + " has no recorded model time (its rack told none when it was"
            + " applied), so there is no time to replay it at");
      }
      last = Math.max(last, t.longValue());
      steps.add(last);
    }
    return steps;
  }

  /** The recorded parameters in the types the kind declares. */
  private static Params params(String arg, String at, FaultType kind, Object raw) throws UsageException {
    Map<String, Object> given = raw instanceof Map<?, ?> m ? strings(m) : Map.of();
    Map<String, Object> values = new LinkedHashMap<>();
    Set<String> declared = new java.util.HashSet<>();
    for (Param p : kind.params()) {
      declared.add(p.name());
      Object v = given.get(p.name());
      if (v == null) {
        if (p.required()) {
          throw refuse(arg, "the fault record is damaged: " + at + " " + kind.name() + " lacks " + p.name());
        }
        continue;
      }
      Object typed = switch (p.type()) {
        case DURATION, COUNT -> v instanceof Number n ? (Object) n.longValue() : null;
        case PROBABILITY -> v instanceof Number n ? (Object) n.doubleValue() : null;
        case BOOLEAN -> v instanceof Boolean b ? b : null;
        case TEXT, ENDPOINT, ROOT_ENDPOINT -> v instanceof String s ? s : null;
        case TRAFFIC -> v instanceof List<?> l && l.stream().allMatch(x -> x instanceof String)
            ? List.copyOf(l.stream().map(String.class::cast).toList()) : null;
      };
      if (typed == null) {
        throw refuse(arg, "the fault record is damaged: " + at + ".params." + p.name() + " is not a "
            + p.type().text());
      }
      values.put(p.name(), typed);
    }
    for (String k : given.keySet()) {
      if (!declared.contains(k)) {
        throw refuse(arg, at + " " + kind.name() + " has parameter " + printable(k) + ", which this build's "
            + kind.name() + " does not take");
      }
    }
    return new Params(values);
  }

  /**
   * Figures on the model clock and counts that differ between the recorded run and its replay,
   * one line each ("name: recorded X, replayed Y"); empty when every one is the same.
   */
  public static List<String> differences(Map<String, Object> recorded, List<Figure> replayed) {
    Map<String, Object> before = new HashMap<>();
    if (recorded.get("figures") instanceof List<?> list) {
      for (Object o : list) {
        if (o instanceof Map<?, ?> m && m.get("name") instanceof String n) {
          before.put(n, m.get("value"));
        }
      }
    }
    List<String> out = new ArrayList<>();
    for (Figure f : replayed) {
      if (!f.clock().equals("model") && !f.clock().equals("count")) {
        continue;
      }
      Object was = before.get(f.name());
      if (!(was instanceof Number n) || Double.compare(n.doubleValue(), f.value()) != 0) {
        out.add(f.name() + ": recorded " + (was == null ? "none" : Figure.text(((Number) was).doubleValue()))
            + ", replayed " + Figure.text(f.value()));
      }
    }
    return out;
  }

  private static Map<String, Object> readJson(String arg, Path file) throws UsageException {
    try {
      return Json.readObject(file);
    } catch (IOException e) {
      throw refuse(arg, RunFiles.RESULT + " is not readable JSON (" + e.getMessage() + ")");
    }
  }

  private static Map<String, Object> strings(Map<?, ?> m) {
    Map<String, Object> out = new LinkedHashMap<>();
    m.forEach((k, v) -> out.put(String.valueOf(k), v));
    return out;
  }

  private static String text(String arg, Map<String, Object> m, String key) throws UsageException {
    if (!(m.get(key) instanceof String s)) {
      throw refuse(arg, "the fault record is damaged: " + key + " is missing or not text");
    }
    return s;
  }

  private static Number number(String arg, Map<String, Object> m, String key, String what) throws UsageException {
    if (!(m.get(key) instanceof Number n)) {
      throw refuse(arg, "the fault record is damaged: " + what + " is missing or not a number");
    }
    return n;
  }

  private static UsageException refuse(String arg, String why) {
    return new UsageException("--replay " + printable(arg) + ": refused: " + why);
  }

  /** Untrusted text as a message may show it: control characters escaped, at most 200 characters. */
  private static String printable(String s) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < s.length() && b.length() < 200; i++) {
      char c = s.charAt(i);
      b.append(Character.isISOControl(c) ? String.format("\\u%04x", (int) c) : String.valueOf(c));
    }
    return b.length() < s.length() ? b + "..." : b.toString();
  }
}
