package io.rackfabric.loadtests.scenario.language;

/** A kind of invariant: what a run must satisfy, checked once the run is over. */
public interface InvariantKind extends ScenarioKind {

  /** Checks beyond the parameter types (called only when those are valid). */
  default void check(InvariantSpec invariant, ScenarioContext context, Reporter report) {}
}
