package io.rackfabric.loadtests.scenario.invariant;

import io.rackfabric.loadtests.scenario.language.Durations;
import io.rackfabric.loadtests.scenario.language.InvariantSpec;
import io.rackfabric.loadtests.scenario.language.Param;
import io.rackfabric.loadtests.scenario.language.ParamType;
import io.rackfabric.host.controlplane.ControlPlaneHost;
import io.rackfabric.host.controlplane.TakeoverBreakdown;
import io.rackfabric.loadtests.scenario.api.ControlPlaneTakeovers;
import io.rackfabric.loadtests.scenario.api.InvariantType;
import io.rackfabric.loadtests.scenario.api.RunResult;
import io.rackfabric.loadtests.scenario.api.Verdict;
import java.util.List;

/**
 * {@code takeover-completed}: the backup management host took over (Ladon sections 4.3, 5.2) and serves
 * as master from the recovered controller (template image plus change log, as many events as it
 * had persisted for the pair); with {@code within}, its control-plane outage (last heartbeat to
 * service resumed, model time, the modeled reboot included) was at most that. After several
 * take-overs (the old master rejoined and took over in turn), the host of the last one serves,
 * and each was within.
 */
public final class TakeoverCompleted implements InvariantType {

  @Override
  public String name() {
    return "takeover-completed";
  }

  @Override
  public String summary() {
    return "the BMH took over and serves as master with the controller state the pair acknowledged"
        + " (control-plane outage at most WITHIN)";
  }

  @Override
  public List<Param> params() {
    return List.of(Param.optional("within", ParamType.DURATION, null,
        "model time from the master's last heartbeat to the backup serving, at most"));
  }

  @Override
  public Verdict evaluate(InvariantSpec invariant, RunResult run) throws Exception {
    long within = invariant.params().number("within", -1);
    ControlPlaneTakeovers cp;
    try {
      cp = ControlPlaneTakeovers.read(run.rack());
    } catch (IllegalStateException e) {
      return Verdict.fail(e.getMessage());
    }
    List<TakeoverBreakdown> all = cp.takeovers();
    if (all.isEmpty()) {
      ControlPlaneTakeovers.Host backup = cp.hosts().stream()
          .filter(h -> h.status().host().equals(cp.pair().backup())).findFirst().orElse(null);
      return Verdict.fail(backup == null ? "the backup " + cp.pair().backup() + " does not answer (stopped, or its node"
          + " killed)" : "the backup " + cp.pair().backup() + " made no take-over; it is " + backup.status().role());
    }
    // The last take-over's host serves now; each take-over, also of a host killed since, within time.
    TakeoverBreakdown last = all.get(all.size() - 1);
    ControlPlaneTakeovers.Host master = cp.hosts().stream().filter(h -> h.status().host().equals(last.host()))
        .findFirst().orElse(null);
    if (master == null) {
      return Verdict.fail(last.host() + " took over last and does not answer (stopped, or its node killed)");
    }
    if (master.status().role() != ControlPlaneHost.Role.MASTER) {
      return Verdict.fail(last.host() + " took over but is " + master.status().role() + " now");
    }
    if (last.lastSeqNr() < 1 || master.status().lastSeqNr() < last.lastSeqNr()) {
      return Verdict.fail(last.host() + " recovered " + last.lastSeqNr() + " events and serves up to event "
          + master.status().lastSeqNr() + ": the controller's state did not survive");
    }
    boolean inTime = within < 0 || all.stream().allMatch(b -> b.totalNs() <= within);
    String each = all.stream().map(b -> b.host() + " took over (" + b.mode() + "): detection " + b.detectionNs()
        + " ns, port reassignment " + b.portReassignmentNs() + " ns, reboot " + b.rebootNs() + " ns, total "
        + b.totalNs() + " ns").collect(java.util.stream.Collectors.joining("; then "));
    return new Verdict(inTime, each + "; serves events 1.." + master.status().lastSeqNr()
        + (inTime ? "" : "; beyond within = " + Durations.text(within)));
  }
}
