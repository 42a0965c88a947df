package io.rackfabric.host.controlplane;

import akka.actor.typed.ActorRef;
import akka.actor.typed.javadsl.TimerScheduler;
import io.rackfabric.host.controlplane.ControlPlaneHost.Command;
import io.rackfabric.host.controlplane.ControlPlaneHost.Heartbeat;
import io.rackfabric.host.controlplane.ControlPlaneHost.HeartbeatTick;
import io.rackfabric.host.controlplane.ControlPlaneHost.PeerGone;

/**
 * The pair's heartbeats as one host keeps them: a master's beats to its backup (a wall-clock timer,
 * or with model-time heartbeats a chain of wakes of its endpoint, {@link ModelHeartbeats}), and a
 * backup's watch of its master (the {@link HeartbeatMonitor}, the deadline's wake, death watch).
 * The roles decide when to beat, watch and suspect; this class does it on the host's
 * {@link HostCore} (its clock, its peer). Not thread-safe: the host's actor's own.
 */
final class PairHeartbeats {

  private static final Object HEARTBEAT_KEY = "heartbeat";

  private final HostCore host;
  private final TimerScheduler<Command> timers;
  final HeartbeatMonitor monitor;
  /** Heartbeats and the deadline as wakes of the endpoint, with model-time heartbeats on. */
  final ModelHeartbeats modelHeartbeats;
  /** The master this backup watches is known gone (model-time heartbeats): see {@link #heartbeatArrived}. */
  private boolean masterKnownGone;
  /** The master whose end this backup learns of by death watch. */
  private ActorRef<Command> watchedPeer;
  private long lastBeatAt;

  PairHeartbeats(HostCore host, TimerScheduler<Command> timers) {
    this.host = host;
    this.timers = timers;
    this.modelHeartbeats = new ModelHeartbeats(host.guest, host.settings.heartbeatIntervalNs());
    this.monitor = new HeartbeatMonitor(host.settings.heartbeatIntervalNs(), host.settings.missedHeartbeats());
  }

  void startHeartbeats() {
    lastBeatAt = host.now;
    if (host.guest.modelTime()) {
      modelHeartbeats.start(lastBeatAt); // scheduled when the endpoint joins the kernel, if not yet
      return;
    }
    timers.startTimerAtFixedRate(HEARTBEAT_KEY, HeartbeatTick.INSTANCE,
        host.settings.wall(host.settings.heartbeatIntervalNs()));
  }

  void stopHeartbeats() {
    timers.cancel(HEARTBEAT_KEY);
    modelHeartbeats.stop();
  }

  /** The master's heartbeat tick: one beat to the backup, an interval after the last. */
  void beat() {
    // A timer's deadline is its model time: beats stay an interval apart whatever the wall jitter.
    host.now = Math.max(host.now, lastBeatAt + host.settings.heartbeatIntervalNs());
    lastBeatAt = host.now;
    if (host.peer != null) {
      host.peer.tell(new Heartbeat(host.name, host.now, host.context.getSelf(), host.holdHeartbeats));
    }
  }

  /**
   * The master's heartbeat wake at model time {@code at}: one beat to the backup on the guest
   * channel (there a model-time event the link's latency later), and the next wake an interval on.
   */
  void beatAt(long at) {
    host.now = Math.max(host.now, at);
    lastBeatAt = at;
    Heartbeat beat = new Heartbeat(host.name, at, host.context.getSelf(), host.holdHeartbeats);
    if (host.peerGuest != null) {
      host.guest.send(host.peerGuest, beat, at);
    } else if (host.peer != null) {
      host.peer.tell(beat); // the backup runs next to no endpoint: its arrival time is computed there
    }
    modelHeartbeats.next(at);
  }

  /**
   * The host's endpoint joined the kernel: a master's heartbeats and a backup's deadline begin,
   * from the model times they had (a boot's pairing is at a time nothing else moves).
   */
  void kernelStarted() {
    if (modelHeartbeats.beating()) {
      modelHeartbeats.next(lastBeatAt);
    }
    if (monitor.watching() && !monitor.suspected()) {
      wakeAtDeadline(true);
    }
  }

  /** The backup's wake just past the heartbeat deadline (see {@link ModelHeartbeats#wakeAfter}). */
  void wakeAtDeadline(boolean background) {
    modelHeartbeats.wakeAfter(monitor.deadline(), background);
  }

  /**
   * Learns of the peer's end from death watch (a stopped actor, or its node downed): a backup's
   * master, a handing-over master's backup. One watch per peer, whichever role set it.
   */
  void watchPeer() {
    if (host.peer != null && !host.peer.equals(watchedPeer)) {
      watchedPeer = host.peer;
      host.context.watchWith(host.peer, new PeerGone(host.peer));
    }
  }

  void unwatchPeer() {
    if (watchedPeer != null) {
      host.context.unwatch(watchedPeer);
      watchedPeer = null;
    }
  }

  /** A heartbeat (or the pairing, the master's first sign of life) sent at {@code sentAt}. */
  void watchHeartbeat(long sentAt) {
    heartbeatArrived(sentAt, sentAt + host.settings.linkLatencyNs());
  }

  /**
   * A heartbeat sent at {@code sentAt} arrived at model time {@code arrivedAt}. Once the master is
   * known gone (a heartbeat still on its way when it died), the new deadline's wake still keeps the
   * rack running.
   */
  void heartbeatArrived(long sentAt, long arrivedAt) {
    host.now = Math.max(host.now, arrivedAt);
    monitor.heartbeat(sentAt, arrivedAt);
    wakeAtDeadline(!masterKnownGone);
  }

  /** The master is known gone: the deadline's wakes from now on keep the rack running to it. */
  void masterKnownGone() {
    masterKnownGone = true;
    wakeAtDeadline(false);
  }

  /** Watches a master afresh (a pairing, a role change): nothing known of it yet. */
  void resetWatch() {
    monitor.reset();
    masterKnownGone = false;
  }
}
