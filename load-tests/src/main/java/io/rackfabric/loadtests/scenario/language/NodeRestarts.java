package io.rackfabric.loadtests.scenario.language;

import java.util.List;
import java.util.Optional;

/**
 * The order of a scenario's {@code kill-node} and {@code restart-node} faults on one node: a
 * {@code restart-node} at a model time starts again a node that a {@code kill-node} at an earlier
 * model time killed and nothing started again since. (At a wall time the run checks it when the
 * restart comes: wall times give no order to check here.)
 */
final class NodeRestarts {

  static final String KILL = "kill-node";
  static final String RESTART = "restart-node";

  private NodeRestarts() {}

  /** Why {@code restart} cannot happen after {@code faults} (every fault written), or empty. */
  static Optional<String> problem(FaultSpec restart, List<FaultSpec> faults) {
    if (!RESTART.equals(restart.kind()) || !restart.at().isModel()) {
      return Optional.empty();
    }
    String node = restart.target();
    long t = restart.at().nanos();
    FaultSpec last = null;
    FaultSpec wallKill = null;
    FaultSpec laterKill = null;
    for (FaultSpec f : faults) {
      if (f == restart || !node.equals(f.target()) || !(KILL.equals(f.kind()) || RESTART.equals(f.kind()))) {
        continue;
      }
      if (!f.at().isModel()) {
        wallKill = KILL.equals(f.kind()) ? f : wallKill;
      } else if (f.at().nanos() < t || (f.at().nanos() == t && RESTART.equals(f.kind()))) {
        if (last == null || f.at().nanos() >= last.at().nanos()) {
          last = f;
        }
      } else if (KILL.equals(f.kind()) && (laterKill == null || f.at().nanos() < laterKill.at().nanos())) {
        laterKill = f;
      }
    }
    String head = restart.label() + ": ";
    if (last != null && KILL.equals(last.kind())) {
      return Optional.empty();
    }
    if (last != null) {
      return Optional.of(head + node + " was started again at " + last.at() + " already (" + last.label()
          + ") and not killed since: a model-time restart needs a kill-node of " + node + " between the two");
    }
    if (laterKill != null) {
      return Optional.of(head + node + " is killed only at " + laterKill.at() + " (" + laterKill.label() + "), not"
          + " before " + restart.at() + ": give the restart a model time after " + laterKill.at());
    }
    if (wallKill != null) {
      return Optional.of(head + node + " is killed at a wall time (" + wallKill.label() + "), so no model time"
          + " orders the two: give the kill a model time before " + restart.at() + ", or the restart a wall time");
    }
    return Optional.of(head + node + " is not killed before it (no kill-node of " + node + " in faults): only a"
        + " killed node starts again");
  }
}
