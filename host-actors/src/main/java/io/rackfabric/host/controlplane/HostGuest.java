package io.rackfabric.host.controlplane;

import akka.actor.typed.ActorRef;
import io.rackfabric.fabric.endpoint.GuestCall;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.wire.WireMessage;
import io.rackfabric.fabric.endpoint.GuestAddress;

/**
 * A management host's control-plane software as a guest of its own endpoint (see
 * {@link GuestCall}): with model-time heartbeats on, the master's heartbeat timer and the backup's
 * suspicion deadline are wakes of the endpoint, and each heartbeat goes to the other host on the
 * pair's guest channel, a model-time event of its endpoint the MMH-BMH link's latency later. They
 * start once the endpoint runs under the kernel: free-running, a wake is due at once and would
 * spin.
 *
 * <p>Not thread-safe: the host's actor's own.
 */
final class HostGuest {

  /** Wake tokens: the heartbeat timer's carry its chain's number above this. */
  static final long DEADLINE = 1;
  private static final long HEARTBEAT_BASE = 1_000;

  private final String endpointName;
  private final ActorRef<MemoryEndpoint.Command> endpoint;
  private final ActorRef<GuestCall> calls;
  private final boolean modelTime;
  private boolean underKernel;
  private long heartbeatChain = HEARTBEAT_BASE;

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

  /** A new chain of heartbeat wakes: wakes of an earlier chain are stale. */
  long newHeartbeatChain() {
    return ++heartbeatChain;
  }

  boolean isHeartbeat(long token) {
    return token == heartbeatChain;
  }

  /** A wake at model time {@code at}; a background one keeps no released rack running. */
  void wake(long at, long token, boolean background) {
    endpoint.tell(new MemoryEndpoint.WakeGuest(calls, at, token, background));
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
