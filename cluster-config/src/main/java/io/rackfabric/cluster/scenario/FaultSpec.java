package io.rackfabric.cluster.scenario;

import java.util.List;

/**
 * One fault of the schedule.
 *
 * @param steps the times of its steps on {@code at}'s clock (see {@link FaultKind#steps}), the
 *     first equal to {@code at.nanos()}
 * @param where {@code file:line} of the fault, for messages at run time
 */
public record FaultSpec(String kind, String target, At at, Params params, List<Long> steps, String where) {

  public FaultSpec {
    steps = List.copyOf(steps);
  }

  /** {@code link-down tor.ntb2 at 50us}. */
  public String label() {
    return kind + " " + target + " at " + at;
  }
}
