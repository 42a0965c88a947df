package io.rackfabric.fabric.endpoint;

import io.rackfabric.fabric.wire.WireMessage;

/**
 * A change to a memory endpoint's {@link InboundAccessCheck}, carried by {@link
 * MemoryEndpoint.ChangeAccessCheck} and applied by the endpoint itself, so that the check is only
 * ever touched by its owner. Implementations (opening and closing IOMMU pages, installing an IOMMU)
 * live with the checks they change, in host-actors, and cross JVMs: they are registered wire
 * messages.
 */
public interface AccessCheckChange extends WireMessage {

  /**
   * Applies this change to the endpoint's current check (which it may change in place, or
   * replace). Bad input is a refused result naming the value, never an exception.
   *
   * @param endpoint the endpoint's id, for messages
   */
  Result applyTo(String endpoint, InboundAccessCheck current);

  /**
   * What a change came to: the check to use from now on and a line for the reply. A refused
   * change leaves the endpoint with the check it had.
   */
  record Result(InboundAccessCheck check, boolean accepted, String detail) {

    public static Result applied(InboundAccessCheck check, String detail) {
      return new Result(check, true, detail);
    }

    public static Result refused(String reason) {
      return new Result(null, false, reason);
    }
  }
}
