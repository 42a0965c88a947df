package io.rackfabric.loadtests.scenario.invariant;

import io.rackfabric.loadtests.scenario.api.RunResult;

/**
 * {@code in-order}: posted writes of one source arrived at each sink in the order they were sent
 * (PCIe orders posted requests on a path): no write arrived behind a later one.
 */
public final class InOrder extends ZeroPerSink {

  public InOrder() {
    super(RunResult::reordered, "writes arrived behind a later one");
  }

  @Override
  public String name() {
    return "in-order";
  }

  @Override
  public String summary() {
    return "at every sink of the covered generators, each source's writes arrived in the order sent";
  }
}
