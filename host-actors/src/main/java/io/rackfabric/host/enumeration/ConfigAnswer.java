package io.rackfabric.host.enumeration;

import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.tlp.CompletionStatus;

/**
 * What came back for a {@link ConfigOp}: the completion's status and value (0 for a write) and
 * the request's model-time round trip. {@code status} is null when no completion came at all (a
 * switch drops configuration requests from below a downstream port; a root gives up after its
 * completion timeout), which a root complex treats like an absent function.
 */
public record ConfigAnswer(CompletionStatus status, int value, long latencyNs) {

  public static ConfigAnswer of(MemoryEndpoint.ConfigResult result) {
    return new ConfigAnswer(result.status(), result.value(), result.latencyNs());
  }

  public static ConfigAnswer noCompletion() {
    return new ConfigAnswer(null, 0, 0);
  }

  public static ConfigAnswer ok(int value) {
    return new ConfigAnswer(CompletionStatus.SUCCESSFUL, value, 0);
  }

  public boolean successful() {
    return status == CompletionStatus.SUCCESSFUL;
  }
}
