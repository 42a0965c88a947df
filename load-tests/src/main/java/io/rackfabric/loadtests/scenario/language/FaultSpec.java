package io.rackfabric.loadtests.scenario.language;

import java.util.List;

/**
 * One fault of the schedule.
 *
 * @param steps the times of its steps on {@code at}'s clock (see {@link FaultKind#steps}), the
 *     first equal to {@code at.nanos()}
 * @param where {@code file:line} of the fault, for messages at run time
 * @param random drawn from a {@code random-faults} schedule at load time rather than written out
 */
public record FaultSpec(String kind, String target, At at, Params params, List<Long> steps, String where,
    boolean random) {

  public FaultSpec {
    steps = List.copyOf(steps);
  }

  /** A fault written out in the file. */
  public FaultSpec(String kind, String target, At at, Params params, List<Long> steps, String where) {
    this(kind, target, at, params, steps, where, false);
  }

  /** {@code link-down tor.ntb2 at 50us}. */
  public String label() {
    return kind + " " + target + " at " + at;
  }
}
