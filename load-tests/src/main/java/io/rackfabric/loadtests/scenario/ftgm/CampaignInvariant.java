package io.rackfabric.loadtests.scenario.ftgm;

import io.rackfabric.loadtests.scenario.language.InvariantSpec;
import io.rackfabric.host.ftgm.FaultOutcome;
import io.rackfabric.host.ftgm.OutcomeTable;
import io.rackfabric.host.nic.McpMode;
import io.rackfabric.loadtests.scenario.api.FtgmCampaignResult;
import io.rackfabric.loadtests.scenario.api.InvariantType;
import io.rackfabric.loadtests.scenario.api.RunResult;
import io.rackfabric.loadtests.scenario.api.Verdict;
import java.util.List;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;

/**
 * What FTGM promises, judged on the FTGM campaign of an ftgm-campaign scenario (FTGM section 5.2):
 * every hang detected, every hang recovered, and across all of them no message lost, duplicated or
 * delivered out of order. A failure names each fault that broke it with its seed and a replay line.
 * The GM baseline is not judged: its losses and duplicates are what the campaign shows.
 */
public final class CampaignInvariant implements InvariantType {

  private static final int LISTED = 10;

  private final String name;
  private final String summary;
  private final Predicate<FaultOutcome> broken;
  private final ToLongFunction<OutcomeTable> count;
  private final String what;

  private CampaignInvariant(String name, String summary, Predicate<FaultOutcome> broken,
      ToLongFunction<OutcomeTable> count, String what) {
    this.name = name;
    this.summary = summary;
    this.broken = broken;
    this.count = count;
    this.what = what;
  }

  public static CampaignInvariant everyHangDetected() {
    return new CampaignInvariant("every-hang-detected", "ftgm-campaign: the watchdog caught every hang of the FTGM"
        + " campaign and its daemon confirmed it", o -> o.hang() && !o.detected(), t -> t.hangs() - t.detected(),
        "hangs not detected");
  }

  public static CampaignInvariant everyHangRecovered() {
    return new CampaignInvariant("every-hang-recovered", "ftgm-campaign: every hang of the FTGM campaign was"
        + " recovered (ports reopened, every send confirmed)", FaultOutcome::unrecoveredHang,
        t -> t.hangs() - t.recovered(), "hangs not recovered");
  }

  public static CampaignInvariant noMessageLost() {
    return new CampaignInvariant("no-message-lost", "ftgm-campaign: no message of the FTGM campaign was lost",
        o -> o.lost() > 0, OutcomeTable::lost, "messages lost");
  }

  public static CampaignInvariant noMessageDuplicated() {
    return new CampaignInvariant("no-message-duplicated", "ftgm-campaign: no message of the FTGM campaign was"
        + " delivered twice", o -> o.duplicated() > 0, OutcomeTable::duplicated, "messages duplicated");
  }

  public static CampaignInvariant noMessageOutOfOrder() {
    return new CampaignInvariant("no-message-out-of-order", "ftgm-campaign: no message of the FTGM campaign was"
        + " delivered after a later one of its flow", o -> o.outOfOrder() > 0, OutcomeTable::outOfOrder,
        "messages out of order");
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public String summary() {
    return summary;
  }

  @Override
  public Verdict evaluate(InvariantSpec invariant, RunResult run) {
    FtgmCampaignResult r = run.ftgm();
    if (r == null) {
      return Verdict.fail("the scenario has no ftgm-campaign section");
    }
    var ftgm = r.mode(McpMode.FTGM);
    if (ftgm.isEmpty()) {
      return Verdict.fail("the campaign runs no ftgm mode (modes = " + r.campaign().modes() + ")");
    }
    OutcomeTable t = ftgm.get().table();
    List<FaultOutcome> bad = t.outcomes().stream().filter(broken).toList();
    long n = count.applyAsLong(t);
    String seen = t.faults() + " faults, " + t.hangs() + " hangs, " + t.detected() + " detected, " + t.recovered()
        + " recovered; " + t.lost() + " lost, " + t.duplicated() + " duplicated, " + t.outOfOrder() + " out of order";
    if (bad.isEmpty() && n == 0) {
      return Verdict.pass(seen);
    }
    StringBuilder b = new StringBuilder(seen).append("; ").append(n).append(' ').append(what).append(" in ")
        .append(bad.size()).append(bad.size() == 1 ? " fault:" : " faults:");
    for (FaultOutcome o : bad.subList(0, Math.min(LISTED, bad.size()))) {
      b.append(" [fault ").append(o.index()).append(", seed ").append(o.seed()).append(", ")
          .append(o.category().key()).append(" at ").append(o.point().name().toLowerCase(java.util.Locale.ROOT))
          .append(": ").append(r.replayLine(McpMode.FTGM, o)).append(']');
    }
    if (bad.size() > LISTED) {
      b.append(" ... (").append(bad.size() - LISTED).append(" more)");
    }
    return Verdict.fail(b.toString());
  }
}
