package io.rackfabric.host.ftgm;

import io.rackfabric.fabric.wire.WireMessage;
import io.rackfabric.host.nic.FaultCategory;
import io.rackfabric.host.nic.McpMode;
import java.util.ArrayList;
import java.util.List;

/**
 * A campaign's outcomes by category, as FTGM Table 1, with what FTGM adds: how many hangs were
 * detected and recovered, and the messages lost, duplicated or out of order. Hangs that were not
 * recovered are listed with their seeds for replay.
 */
public record OutcomeTable(
    String nic,
    McpMode mode,
    long seed,
    int faults,
    List<Row> rows,
    int hangs,
    int detected,
    int recovered,
    long lost,
    long duplicated,
    long outOfOrder,
    List<Long> unrecoveredSeeds,
    List<FaultOutcome> outcomes) implements WireMessage {

  /** One category. */
  public record Row(FaultCategory category, int injections, double percent, int hangs, int detected,
      int recovered, long lost, long duplicated, long outOfOrder) implements WireMessage {}

  public OutcomeTable {
    rows = List.copyOf(rows);
    unrecoveredSeeds = List.copyOf(unrecoveredSeeds);
    outcomes = List.copyOf(outcomes);
  }

  public static OutcomeTable of(String nic, McpMode mode, long seed, List<FaultOutcome> outcomes) {
    List<Row> rows = new ArrayList<>();
    for (FaultCategory c : FaultCategory.values()) {
      List<FaultOutcome> in = outcomes.stream().filter(o -> o.category() == c).toList();
      rows.add(new Row(c, in.size(), outcomes.isEmpty() ? 0 : 100.0 * in.size() / outcomes.size(),
          count(in, FaultOutcome::hang), count(in, FaultOutcome::detected), count(in, FaultOutcome::recovered),
          sum(in, FaultOutcome::lost), sum(in, FaultOutcome::duplicated), sum(in, FaultOutcome::outOfOrder)));
    }
    return new OutcomeTable(nic, mode, seed, outcomes.size(), rows, count(outcomes, FaultOutcome::hang),
        count(outcomes, FaultOutcome::detected), count(outcomes, FaultOutcome::recovered),
        sum(outcomes, FaultOutcome::lost), sum(outcomes, FaultOutcome::duplicated),
        sum(outcomes, FaultOutcome::outOfOrder),
        outcomes.stream().filter(FaultOutcome::unrecoveredHang).map(FaultOutcome::seed).toList(), outcomes);
  }

  private static int count(List<FaultOutcome> os, java.util.function.Predicate<FaultOutcome> p) {
    return (int) os.stream().filter(p).count();
  }

  private static long sum(List<FaultOutcome> os, java.util.function.ToLongFunction<FaultOutcome> f) {
    return os.stream().mapToLong(f).sum();
  }

  /** The table as text, one line per category. */
  public String render() {
    StringBuilder b = new StringBuilder();
    b.append(String.format("Fault injection into %s, %s, %d faults, seed %d%n", nic, mode, faults, seed));
    b.append(String.format("%-22s %6s %7s %6s %8s %9s %6s %6s %6s%n", "category", "faults", "%", "hangs",
        "detected", "recovered", "lost", "dup", "ooo"));
    for (Row r : rows) {
      b.append(String.format("%-22s %6d %7.1f %6d %8d %9d %6d %6d %6d%n", r.category().key(), r.injections(),
          r.percent(), r.hangs(), r.detected(), r.recovered(), r.lost(), r.duplicated(), r.outOfOrder()));
    }
    b.append(String.format("%-22s %6d %7.1f %6d %8d %9d %6d %6d %6d%n", "total", faults, 100.0, hangs, detected,
        recovered, lost, duplicated, outOfOrder));
    if (!unrecoveredSeeds.isEmpty()) {
      b.append("unrecovered hangs, seeds to replay: ").append(unrecoveredSeeds).append(System.lineSeparator());
    }
    return b.toString();
  }
}
