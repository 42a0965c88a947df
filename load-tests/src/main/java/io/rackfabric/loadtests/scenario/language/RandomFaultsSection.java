package io.rackfabric.loadtests.scenario.language;

import com.typesafe.config.ConfigList;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import io.rackfabric.cluster.topology.Fields;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;

/**
 * {@code random-faults { rates { KIND = N }, per = 1m, from, until, targets { KIND = [...] },
 * params { KIND { ... } }, seed }}: drawn here, at load time, into ordinary faults (see {@link
 * RandomFaults}), so the runner, the invariants and the replay line of a run see nothing new and
 * {@code rack run --seed S} draws the same schedule again.
 */
final class RandomFaultsSection {

  /** What {@code random-faults.rates} count over unless {@code per} says otherwise: faults per minute. */
  static final long DEFAULT_PER_NS = 60_000_000_000L;

  private final ScenarioFile file;
  private final KindParams kindParams;

  RandomFaultsSection(ScenarioFile file, KindParams kindParams) {
    this.file = file;
    this.kindParams = kindParams;
  }

  /** The drawn faults, or none after a problem (reported). */
  List<FaultSpec> randomFaults(Fields f, ScenarioContext context, RunLength run, Mode mode, long scenarioSeed,
      List<FaultSpec> explicit) {
    Fields r = f.object("random-faults", false);
    if (r == null) {
      return List.of();
    }
    r.allowOnly("rates", "per", "from", "until", "targets", "params", "seed");
    int before = file.problems.size();
    long seed = scenarioSeed;
    String seedText = r.string("seed", false);
    if (seedText != null) {
      try {
        seed = Long.parseLong(seedText.replace("_", ""));
      } catch (NumberFormatException e) {
        r.error("seed", "seed=" + seedText + " is not a whole number");
      }
    }
    long per = RunSection.positive(r, "per", DEFAULT_PER_NS);
    RandomFaults.Window window = window(r, run);
    Fields rates = r.object("rates", true);
    Fields targets = r.object("targets", false);
    Fields params = r.object("params", false);
    List<RandomFaults.Plan> plans = new ArrayList<>();
    if (rates != null) {
      Set<String> named = rates.keys();
      for (String name : named) {
        if (file.catalog.fault(name).isEmpty()) {
          rates.error(name, "unknown fault kind '" + name + "'" + ScenarioFile.suggestion(name,
              file.catalog.faults().stream().map(ScenarioKind::name).toList()));
        }
      }
      // The catalog's order, not the file's: HOCON keeps no order of keys, and ties go by it.
      for (FaultKind kind : file.catalog.faults()) {
        if (named.contains(kind.name())) {
          RandomFaults.Plan plan = plan(kind, r, rates, targets, params, context, mode, per, window);
          if (plan != null) {
            plans.add(plan);
          }
        }
      }
      for (Fields extra : Arrays.asList(targets, params)) {
        if (extra != null) {
          extra.keys().stream().filter(k -> !named.contains(k)).forEach(k -> extra.error(k,
              "no rate for '" + k + "' in " + rates.path() + " (rates given: " + Names.hint(named) + ")"));
        }
      }
    }
    if (file.problems.size() != before || context == null || window == null) {
      return List.of();
    }
    Map<String, Long> busy = new HashMap<>();
    for (FaultSpec e : explicit) {
      if (e.at().clock() == window.clock()) {
        long last = e.steps().stream().mapToLong(Long::longValue).max().orElse(e.at().nanos());
        FaultKind kind = file.catalog.fault(e.kind()).orElseThrow();
        busy.merge(kind.target().identity(e.target(), context), e.steps().size() == 1 ? Long.MAX_VALUE : last,
            Math::max);
      }
    }
    // A kind's own check (a flap's period, a wall-only kind on model time) is run on a probe at the
    // window's start as well, so that a bad value is reported whatever the seed draws; it says the
    // same of every fault: once is enough.
    Set<String> said = new HashSet<>();
    for (RandomFaults.Plan p : plans) {
      At from = new At(window.clock(), window.from(), "probe");
      FaultSpec probe = new FaultSpec(p.kind().name(), p.targets().get(0), from, p.params(),
          p.kind().steps(from, p.params()), p.where(), true);
      long span = probe.steps().stream().mapToLong(Long::longValue).max().orElse(window.from()) - window.from();
      if (span >= window.until() - window.from()) {
        rates.error(p.kind().name(), "one " + p.kind().name() + " lasts " + Durations.text(span) + ", not less than"
            + " the window of " + Durations.text(window.until() - window.from()) + ": none would fit");
      }
      randomCheck(probe, context, rates, params, said);
    }
    if (file.problems.size() != before) {
      return List.of();
    }
    if (window.clock() == Clock.WALL) {
      file.wallTime.add(r.origin(), r.path(), "random-faults draws its faults on wall time: a wall-time fault makes the"
          + " run irreproducible; give from and until model times or set run.reproducible = false");
    }
    RandomFaults.Expansion drawn = RandomFaults.expand(seed, window, per, plans, context, busy);
    List<FaultSpec> out = new ArrayList<>();
    for (FaultSpec spec : drawn.faults()) {
      if (randomCheck(spec, context, rates, params, said)) {
        out.add(spec);
      }
    }
    return file.problems.size() == before ? out : List.of();
  }

  /** The kind's own check of a drawn fault, each problem reported once at the kind's rate or params. */
  private boolean randomCheck(FaultSpec spec, ScenarioContext context, Fields rates, Fields params, Set<String> said) {
    Fields own = params != null && params.has(spec.kind()) ? params.object(spec.kind(), false) : null;
    boolean[] ok = {true};
    file.catalog.fault(spec.kind()).orElseThrow().check(spec, context, (key, reason) -> {
      ok[0] = false;
      if (said.add(spec.kind() + "/" + key + "/" + reason)) {
        if (own == null || key == null) {
          rates.error(spec.kind(), reason);
        } else {
          own.error(key, reason);
        }
      }
    });
    return ok[0];
  }

  /** One kind of a random schedule, checked: null after a problem (reported). */
  private RandomFaults.Plan plan(FaultKind kind, Fields r, Fields rates, Fields targets, Fields params,
      ScenarioContext context, Mode mode, long per, RandomFaults.Window window) {
    String name = kind.name();
    int before = file.problems.size();
    ConfigValue v = rates.raw(name);
    double rate = -1;
    if (v.valueType() != ConfigValueType.NUMBER) {
      rates.error(name, "expected a number of faults per " + Durations.text(per) + ", got " + Fields.describe(v));
    } else {
      rate = ((Number) v.unwrapped()).doubleValue();
      if (!Double.isFinite(rate) || rate < 0) {
        rates.error(name, name + "=" + v.unwrapped() + " must be a finite number of faults per "
            + Durations.text(per) + ", at least 0");
      } else if (window != null && RandomFaults.expected(rate, per, window) > RandomFaults.MAX_EXPECTED_PER_KIND) {
        rates.error(name, name + "=" + v.unwrapped() + " per " + Durations.text(per) + " gives about "
            + Math.round(RandomFaults.expected(rate, per, window)) + " faults in the window of "
            + Durations.text(window.until() - window.from()) + "; at most " + (long) RandomFaults.MAX_EXPECTED_PER_KIND);
      }
    }
    Optional<String> notRandom = kind.notRandom();
    if (notRandom.isPresent()) {
      rates.error(name, name + " cannot be drawn at random: " + notRandom.get());
    }
    if (kind.needsMultiJvm() && mode == Mode.SINGLE_JVM) {
      rates.error(name, name + " needs a multi-jvm run, and this one is single-jvm (mode = multi-jvm, or"
          + " rack run --mode multi-jvm)");
    }
    List<String> aims = randomTargets(kind, rates, targets, context);
    Fields own = params == null ? null : params.object(name, false);
    Params values;
    if (own != null) {
      List<String> allowed = kind.params().stream().map(Param::name).toList();
      own.allowOnly(allowed.toArray(String[]::new));
      values = kindParams.params(own, kind.params(), context);
    } else {
      List<String> required = kind.params().stream().filter(Param::required).map(Param::name).toList();
      if (!required.isEmpty()) {
        (params == null ? r : params).error(params == null ? "params" : name, name + " needs "
            + String.join(", ", required) + ": give params { " + name + " { " + required.get(0) + " = ... } }");
      }
      Map<String, Object> dflts = new LinkedHashMap<>();
      kind.params().stream().filter(p -> p.dflt() != null).forEach(p -> dflts.put(p.name(), p.dflt()));
      values = new Params(dflts);
    }
    if (file.problems.size() != before || values == null || aims == null) {
      return null;
    }
    return new RandomFaults.Plan(kind, rate, aims, values, file.display + ":" + rates.origin(name).lineNumber());
  }

  /** {@code targets.KIND}, each checked against the topology, or every candidate the topology has. */
  private List<String> randomTargets(FaultKind kind, Fields rates, Fields targets, ScenarioContext context) {
    String name = kind.name();
    if (targets == null || !targets.has(name)) {
      if (context == null) {
        return null;
      }
      List<String> all = kind.target().candidates(context);
      if (all.isEmpty()) {
        rates.error(name, name + " takes " + kind.target().description() + ", which the topology alone does not"
            + " give: list them in targets { " + name + " = [...] }");
        return null;
      }
      return all;
    }
    ConfigList list = targets.list(name, true);
    if (list == null) {
      return null;
    }
    List<String> out = new ArrayList<>();
    for (int i = 0; i < list.size(); i++) {
      ConfigValue item = list.get(i);
      String key = targets.key(name) + "[" + i + "]";
      if (item.valueType() != ConfigValueType.STRING) {
        file.problems.add(item.origin(), key, "expected a target, got " + Fields.describe(item));
        continue;
      }
      String target = ((String) item.unwrapped()).trim();
      Optional<String> problem = context == null ? Optional.empty() : kind.target().problem(target, context);
      if (problem.isPresent()) {
        file.problems.add(item.origin(), key, problem.get() + "; " + name + " takes " + kind.target().description());
      } else if (out.contains(target)) {
        file.problems.add(item.origin(), key, "'" + target + "' is listed twice");
      } else {
        out.add(target);
      }
    }
    if (list.isEmpty()) {
      targets.error(name, name + "=[] names no target");
      return null;
    }
    return out.size() == list.size() ? out : null;
  }

  /**
   * {@code from} and {@code until}: times as {@code at} takes them, without ranges, on one clock;
   * by default from the start to the end of the run (model time when the run has it, else wall).
   */
  private RandomFaults.Window window(Fields r, RunLength run) {
    At from = windowTime(r, "from");
    At until = windowTime(r, "until");
    if ((r.has("from") && from == null) || (r.has("until") && until == null)) {
      return null;
    }
    Clock clock = from != null ? from.clock() : until != null ? until.clock()
        : run.modelEndNs() > 0 ? Clock.MODEL : Clock.WALL;
    if (from != null && until != null && from.clock() != until.clock()) {
      r.error("until", "until=" + until.written() + " is " + until.clock() + " time and from=" + from.written()
          + " is " + from.clock() + " time: give both on one clock");
      return null;
    }
    long end = clock == Clock.MODEL ? run.modelEndNs() : run.wallLimitNs();
    if (clock == Clock.MODEL && end == 0) {
      r.error(from != null ? "from" : "until", "a model-time window needs a run with model time: give run.duration,"
          + " or traffic with a count (or write from = \"wall 1s\")");
      return null;
    }
    long start = from == null ? 0 : from.nanos();
    long stop = until == null ? end : until.nanos();
    if (stop > end) {
      r.error("until", "until=" + until.written() + " is past the end of the run (" + clock + " time "
          + Durations.text(end) + (clock == Clock.WALL ? ", run.wall-limit" : run.hasDuration() ? ", run.duration"
          : ", the end of the traffic") + ")");
      return null;
    }
    if (start >= stop) {
      r.error(from != null ? "from" : "until", "the window [" + Durations.text(start) + ", " + Durations.text(stop)
          + ") of " + clock + " time is empty");
      return null;
    }
    return new RandomFaults.Window(clock, start, stop);
  }

  private At windowTime(Fields r, String key) {
    String text = r.string(key, false);
    if (text == null) {
      return null;
    }
    Matcher m = FaultSection.AT.matcher(text);
    if (!m.matches() || m.group(3) != null) {
      r.error(key, key + "=" + text + " is not a time such as \"50us\" or \"wall 2s\"");
      return null;
    }
    try {
      return new At("wall".equals(m.group(1)) ? Clock.WALL : Clock.MODEL, Durations.parseNanos(m.group(2)), text);
    } catch (IllegalArgumentException e) {
      r.error(key, key + "=" + text + ": " + e.getMessage());
      return null;
    }
  }
}
