package io.rackfabric.loadtests.scenario.language;

import java.util.List;

/**
 * A scenario's {@code control-requests}: the control-plane driver of each listed compute host
 * opens {@code count} IOMMU pages of its host through the management hosts' controller, one every
 * {@code intervalNs} of model time, through whatever happens to the master meanwhile.
 *
 * @param from the requesting compute hosts, each once
 * @param count requests each host issues
 * @param intervalNs model time between a host's requests
 */
public record ControlRequests(List<String> from, int count, long intervalNs) {

  /** Each request opens a page in its host's memory; far below what a host's memory holds. */
  public static final int MAX_COUNT = 100_000;

  public ControlRequests {
    from = List.copyOf(from);
  }
}
