package io.rackfabric.loadtests.scenario.language;

import java.util.List;
import java.util.Optional;

/**
 * A kind of fault: what its {@code target} names, the times of its steps, and any check of its
 * own. The common keys {@code kind}, {@code target} and {@code at} are the parser's.
 */
public interface FaultKind extends ScenarioKind {

  Target target();

  /** Faults that end a JVM make no sense when the whole rack is one JVM. */
  default boolean needsMultiJvm() {
    return false;
  }

  /**
   * The times of the fault's steps on {@code at}'s clock, the first at {@code at}: one for a link
   * going down, a down and an up per cycle for a flap. Every step must lie inside the run.
   */
  default List<Long> steps(long at, Params params) {
    return List.of(at);
  }

  /**
   * The steps of a fault at {@code at}, on its clock: as {@link #steps(long, Params)} unless the
   * kind's steps depend on the clock (a pause in the model is set at once, a JVM's is two acts).
   */
  default List<Long> steps(At at, Params params) {
    return steps(at.nanos(), params);
  }

  /**
   * Why a random schedule ({@code random-faults}) may not draw this kind, or empty when it may.
   * A kind that only undoes another fault has no meaning on its own.
   */
  default Optional<String> notRandom() {
    return Optional.empty();
  }

  /** Checks beyond the parameter types and the target (called only when those are valid). */
  default void check(FaultSpec fault, ScenarioContext context, Reporter report) {}
}
