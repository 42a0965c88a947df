package io.rackfabric.loadtests.scenario.language;

import io.rackfabric.cluster.topology.Fields;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A scenario's {@code faults = [{ kind, target, at, ...params }]}: each fault's kind from the
 * catalog, its target and parameters checked against the topology, its time (model or wall, or a
 * range the seed picks from) inside the run, and the kind's own check. A wall-time fault is also
 * noted for {@code --check}: it makes the run irreproducible.
 */
final class FaultSection {

  /** {@code [wall|model] TIME [.. TIME]}. */
  static final Pattern AT = Pattern.compile("\\s*(?:(wall|model)\\s+)?(.+?)\\s*(?:\\.\\.\\s*(.+?)\\s*)?");

  private final ScenarioFile file;
  private final KindParams kindParams;

  FaultSection(ScenarioFile file, KindParams kindParams) {
    this.file = file;
    this.kindParams = kindParams;
  }

  /** One item of {@code faults}: null after a problem (reported). */
  FaultSpec fault(Fields f, ScenarioContext context, RunLength run, Mode mode) {
    String kindName = f.string("kind", true);
    if (kindName == null) {
      return null;
    }
    Optional<? extends FaultKind> found = file.catalog.fault(kindName);
    if (found.isEmpty()) {
      f.error("kind", "unknown fault kind '" + kindName + "'" + ScenarioFile.suggestion(kindName,
          file.catalog.faults().stream().map(ScenarioKind::name).toList()));
      return null;
    }
    FaultKind kind = found.get();
    List<String> allowed = new ArrayList<>(List.of("kind", "target", "at"));
    kind.params().forEach(p -> allowed.add(p.name()));
    f.allowOnly(allowed.toArray(String[]::new));
    String target = f.string("target", true);
    At at = at(f);
    Params params = kindParams.params(f, kind.params(), context);
    boolean ok = target != null && at != null && params != null;
    if (kind.needsMultiJvm() && mode == Mode.SINGLE_JVM) {
      f.error("kind", kindName + " needs a multi-jvm run, and this one is single-jvm (mode = multi-jvm, or"
          + " rack run --mode multi-jvm)");
      ok = false;
    }
    if (target != null && context != null) {
      Optional<String> problem = kind.target().problem(target, context);
      if (problem.isPresent()) {
        f.error("target", problem.get() + "; " + kindName + " takes " + kind.target().description());
        ok = false;
      }
    }
    if (!ok || context == null) {
      return null;
    }
    List<Long> steps = kind.steps(at, params);
    if (!withinRun(f, kindName, at, steps, run)) {
      return null;
    }
    FaultSpec spec = new FaultSpec(kindName, target, at, params, steps, file.where(f));
    int before = file.problems.size();
    kind.check(spec, context, f::error);
    if (file.problems.size() != before) {
      return null;
    }
    if (!at.isModel()) {
      wallTimeFault(f, kind, spec, context);
    }
    return spec;
  }

  /**
   * Notes a fault on the wall clock for {@code --check}: when it happens in model time depends on
   * how fast this machine runs the rack. The advice depends on whether the kind takes a model time
   * (its own check is asked about the same fault at the same number on the model clock).
   */
  private void wallTimeFault(Fields f, FaultKind kind, FaultSpec spec, ScenarioContext context) {
    long t = spec.at().nanos();
    At model = new At(Clock.MODEL, t, Durations.text(t));
    FaultSpec probe = new FaultSpec(spec.kind(), spec.target(), model, spec.params(), kind.steps(model, spec.params()),
        spec.where());
    boolean[] wallOnly = {false};
    kind.check(probe, context, (key, reason) -> wallOnly[0] |= "at".equals(key));
    file.wallTime.add(f.origin("at"), f.key("at"), spec.label() + ": a wall-time fault makes the run irreproducible; "
        + (wallOnly[0] ? kind.name() + " takes only wall times for now, so set run.reproducible = false"
            : "give it a model time (at = \"" + Durations.text(t) + "\") or set run.reproducible = false"));
  }

  private boolean withinRun(Fields f, String kindName, At at, List<Long> steps, RunLength run) {
    long last = steps.stream().mapToLong(Long::longValue).max().orElse(at.nanos());
    if (at.isModel()) {
      if (run.modelEndNs() == 0) {
        f.error("at", "a model-time fault needs a run with model time: give run.duration, or traffic with a count"
            + " (or write at = \"wall 2s\")");
        return false;
      }
      if (last >= run.modelEndNs()) {
        f.error("at", (steps.size() > 1 ? "the last step of " + kindName + " is at " + Durations.text(last)
            + ", not" : Durations.text(last) + " is not") + " inside the run (it ends at model time "
            + Durations.text(run.modelEndNs()) + (run.hasDuration() ? ", run.duration" : ", the end of the traffic")
            + ")");
        return false;
      }
    } else if (last >= run.wallLimitNs()) {
      f.error("at", (steps.size() > 1 ? "the last step of " + kindName + " is at wall " + Durations.text(last)
          + ", not" : "wall " + Durations.text(last) + " is not") + " inside the run (run.wall-limit = "
          + Durations.text(run.wallLimitNs()) + ")");
      return false;
    }
    return true;
  }

  /**
   * {@code at}: {@code "50us"} (model time), {@code "wall 2s"}, {@code "model 50us"}, or a range
   * {@code "10us..20us"} from which the seed picks one time.
   */
  private At at(Fields f) {
    String text = f.string("at", true);
    if (text == null) {
      return null;
    }
    Matcher m = AT.matcher(text);
    if (!m.matches()) {
      f.error("at", "at=" + text + " is not a time such as \"50us\", \"wall 2s\" or \"10us..20us\"");
      return null;
    }
    Clock clock = "wall".equals(m.group(1)) ? Clock.WALL : Clock.MODEL;
    try {
      long from = Durations.parseNanos(m.group(2));
      if (m.group(3) == null) {
        return new At(clock, from, text);
      }
      long to = Durations.parseNanos(m.group(3));
      if (to < from) {
        f.error("at", "at=" + text + ": the range ends before it starts");
        return null;
      }
      return new At(clock, from + file.random().nextLong(to - from + 1), text);
    } catch (IllegalArgumentException e) {
      f.error("at", "at=" + text + ": " + e.getMessage());
      return null;
    }
  }
}
