package io.rackfabric.host.controlplane;

import io.rackfabric.fabric.routing.PortConfig;
import io.rackfabric.fabric.routing.RoutingTable;
import io.rackfabric.host.controlplane.ControlPlaneHost.FenceTarget;
import java.util.ArrayList;
import java.util.List;

/**
 * The backup's fencing of the master (Ladon section 4.3) as a step machine: on one switch chip
 * after the other, read its table, move every port but the master's own into the virtual switch
 * the taking-over host's own port is in (VS1 to VS2 at the first take-over, back from VS2 to VS1
 * when the old master takes over again after it rejoined as backup), then the next chip. Each answered reassignment is one partition update of model time; a chip that does not
 * answer is skipped (logged by the caller), as a real MH would go on to the next. The role that
 * drives it ({@link TakingOverRole}) only sends what each step says and hands back the answers.
 *
 * <p>Not thread-safe: one owner.
 */
final class Fencing {

  /** What to do next. */
  sealed interface Step permits ReadTable, MovePorts, Done {}

  /** Read chip {@code target}'s routing table. */
  record ReadTable(int target) implements Step {}

  /**
   * Move {@code ports} of chip {@code target} to {@code virtualSwitch}, in force at model time
   * {@code effectiveAt}: when the chip's partition update, started now, is done.
   */
  record MovePorts(int target, List<Integer> ports, int virtualSwitch, long effectiveAt) implements Step {

    MovePorts {
      ports = List.copyOf(ports);
    }
  }

  /** Every chip done: the master is fenced at model time {@code at}. */
  record Done(long at, int portsMoved) implements Step {}

  private final List<FenceTarget> targets;
  private final long reassignmentNs;
  private long now;
  private int portsMoved;

  /**
   * @param startAt model time the fencing starts at (the suspicion), ns
   * @param reassignmentNs one chip's partition update, model ns
   */
  Fencing(List<FenceTarget> targets, long startAt, long reassignmentNs) {
    if (reassignmentNs < 0) {
      throw new IllegalArgumentException("reassignmentNs=" + reassignmentNs + " is negative");
    }
    this.targets = List.copyOf(targets);
    this.now = startAt;
    this.reassignmentNs = reassignmentNs;
  }

  Step start() {
    return next(0);
  }

  /** Chip {@code target}'s table, or null when it did not answer. */
  Step tableRead(int target, RoutingTable table) {
    if (table == null) {
      return next(target + 1);
    }
    FenceTarget t = targets.get(target);
    int to = table.ports().stream().filter(p -> p.number() == t.ownPort()).mapToInt(PortConfig::virtualSwitch)
        .findFirst().orElse(-1);
    if (to < 0) {
      return next(target + 1); // the chip has no port of the new master's: nothing of its to move into
    }
    List<Integer> move = new ArrayList<>();
    for (PortConfig p : table.ports()) {
      if (p.virtualSwitch() != to && !t.keepPorts().contains(p.number())) {
        move.add(p.number());
      }
    }
    return move.isEmpty() ? next(target + 1) : new MovePorts(target, move, to, now + reassignmentNs);
  }

  /** Chip {@code target} answered the reassignment of {@code ports} ports ({@code answered}), or did not. */
  Step portsMoved(int target, int ports, boolean answered) {
    if (answered) {
      now += reassignmentNs; // the chip's partition update, answered now
      portsMoved += ports;
    }
    return next(target + 1);
  }

  /** The model time the fencing has reached. */
  long now() {
    return now;
  }

  private Step next(int target) {
    return target == targets.size() ? new Done(now, portsMoved) : new ReadTable(target);
  }
}
