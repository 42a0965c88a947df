package io.rackfabric.loadtests.scenario.api;

import io.rackfabric.loadtests.scenario.language.GpuPingPong;
import java.util.List;

/**
 * What one {@code gpu-ping-pong} workload did: ping's round trips in model ns, in order, the poll
 * reads each GPU issued (0 when it waited on its own memory), the model time the run started at,
 * and an error (empty when both GPUs finished every round).
 */
public record GpuPingPongResult(GpuPingPong spec, List<Long> roundNs, long pingReads, long pongReads, long startAt,
    String error) {

  public GpuPingPongResult {
    roundNs = List.copyOf(roundNs);
  }
}
