package io.rackfabric.host.management;

import akka.actor.typed.ActorRef;
import akka.actor.typed.javadsl.TimerScheduler;
import io.rackfabric.fabric.endpoint.GuestCall;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import java.time.Duration;

/**
 * When {@link ManagementHost} next checks for lost acknowledgements (the retransmission rule of
 * {@link io.rackfabric.host.failover.FailoverCoordinator}): under the model-time kernel one wake
 * of its root endpoint at the earliest overdue acknowledgement, a stale one taken back; otherwise
 * a wall-clock timer while a round waits for acknowledgements.
 */
final class RetransmitCheck {

  private static final String CHECK_ACKS = "check-acks";

  private final ActorRef<MemoryEndpoint.Command> endpoint;
  private final ActorRef<GuestCall> calls;
  private final TimerScheduler<ManagementHost.Command> timers;
  private final ManagementHost.Command tick;
  /** How often the rule is checked on the wall clock: a quarter of the grace, so it fires close to it. */
  private final Duration checkInterval;
  /** The endpoint runs under the model-time kernel: the rule runs on model-time wakes. */
  private boolean underKernel;
  /** The current wake's token and model time ({@code Long.MAX_VALUE}: none asked for). */
  private long ackWake;
  private long ackWakeAt = Long.MAX_VALUE;

  /**
   * @param calls the MH's guest channel, whose wakes the endpoint calls
   * @param tick the message the wall-clock timer sends
   */
  RetransmitCheck(ActorRef<MemoryEndpoint.Command> endpoint, ActorRef<GuestCall> calls,
      TimerScheduler<ManagementHost.Command> timers, ManagementHost.Command tick, Duration checkInterval) {
    this.endpoint = endpoint;
    this.calls = calls;
    this.timers = timers;
    this.tick = tick;
    this.checkInterval = checkInterval;
  }

  /** The endpoint said whether it runs under the kernel. */
  void attached(boolean kernel) {
    underKernel = kernel;
  }

  boolean underKernel() {
    return underKernel;
  }

  /** Whether {@code token} is the wake asked for last; if so it is spent. */
  boolean woke(long token) {
    if (token != ackWake) {
      return false;
    }
    ackWakeAt = Long.MAX_VALUE;
    return true;
  }

  /**
   * After a step: under the kernel, one wake at {@code nextDeadline} (the earliest overdue
   * acknowledgement, {@code Long.MAX_VALUE} for none); else the timer runs while {@code awaiting}.
   */
  void rearm(long nextDeadline, boolean awaiting) {
    if (underKernel) {
      if (nextDeadline != ackWakeAt) {
        if (ackWakeAt != Long.MAX_VALUE) {
          // The wake asked for earlier is stale: taken back, so it keeps the rack running no longer.
          endpoint.tell(new MemoryEndpoint.CancelWake(calls, ackWake));
        }
        ackWakeAt = nextDeadline;
        ackWake++;
        if (nextDeadline != Long.MAX_VALUE) {
          endpoint.tell(new MemoryEndpoint.WakeGuest(calls, nextDeadline, ackWake));
        }
      }
    } else if (!awaiting) {
      timers.cancel(CHECK_ACKS);
    } else if (!timers.isTimerActive(CHECK_ACKS)) {
      timers.startTimerWithFixedDelay(CHECK_ACKS, tick, checkInterval);
    }
  }
}
