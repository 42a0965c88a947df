package io.rackfabric.loadtests.scenario.language;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * The chance, per fault kind, that each fault of that kind in a run happens ({@code fault-rates}
 * of a campaign, {@code rack run --fault-rates}): 1 keeps them all, 0 none. Which ones a run keeps
 * is drawn from its seed, so a campaign's failing run replays with the same seed and rates.
 */
public final class FaultRates {

  private FaultRates() {}

  /** Why {@code rate} for {@code kind} cannot be used, or empty when it can. */
  public static Optional<String> problem(String kind, double rate, KindCatalog<?, ?, ?> catalog) {
    if (catalog.fault(kind).isEmpty()) {
      return Optional.of("unknown fault kind '" + kind + "'; known: "
          + String.join(", ", catalog.faults().stream().map(ScenarioKind::name).toList()));
    }
    if (!(rate >= 0 && rate <= 1)) {
      return Optional.of(kind + "=" + text(rate) + " not in [0, 1] (the chance that each " + kind + " happens)");
    }
    return Optional.empty();
  }

  /**
   * {@code "link-flap=0.5,link-down=1"}, as {@code rack run --fault-rates} takes it.
   *
   * @throws IllegalArgumentException naming the part that is not {@code KIND=P} or not usable
   */
  public static Map<String, Double> parse(String text, KindCatalog<?, ?, ?> catalog) {
    Map<String, Double> rates = new TreeMap<>();
    for (String part : text.split(",")) {
      String[] kv = part.trim().split("=", -1);
      if (kv.length != 2 || kv[0].isBlank()) {
        throw new IllegalArgumentException("fault-rates part '" + part.trim() + "' is not KIND=P (e.g. link-flap=0.5)");
      }
      double rate;
      try {
        rate = Double.parseDouble(kv[1].trim());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("fault-rates part '" + part.trim() + "': " + kv[1].trim() + " is not a number");
      }
      String kind = kv[0].trim();
      Optional<String> problem = problem(kind, rate, catalog);
      if (problem.isPresent()) {
        throw new IllegalArgumentException("fault-rates: " + problem.get());
      }
      if (rates.put(kind, rate) != null) {
        throw new IllegalArgumentException("fault-rates: " + kind + " is given twice");
      }
    }
    return rates;
  }

  /** The form {@link #parse} reads, kinds sorted: for replay lines. */
  public static String text(Map<String, Double> rates) {
    List<String> parts = new ArrayList<>();
    new TreeMap<>(rates).forEach((k, v) -> parts.add(k + "=" + text(v)));
    return String.join(",", parts);
  }

  private static String text(double v) {
    return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : String.valueOf(v).toLowerCase(Locale.ROOT);
  }

  /**
   * The faults a run keeps: each of a kind with a rate below 1 by a draw of its own, from a stream
   * per kind (so one kind's rate does not move which faults of another are kept).
   */
  static List<FaultSpec> keep(List<FaultSpec> faults, Map<String, Double> rates, long seed) {
    if (rates.isEmpty()) {
      return faults;
    }
    Map<String, SplittableRandom> streams = new LinkedHashMap<>();
    List<FaultSpec> kept = new ArrayList<>();
    for (FaultSpec f : faults) {
      Double rate = rates.get(f.kind());
      if (rate == null || rate >= 1) {
        kept.add(f);
        continue;
      }
      SplittableRandom r = streams.computeIfAbsent(f.kind(), k -> RandomFaults.stream(seed, k, "fault-rates"));
      if (r.nextDouble() < rate) {
        kept.add(f);
      }
    }
    return kept;
  }
}
