package io.rackfabric.fabric.endpoint;

import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.tlp.Bdf;

/** Access-check changes for fabric-actors' own tests (the real ones live in host-actors). */
public final class TestAccessChanges {

  private TestAccessChanges() {}

  /** Replaces the check with one that lets only {@code requester} into {@code range}, both ways. */
  public record AllowOnly(int requester, AddressRange range) implements AccessCheckChange {
    @Override
    public Result applyTo(String endpoint, InboundAccessCheck current) {
      if (range == null) {
        return Result.refused("range is missing");
      }
      InboundAccessCheck only = (r, address, length, write) ->
          r == requester && range.containsAll(address, length)
              ? InboundAccessCheck.Decision.ALLOW
              : InboundAccessCheck.Decision.DENY;
      return Result.applied(only, endpoint + ": only " + Bdf.format(requester) + " into " + range);
    }
  }
}
