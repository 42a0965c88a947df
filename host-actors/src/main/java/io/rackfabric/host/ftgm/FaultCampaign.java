package io.rackfabric.host.ftgm;

import io.rackfabric.host.nic.FaultCategory;
import io.rackfabric.host.nic.FaultPoint;
import io.rackfabric.host.nic.McpFirmware;
import io.rackfabric.host.nic.McpMode;
import io.rackfabric.host.nic.NicSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Fault injection as FTGM section 2 did it: each fault into a fresh testbed under steady
 * traffic, its category drawn from the spec's rates, its point drawn from the send path, its
 * moment drawn within the traffic. Every fault has its own seed, derived from the campaign's in
 * order, so the same spec gives the same table and any one fault can be replayed alone.
 */
public final class FaultCampaign {

  private FaultCampaign() {}

  /** Runs {@code spec.faults()} faults. */
  public static OutcomeTable run(FtgmSettings settings, NicSettings nic, McpMode mode, FaultSpec spec) {
    SplittableRandom root = new SplittableRandom(spec.seed());
    List<FaultOutcome> outcomes = new ArrayList<>(spec.faults());
    for (int i = 0; i < spec.faults(); i++) {
      outcomes.add(replay(settings, nic, mode, spec, i, root.nextLong()));
    }
    return OutcomeTable.of(spec.nic(), mode, spec.seed(), outcomes);
  }

  /** The seed of fault {@code index} of a campaign with seed {@code campaignSeed} (what {@link #run} gives it). */
  public static long faultSeed(long campaignSeed, int index) {
    if (index < 0) {
      throw new IllegalArgumentException("index=" + index + " is negative");
    }
    SplittableRandom root = new SplittableRandom(campaignSeed);
    long seed = root.nextLong();
    for (int i = 0; i < index; i++) {
      seed = root.nextLong();
    }
    return seed;
  }

  /** One fault of a campaign again, from its seed. */
  public static FaultOutcome replay(FtgmSettings settings, NicSettings nic, McpMode mode, FaultSpec spec, int index,
      long faultSeed) {
    SplittableRandom random = new SplittableRandom(faultSeed);
    FaultCategory category = spec.draw(random);
    FaultPoint point = FaultPoint.SEND_PATH.get(random.nextInt(FaultPoint.SEND_PATH.size()));
    long window = (long) settings.messages() * settings.messageIntervalNs();
    long at = settings.messageIntervalNs() + random.nextLong(Math.max(1, window / 2));
    return inject(settings, nic, mode, spec.nic(), category, point, at, index, faultSeed, false);
  }

  /**
   * One fault into a fresh testbed with the settings' traffic: {@code category} armed at {@code
   * point} of {@code nicName} at model time {@code at}; {@code toRemoteOnly} keeps the server
   * silent.
   */
  public static FaultOutcome inject(FtgmSettings settings, NicSettings nic, McpMode mode, String nicName,
      FaultCategory category, FaultPoint point, long at, int index, long seed, boolean toRemoteOnly) {
    FtgmTestbed bed = new FtgmTestbed(nicName, mode, settings, nic, settings.ports());
    bed.start(0);
    bed.traffic(settings.messages(), settings.messageIntervalNs(), settings.messageIntervalNs(), toRemoteOnly);
    bed.inject(nicName, category, point, at);
    boolean completed = bed.runUntilSettled(settings.settleLimitNs());
    return outcome(bed, index, seed, category, point, at, completed);
  }

  static FaultOutcome outcome(FtgmTestbed bed, int index, long seed, FaultCategory category, FaultPoint point,
      long at, boolean completed) {
    String nicName = bed.nicName();
    McpFirmware card = bed.card(nicName);
    boolean activated = card.faultActivatedAt() >= 0 && !card.faultPending();
    List<RecoveryBreakdown> breakdowns = new ArrayList<>(bed.breakdowns(nicName));
    breakdowns.addAll(bed.breakdowns(FtgmTestbed.REMOTE));
    boolean hang = activated && (category == FaultCategory.INTERFACE_HANG || category == FaultCategory.MCP_RESTART
        || category == FaultCategory.REMOTE_INTERFACE_HANG && bed.card(FtgmTestbed.REMOTE).faultActivatedAt() >= 0);
    boolean detected = hang && !breakdowns.isEmpty();
    boolean reopened = breakdowns.stream().allMatch(b -> b.portsRecoveredAt().size() == b.openPorts());
    DeliveryLog log = bed.log();
    List<RecoveryEvent> events = new ArrayList<>();
    for (String name : List.of(nicName, FtgmTestbed.REMOTE)) {
      long t = bed.card(name).faultActivatedAt();
      if (t >= 0) {
        events.add(new RecoveryEvent(t, name, RecoveryEvent.FAULT_ACTIVATED, -1,
            name.equals(nicName) ? category.key() + " at " + point.name().toLowerCase(Locale.ROOT)
                : "hung by a poisoned packet"));
      }
    }
    events.addAll(bed.events());
    events.sort(RecoveryEvent.BY_TIME);
    return new FaultOutcome(index, seed, nicName, bed.mode(), category, point, at, activated, hang, detected,
        detected && reopened && completed, completed, log.lost(), log.duplicates(), log.outOfOrder(),
        card.corruptDropped() + bed.card(FtgmTestbed.REMOTE).corruptDropped(), breakdowns, events);
  }
}
