package io.rackfabric.loadtests.scenario.invariant;

import io.rackfabric.loadtests.scenario.api.RunResult;

/** {@code no-duplicates}: no sink received one source's numbered write twice. */
public final class NoDuplicates extends ZeroPerSink {

  public NoDuplicates() {
    super(RunResult::duplicates, "duplicates");
  }

  @Override
  public String name() {
    return "no-duplicates";
  }

  @Override
  public String summary() {
    return "no sink of the covered generators received a write twice";
  }
}
