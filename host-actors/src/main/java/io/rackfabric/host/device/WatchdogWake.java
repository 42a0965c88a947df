package io.rackfabric.host.device;

import io.rackfabric.fabric.endpoint.GuestCall;

/**
 * A device driver's one watchdog wake ({@link DeviceWatchdog}): a model-time wake of its endpoint
 * at the driver's current deadline, moved when the deadline moves (the old wake taken back, a new
 * one asked for under a new token) and forgotten once it came. Only under the model-time kernel:
 * free-running a wake would be due at once, so there is none. Not thread-safe: the driver actor's
 * own.
 */
public final class WatchdogWake {

  private final WatchingGuest guest;
  private boolean underKernel;
  /** The wake asked for: its token and model time ({@code Long.MAX_VALUE}: none). */
  private long token;
  private long at = Long.MAX_VALUE;

  /** @param firstToken the tokens the driver's other wakes use are at most this; the watchdog's are above */
  public WatchdogWake(WatchingGuest guest, long firstToken) {
    this.guest = guest;
    this.token = firstToken;
  }

  /** The endpoint told the driver whether it runs under the kernel. */
  public void attached(boolean underKernel) {
    this.underKernel = underKernel;
  }

  /** Whether {@code call} is the watchdog's wake; if so it is spent. */
  public boolean came(GuestCall call) {
    if (call instanceof GuestCall.Wake w && w.token() == token && at != Long.MAX_VALUE) {
      at = Long.MAX_VALUE;
      return true;
    }
    return false;
  }

  /** Moves the wake to {@code deadline} ({@link DeviceWatchdog#NONE}: none). */
  public void rearm(long deadline) {
    if (!underKernel || deadline == at) {
      return;
    }
    if (at != Long.MAX_VALUE) {
      guest.cancelWake(token);
    }
    at = deadline;
    if (deadline != Long.MAX_VALUE) {
      guest.wake(deadline, ++token);
    }
  }

  /**
   * The device was hot-removed at model {@code at} for {@code reason} (the controller ended its
   * loan): applied to {@code sequence} (null: the driver runs no plan), this wake moved to what it
   * still awaits (nothing), and {@code replyTo} told the removal's time as {@code driver}'s. True
   * when a plan still running was removed: the driver reports its end then, after the remover was
   * told.
   */
  public boolean hotRemove(RemovableSequence sequence, String driver, long at, String reason,
      akka.actor.typed.ActorRef<HotRemoved> replyTo) {
    boolean removed = sequence != null && !sequence.over();
    if (removed) {
      sequence.hotRemoved(at, reason);
      rearm(sequence.watchdogDeadline());
    }
    replyTo.tell(new HotRemoved(driver, removed ? at : HotRemoved.NONE));
    return removed;
  }
}
