package io.rackfabric.fabric.endpoint;

import akka.actor.NoSerializationVerificationNeeded;

/**
 * What an endpoint tells host software attached to it as a guest ({@link MemoryEndpoint.AttachGuest}):
 * the driver of a device behind it, a host's sender. Under the model-time kernel the endpoint
 * handles nothing after an event it called a guest about until the guest answered
 * {@link MemoryEndpoint.GuestDone}, so what the guest does in reply (its writes and reads, its
 * next wake) enters the model at that event's time, however long the guest took in wall time.
 * Free-running, the endpoint calls and goes on.
 *
 * <p>Local only: a guest runs next to its endpoint.
 */
public sealed interface GuestCall extends NoSerializationVerificationNeeded
    permits GuestCall.Event, GuestCall.ReadDone, GuestCall.Wake, GuestCall.FromPeer, GuestCall.Attached,
        GuestCall.Hold, GuestCall.FabricDatabaseChanged, GuestCall.FabricDatabaseWanted {

  /** The number to answer with {@link MemoryEndpoint.GuestDone}; 0 for a notice that needs none. */
  long call();

  /**
   * Answers this call to {@code endpoint}, once the guest has sent it every write, read and wake
   * the call caused (Akka keeps their order: they are handled first); nothing for a notice.
   */
  default void answer(akka.actor.typed.ActorRef<MemoryEndpoint.Command> endpoint) {
    if (call() != 0) {
      endpoint.tell(new MemoryEndpoint.GuestDone(call()));
    }
  }

  /** A write into a range the guest watches, or an error report (as a watcher would get it). */
  record Event(long call, EndpointEvent event) implements GuestCall {}

  /** The result of a read the guest issued. */
  record ReadDone(long call, MemoryEndpoint.ReadResult result) implements GuestCall {}

  /** The wake the guest asked for ({@link MemoryEndpoint.WakeGuest}), at model time {@code at}. */
  record Wake(long call, long at, long token) implements GuestCall {}

  /**
   * A message from a guest of peer endpoint {@code from} ({@link MemoryEndpoint.SendToPeer}), due
   * at model time {@code at}: its sending time plus the guest channel's lookahead (none between two
   * guests of one endpoint).
   */
  record FromPeer(long call, long at, String from, Object payload) implements GuestCall {}

  /**
   * Whether the endpoint runs under the kernel: told on attaching and again when it joins. A
   * guest paces itself on the wall clock only while it does not (wakes are then due at once).
   */
  record Attached(boolean underKernel) implements GuestCall {
    @Override
    public long call() {
      return 0;
    }
  }

  /**
   * The run holds the rack from model time {@code modelAt} ({@code Long.MAX_VALUE}: lifted), as
   * its endpoint's link ({@link io.rackfabric.fabric.port.LinkPort.HoldFrom}): a guest on wall-clock
   * timers runs none whose result would be stamped at or after it. A notice outside model time
   * (free-running faults' horizon): the endpoint's events never wait for it, but the endpoint
   * answers the hold only once every guest answered this call.
   */
  record Hold(long call, long modelAt) implements GuestCall {}

  /**
   * The fabric manager on this endpoint changed its topology database at model time {@code at}
   * ({@code change}: a full copy first, then deltas): to the guest that keeps it in the controller's
   * state ({@link MemoryEndpoint.KeepFabricDatabase}), which answers once it is recorded (or at once
   * when it cannot record it).
   */
  record FabricDatabaseChanged(long call, long at, io.rackfabric.fabric.management.DatabaseDelta change)
      implements GuestCall {}

  /**
   * The fabric manager on this endpoint takes over at model time {@code at}: the guest that keeps
   * the database answers {@link MemoryEndpoint.FabricDatabaseKept} (what its controller's state holds,
   * or none) before it answers the call.
   */
  record FabricDatabaseWanted(long call, long at) implements GuestCall {}
}
