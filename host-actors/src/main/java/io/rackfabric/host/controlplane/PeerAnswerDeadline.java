package io.rackfabric.host.controlplane;

import akka.actor.typed.javadsl.TimerScheduler;
import io.rackfabric.host.controlplane.ControlPlaneHost.AnswerDeadline;
import io.rackfabric.host.controlplane.ControlPlaneHost.Command;

/**
 * The time-out of a host waiting for the other host's answer (a rejoining host for its master's, a
 * master quiescing for a switchover for its backup's hand-over): {@code peer-answer-timeout} of
 * model time after the request. With model-time heartbeats it is a wake of the host's endpoint
 * ({@link HostGuest}; not a background one: a host waiting is work the rack runs on to), scheduled
 * once the endpoint runs under the kernel; else a wall-clock timer through the time-dilation factor
 * whose firing stands for the same model time. Either way the role is told the deadline's model
 * time, never the wall clock's. One deadline at a time; a wake or timer of one disarmed or
 * re-armed since is stale. Not thread-safe: the host's actor's own.
 */
final class PeerAnswerDeadline {

  /** The wake's token, beside the heartbeat deadline's ({@link ModelHeartbeats#DEADLINE}) and chains. */
  static final long TOKEN = 2;
  private static final Object TIMER_KEY = "peer-answer";

  private final HostGuest guest;
  private final TimerScheduler<Command> timers;
  private final ControlPlaneSettings settings;
  /** The armed deadline's model time, or -1. */
  private long dueAt = -1;
  private boolean woken;

  PeerAnswerDeadline(HostGuest guest, TimerScheduler<Command> timers, ControlPlaneSettings settings) {
    this.guest = guest;
    this.timers = timers;
    this.settings = settings;
  }

  /** Arms the deadline a time-out after {@code requestedAt} (model ns); returns its model time. */
  long arm(long requestedAt) {
    disarm();
    dueAt = requestedAt + settings.peerAnswerTimeoutNs();
    schedule();
    return dueAt;
  }

  private void schedule() {
    if (guest.modelTime()) {
      if (guest.running()) {
        guest.wake(dueAt, TOKEN, false);
        woken = true;
      }
      return;
    }
    timers.startSingleTimer(TIMER_KEY, new AnswerDeadline(dueAt), settings.wall(settings.peerAnswerTimeoutNs()));
  }

  /** The endpoint joined the kernel: a deadline armed before is scheduled now. */
  void kernelStarted() {
    if (dueAt >= 0 && !woken) {
      schedule();
    }
  }

  /** The answer came: the deadline is taken back (its wake keeps the rack running no longer). */
  void disarm() {
    if (dueAt < 0) {
      return;
    }
    if (woken) {
      guest.cancelWake(TOKEN);
    }
    timers.cancel(TIMER_KEY);
    dueAt = -1;
    woken = false;
  }

  /** Whether a wake or timer at model time {@code at} is the armed deadline; if so it is spent. */
  boolean reached(long at) {
    if (dueAt < 0 || at != dueAt) {
      return false;
    }
    dueAt = -1;
    woken = false;
    return true;
  }
}
