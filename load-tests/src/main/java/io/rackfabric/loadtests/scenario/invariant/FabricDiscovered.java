package io.rackfabric.loadtests.scenario.invariant;

import io.rackfabric.fabric.management.FabricManagerReport;
import io.rackfabric.loadtests.scenario.api.InvariantType;
import io.rackfabric.loadtests.scenario.api.RunResult;
import io.rackfabric.loadtests.scenario.api.Verdict;
import io.rackfabric.loadtests.scenario.figure.FabricManagerFigures;
import io.rackfabric.loadtests.scenario.language.InvariantSpec;

/**
 * {@code fabric-discovered}: the fabric manager's discovery over the fabric finished, every read
 * request got a completion with data, what it found is the topology file (no difference, no
 * problem), and it took as many read requests as the structure implies (the same walk without
 * actors): 1 + ceil(ports / 8) + ports per device and one more per link closing a loop.
 */
public final class FabricDiscovered implements InvariantType {

  @Override
  public String name() {
    return "fabric-discovered";
  }

  @Override
  public String summary() {
    return "the fabric manager's discovery over the fabric finished, matches the topology file, and took the"
        + " read requests the structure implies, each answered with data";
  }

  @Override
  public Verdict evaluate(InvariantSpec invariant, RunResult run) {
    FabricManagerReport r = FabricManagerFigures.report(run.endpointsAtEnd()).orElse(null);
    if (r == null) {
      return Verdict.fail(FabricManagerFigures.NONE_RAN);
    }
    if (r.discoveredAt() < 0) {
      return Verdict.fail("the discovery from " + r.fabricManager() + " did not finish: " + r.readRequests()
          + " read requests, " + r.completions() + " completions");
    }
    long structural = FabricManagerFigures.structuralReadRequests(run, r.fabricManager());
    long discoveryReads = r.readRequests()
        - r.rediscoveries().stream().mapToLong(FabricManagerReport.Rediscovery::readRequests).sum();
    boolean pass = discoveryReads == structural && r.completions() == r.readRequests() && r.errorCompletions() == 0
        && r.problems().isEmpty() && (r.differences() == null || r.differences().isEmpty());
    return new Verdict(pass, String.format("from %s: %d devices, %d links; %d read requests (the structure implies %d),"
        + " %d completions with data, %d with error; %d problems; differences: %s", r.fabricManager(), r.devices(),
        r.links(), discoveryReads, structural, r.completions(), r.errorCompletions(), r.problems().size(),
        r.differences() == null ? "no file" : r.differences().isEmpty() ? "none" : r.differences()));
  }
}
