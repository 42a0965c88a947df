package io.rackfabric.fabric.endpoint;

import akka.actor.typed.ActorRef;
import io.rackfabric.fabric.wire.WireMessage;

/**
 * Where a guest is reached on a guest channel: its endpoint's id (the name its channels are
 * declared under), the endpoint, and the guest itself ({@link MemoryEndpoint.AttachGuest}). Host
 * software hands its address to the peers that answer it, as it would hand out a reply address.
 */
public record GuestAddress(String endpoint, ActorRef<MemoryEndpoint.Command> endpointRef, ActorRef<GuestCall> guest)
    implements WireMessage {

  public GuestAddress {
    if (endpoint == null || endpoint.isBlank() || endpointRef == null || guest == null) {
      throw new IllegalArgumentException("guest address: endpoint=" + endpoint + ", endpointRef=" + endpointRef
          + ", guest=" + guest + " must all be given");
    }
  }

  /**
   * The address of {@code guest} on {@code endpoint}: an endpoint's id is its actor's name, as the
   * rack spawns it and as the time keeper knows it.
   */
  public static GuestAddress of(ActorRef<MemoryEndpoint.Command> endpoint, ActorRef<GuestCall> guest) {
    return new GuestAddress(endpoint.path().name(), endpoint, guest);
  }

  /**
   * What a guest tells its own endpoint to send {@code payload} here at model time {@code at}
   * (inside a call, under the kernel).
   */
  public MemoryEndpoint.SendToPeer send(WireMessage payload, long at) {
    return new MemoryEndpoint.SendToPeer(endpoint, endpointRef, guest, payload, at);
  }
}
