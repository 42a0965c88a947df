package io.rackfabric.loadtests.scenario.language;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Expands a random fault schedule into ordinary faults: for each kind a Poisson process (mean
 * {@code rate} faults per {@code per} of the window's clock) gives the times, and the kind's
 * targets are drawn uniformly among those free at that time. Each kind draws from streams of its
 * own, derived from the seed and the kind's name, so adding a kind to a schedule leaves the other
 * kinds' times where they were. Pure and deterministic: the same input gives the same faults.
 *
 * <p>A target (a link, whichever end is named) takes one fault at a time: an arrival when every
 * target of its kind is still inside a fault, or after a one-step fault that leaves it broken (a
 * link down, a JVM killed), is skipped, as is one whose steps would not end inside the window. The
 * realised count can therefore be below the rate's mean; the header of the run lists what was drawn.
 */
final class RandomFaults {

  /** Faults a kind may be expected to draw in one window: each is a traffic stretch of its own. */
  static final double MAX_EXPECTED_PER_KIND = 1000;

  /**
   * What to draw for one kind.
   *
   * @param rate mean faults per {@code per} nanoseconds, finite and at least 0
   * @param targets what it may hit, in the file's order, at least one
   * @param where {@code file:line} of the kind's rate, for the faults' messages at run time
   */
  record Plan(FaultKind kind, double rate, List<String> targets, Params params, String where) {
    Plan {
      targets = List.copyOf(targets);
    }
  }

  /** Where the faults go: {@code [from, until)} on {@code clock}. */
  record Window(Clock clock, long from, long until) {}

  /** The faults, in time order (ties in plan order), and how many arrivals were skipped. */
  record Expansion(List<FaultSpec> faults, int skippedBusy, int skippedAtEnd) {}

  private RandomFaults() {}

  /** The mean number of faults {@code rate} per {@code per} gives in the window. */
  static double expected(double rate, long per, Window w) {
    return rate * (w.until() - w.from()) / (double) per;
  }

  /**
   * @param context what the kinds' targets tell their {@link Target#identity} by (a link has two ends)
   * @param busyUntil per identity, the last step of a fault already there (explicit faults on the
   *     same clock); {@link Long#MAX_VALUE} for one that stays broken. Not modified.
   */
  static Expansion expand(long seed, Window w, long per, List<Plan> plans, ScenarioContext context,
      Map<String, Long> busyUntil) {
    record Arrival(long at, int plan) {}
    List<Arrival> arrivals = new ArrayList<>();
    List<SplittableRandom> picks = new ArrayList<>();
    for (int i = 0; i < plans.size(); i++) {
      Plan p = plans.get(i);
      for (long t : times(stream(seed, p.kind().name(), "times"), p.rate(), per, w.from(), w.until())) {
        arrivals.add(new Arrival(t, i));
      }
      picks.add(stream(seed, p.kind().name(), "targets"));
    }
    arrivals.sort(Comparator.comparingLong(Arrival::at).thenComparingInt(Arrival::plan));
    Map<String, Long> busy = new HashMap<>(busyUntil);
    List<FaultSpec> faults = new ArrayList<>();
    int skippedBusy = 0;
    int skippedAtEnd = 0;
    String written = "random-faults seed " + seed;
    for (Arrival a : arrivals) {
      Plan p = plans.get(a.plan());
      At when = new At(w.clock(), a.at(), written);
      List<Long> steps = p.kind().steps(when, p.params());
      long last = steps.stream().mapToLong(Long::longValue).max().orElse(a.at());
      if (last >= w.until()) {
        skippedAtEnd++;
        continue;
      }
      List<String> free = p.targets().stream()
          .filter(t -> busy.getOrDefault(p.kind().target().identity(t, context), -1L) < a.at()).toList();
      if (free.isEmpty()) {
        skippedBusy++;
        continue;
      }
      String target = free.get(picks.get(a.plan()).nextInt(free.size()));
      busy.put(p.kind().target().identity(target, context), steps.size() == 1 ? Long.MAX_VALUE : last);
      faults.add(new FaultSpec(p.kind().name(), target, when, p.params(), steps,
          p.where(), true));
    }
    return new Expansion(faults, skippedBusy, skippedAtEnd);
  }

  /** Arrival times of a Poisson process in {@code [from, until)}: exponential gaps of mean per/rate. */
  static List<Long> times(SplittableRandom random, double rate, long per, long from, long until) {
    List<Long> times = new ArrayList<>();
    if (!(rate > 0)) {
      return times;
    }
    double mean = per / rate;
    double t = from;
    while (true) {
      // 1 - u is in (0, 1], so the logarithm is finite.
      t += -Math.log(1 - random.nextDouble()) * mean;
      long at = (long) Math.floor(t);
      if (t >= until || at >= until) {
        return times;
      }
      times.add(at);
    }
  }

  /** A stream of its own per seed, kind and purpose: the seed's other uses do not move it. */
  static SplittableRandom stream(long seed, String kind, String purpose) {
    return new SplittableRandom(mix(seed) ^ mix((kind + "/" + purpose).hashCode() + 0x9E3779B97F4A7C15L));
  }

  /** A 64-bit finalizer (the one of SplittableRandom's own seeding): nearby inputs, distant outputs. */
  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
