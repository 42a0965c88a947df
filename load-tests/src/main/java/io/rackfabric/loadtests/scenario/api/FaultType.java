package io.rackfabric.loadtests.scenario.api;

import io.rackfabric.loadtests.scenario.language.FaultKind;
import io.rackfabric.loadtests.scenario.language.FaultSpec;

/** A fault kind that can also inject itself into a running rack. */
public interface FaultType extends FaultKind {

  /**
   * Applies step {@code step} of {@code fault} (see {@link FaultKind#steps}).
   *
   * @param modelAt the model time to stamp the fault with, or -1 for a wall-time fault (the
   *     target then goes by its own model clock)
   * @return one line for the record of the run: what was done
   */
  String apply(FaultSpec fault, int step, long modelAt, RunningRack rack) throws Exception;

  /**
   * Whether the step happens at a model time the rack can see. A switchover stamps nothing: the
   * pair's hosts act on it on their own clocks, so its step is recorded without a model time.
   */
  default boolean stampsModelTime() {
    return true;
  }

  /** Whether the fault degrades a network with delay or loss (the run checks for netem first). */
  default boolean needsNetem(FaultSpec fault) {
    return false;
  }

  /** Whether the step takes a link down (directly or by stopping what is on it): AER is due. */
  default boolean takesLinkDown(FaultSpec fault, int step) {
    return true;
  }
}
