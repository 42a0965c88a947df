package io.rackfabric.loadtests.scenario.invariant;

import io.rackfabric.loadtests.scenario.language.InvariantSpec;
import io.rackfabric.host.ftgm.NicFaultDaemon;
import io.rackfabric.host.ftgm.RecoveryBreakdown;
import io.rackfabric.host.ftgm.RecoveryEvent;
import io.rackfabric.loadtests.scenario.api.InvariantType;
import io.rackfabric.loadtests.scenario.api.NicRecoveries;
import io.rackfabric.loadtests.scenario.api.RunResult;
import io.rackfabric.loadtests.scenario.api.Verdict;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code nic-recovered}: every {@code nic-hang} of the run was detected by the NIC's watchdog
 * (its interrupt reached the MH's daemon, which confirmed the hang) and recovered: the card reset
 * and reloaded, its VF table restored, and every open VF's port reopened.
 */
public final class NicRecovered implements InvariantType {

  @Override
  public String name() {
    return "nic-recovered";
  }

  @Override
  public String summary() {
    return "every nic-hang was detected by the watchdog and the NIC recovered: every open VF's port reopened";
  }

  @Override
  public Verdict evaluate(InvariantSpec invariant, RunResult run) throws Exception {
    if (NicRecoveries.hungNics(run).isEmpty()) {
      return Verdict.fail("no nic-hang fault was applied in this run");
    }
    boolean pass = true;
    List<String> seen = new ArrayList<>();
    for (NicFaultDaemon.NicRecoveries r : NicRecoveries.read(run)) {
      long hangs = NicRecoveries.hangs(run, r.nic());
      long confirmed = r.events().stream().filter(e -> e.step().equals(RecoveryEvent.HANG_CONFIRMED)).count();
      boolean ok = !r.recovering() && confirmed == hangs && r.breakdowns().size() == hangs;
      for (RecoveryBreakdown b : r.breakdowns()) {
        ok &= b.portsRecoveredAt().size() == b.openPorts() && b.openPorts() > 0;
        seen.add(String.format("%s: hang at %.3f ms detected after %.1f us, %d of %d VF ports reopened, recovered"
                + " after %.3f s (model)", r.nic(), b.faultAt() / 1e6, b.detectionNs() / 1e3,
            b.portsRecoveredAt().size(), b.openPorts(), b.totalNs() / 1e9));
      }
      if (r.breakdowns().size() < hangs) {
        seen.add(r.nic() + ": " + hangs + " hang(s), " + confirmed + " confirmed, " + r.breakdowns().size()
            + " recovered" + (r.recovering() ? " (a recovery still under way)" : ""));
      }
      pass &= ok;
    }
    return new Verdict(pass, String.join("; ", seen));
  }
}
