package io.rackfabric.host.controlplane;

import akka.actor.typed.ActorRef;
import io.rackfabric.fabric.endpoint.GuestCall;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.wire.WireMessage;
import io.rackfabric.fabric.endpoint.GuestAddress;

/**
 * Control-plane software (a management host's, a compute host's driver) as a guest of its own
 * endpoint (see {@link GuestCall}): with model time on ({@code model-time-heartbeats}), its timers
 * are wakes of the endpoint and what it tells the other hosts goes on guest channels, each message
 * a model-time event of the receiving endpoint a channel's lookahead later. That starts once the
 * endpoint runs under the kernel: free-running, a wake is due at once and would spin.
 *
 * <p>Not thread-safe: the owning actor's.
 */
final class HostGuest {

  private final String endpointName;
  private final ActorRef<MemoryEndpoint.Command> endpoint;
  private final ActorRef<GuestCall> calls;
  private final boolean modelTime;
  private boolean underKernel;

  /**
   * @param endpoint the host's endpoint, or null (a host with no fabric: tests, the controller
   *     benchmark); then nothing runs in model time
   * @param calls where the endpoint's calls reach the host (null without an endpoint)
   * @param modelTime the settings' {@code model-time-heartbeats}
   */
  HostGuest(String endpointName, ActorRef<MemoryEndpoint.Command> endpoint, ActorRef<GuestCall> calls,
      boolean modelTime) {
    this.endpointName = endpointName;
    this.endpoint = endpoint;
    this.calls = calls;
    this.modelTime = modelTime && endpoint != null;
  }

  /** Attaches to the endpoint (answered with {@link GuestCall.Attached}). */
  void attach() {
    if (endpoint != null) {
      endpoint.tell(new MemoryEndpoint.AttachGuest(calls, java.util.List.of()));
    }
  }

  /**
   * Keeps its endpoint's fabric manager's topology database in the controller's state: the
   * endpoint calls it with every change and, taking over, for the database (see {@link FabricDatabaseCalls}).
   */
  void keepFabricDatabase() {
    if (modelTime) {
      endpoint.tell(new MemoryEndpoint.KeepFabricDatabase(calls));
    }
  }

  /** Tells the endpoint the database its controller's state holds (inside the endpoint's call asking for it). */
  void fabricDatabaseKept(String manager, io.rackfabric.fabric.management.DatabaseDelta database) {
    endpoint.tell(new MemoryEndpoint.FabricDatabaseKept(manager, database));
  }

  /** The host's software stops: its endpoint calls it no more (an open call would hold it for ever). */
  void detach() {
    if (endpoint != null) {
      endpoint.tell(new MemoryEndpoint.DetachGuest(calls));
    }
  }

  /** Heartbeats and suspicion are model-time events (whether or not the kernel runs yet). */
  boolean modelTime() {
    return modelTime;
  }

  /** They run now: model time is on and the endpoint is under the kernel. */
  boolean running() {
    return modelTime && underKernel;
  }

  /** The endpoint said whether it runs under the kernel; true when that just began. */
  boolean attached(boolean kernel) {
    boolean began = kernel && !underKernel;
    underKernel = kernel;
    return began;
  }

  /** Where the other host reaches this one on the guest channel, or null without an endpoint. */
  GuestAddress address() {
    return endpoint == null ? null : new GuestAddress(endpointName, endpoint, calls);
  }

  /** A wake at model time {@code at}; a background one keeps no released rack running. */
  void wake(long at, long token, boolean background) {
    endpoint.tell(new MemoryEndpoint.WakeGuest(calls, at, token, background));
  }

  /** Takes back the wake {@code token} it made stale: it keeps the rack running no longer. */
  void cancelWake(long token) {
    endpoint.tell(new MemoryEndpoint.CancelWake(calls, token));
  }

  /** Sends {@code payload} to the other host's guest on the channel, at model time {@code at}. */
  void send(GuestAddress to, WireMessage payload, long at) {
    endpoint.tell(to.send(payload, at));
  }

  /** Answers {@code call}, after everything it caused was sent. */
  void answer(GuestCall call) {
    call.answer(endpoint);
  }
}
