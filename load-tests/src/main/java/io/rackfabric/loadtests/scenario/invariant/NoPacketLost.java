package io.rackfabric.loadtests.scenario.invariant;

import io.rackfabric.loadtests.scenario.language.InvariantSpec;
import io.rackfabric.loadtests.scenario.api.InvariantType;
import io.rackfabric.loadtests.scenario.api.NicStreamResult;
import io.rackfabric.loadtests.scenario.api.RunResult;
import io.rackfabric.loadtests.scenario.api.Verdict;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code no-packet-lost}: every packet of every stream of the scenario's nic-stream reached the
 * server outside the rack once and in order, and no sender skipped a packet for a data-plane
 * outage (Ladon section 5.2: "no packet was lost" across the MMH's failure).
 */
public final class NoPacketLost implements InvariantType {

  @Override
  public String name() {
    return "no-packet-lost";
  }

  @Override
  public String summary() {
    return "every nic-stream packet reached the server outside the rack once, in order; none skipped";
  }

  @Override
  public Verdict evaluate(InvariantSpec invariant, RunResult run) {
    if (run.nicStreams().isEmpty()) {
      return Verdict.fail("the scenario streams nothing through the NIC (no nic-stream section)");
    }
    List<String> seen = new ArrayList<>();
    boolean pass = true;
    for (NicStreamResult s : run.nicStreams()) {
      boolean ok = s.error().isEmpty() && s.lost() == 0 && s.skipped() == 0 && s.duplicates() == 0
          && s.outOfOrder() == 0 && s.received() == s.sent();
      pass &= ok;
      seen.add(s.host() + ": " + s.received() + " of " + (s.sent() + s.skipped()) + " received, " + s.lost()
          + " lost, " + s.duplicates() + " duplicates, " + s.outOfOrder() + " out of order"
          + (s.error().isEmpty() ? "" : " (" + s.error() + ")"));
    }
    return new Verdict(pass, String.join("; ", seen));
  }
}
