package io.rackfabric.loadtests.scenario.api;

import io.rackfabric.loadtests.scenario.language.InvariantKind;
import io.rackfabric.loadtests.scenario.language.InvariantSpec;

/** An invariant kind that can also judge a finished run. */
public interface InvariantType extends InvariantKind {

  /** Judges the run; the rack is still up ({@link RunResult#rack()}) while this is called. */
  Verdict evaluate(InvariantSpec invariant, RunResult run) throws Exception;
}
