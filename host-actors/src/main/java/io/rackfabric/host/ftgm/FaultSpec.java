package io.rackfabric.host.ftgm;

import io.rackfabric.fabric.wire.WireMessage;
import io.rackfabric.host.nic.FaultCategory;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * A fault campaign against one NIC: {@code faults} injections at random points of its send path,
 * each fault's category drawn with the given rates (what is left over has no impact), reproducible
 * from {@code seed}. Built through {@link #create}, which a scenario loader calls: it rejects an
 * unknown NIC or category and rates outside [0,1] with a message naming the value.
 */
public record FaultSpec(String nic, List<Rate> rates, int faults, long seed) implements WireMessage {

  /** One category's probability per injected fault. */
  public record Rate(FaultCategory category, double rate) implements WireMessage {}

  public FaultSpec {
    if (nic == null || nic.isBlank()) {
      throw new IllegalArgumentException("nic=" + nic + " is empty");
    }
    if (faults < 1) {
      throw new IllegalArgumentException("faults=" + faults + " must be at least 1");
    }
    rates = validRates(rates);
  }

  /**
   * @param knownNics the NICs the rack has (the fault may name only one of those)
   * @param rates category key ({@code interface-hang}, ...) to probability
   */
  public static FaultSpec create(String nic, Map<String, Double> rates, int faults, long seed, Set<String> knownNics) {
    if (!knownNics.contains(nic)) {
      throw new IllegalArgumentException("nic=" + nic + " is not a NIC of the rack " + knownNics);
    }
    List<Rate> parsed = new ArrayList<>();
    rates.forEach((k, v) -> parsed.add(new Rate(FaultCategory.parse(k), v)));
    return new FaultSpec(nic, parsed, faults, seed);
  }

  /** Checks every rate is in [0,1], no category twice, and the sum at most 1. */
  static List<Rate> validRates(List<Rate> rates) {
    EnumSet<FaultCategory> seen = EnumSet.noneOf(FaultCategory.class);
    double sum = 0;
    for (Rate r : rates) {
      if (r.category() == null) {
        throw new IllegalArgumentException("rate=" + r.rate() + " names no category");
      }
      if (!(r.rate() >= 0 && r.rate() <= 1)) {
        throw new IllegalArgumentException("rate " + r.category().key() + "=" + r.rate() + " not in [0,1]");
      }
      if (!seen.add(r.category())) {
        throw new IllegalArgumentException("category=" + r.category().key() + " given twice");
      }
      sum += r.rate();
    }
    if (sum > 1 + 1e-9) {
      throw new IllegalArgumentException("rates sum=" + sum + " exceeds 1");
    }
    return List.copyOf(rates);
  }

  /** Draws a category: each rate's share of [0,1), the rest {@link FaultCategory#NO_IMPACT}. */
  FaultCategory draw(SplittableRandom random) {
    double x = random.nextDouble();
    for (Rate r : rates) {
      if (x < r.rate()) {
        return r.category();
      }
      x -= r.rate();
    }
    return FaultCategory.NO_IMPACT;
  }
}
