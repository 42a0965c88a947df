package io.rackfabric.host.device;

import io.rackfabric.fabric.tlp.CompletionStatus;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * How a driver tells a slow device from a gone one (Device Lending, section 4: a lent device may
 * vanish with its lender, and the borrower must see it as a surprise removal). Each awaited
 * interrupt has a deadline, a watchdog period after the wait began. At the deadline the driver does
 * what Linux drivers do on a missed interrupt: it reads a register of the device. A device that
 * answers with a plausible value is alive and merely slow, and the wait starts over. An Unsupported
 * Request or Completer Abort completion, data of all ones (what a read of a removed device returns
 * on real hardware), or no answer within another period (a completion timeout) is a removal, at
 * that model time. Every decision is stepped with explicit model times; a plain class.
 */
public final class DeviceWatchdog {

  /** What a step decided. */
  public enum Verdict {
    /** Nothing to do (a stale deadline, or the device answered alive). */
    WAIT,
    /** The deadline passed: read a register of the device to see whether it is still there. */
    PROBE,
    /** The device is gone. */
    REMOVED
  }

  /** No deadline. */
  public static final long NONE = Long.MAX_VALUE;

  private final long periodNs;
  private long deadline = NONE;
  private boolean probing;
  /** When the last probe was issued. */
  private long probeAt;
  private String reason = "";

  /** @param periodNs model ns an interrupt, or a probe's answer, may take before the driver looks */
  public DeviceWatchdog(long periodNs) {
    if (periodNs <= 0) {
      throw new IllegalArgumentException("periodNs=" + periodNs + " must be positive");
    }
    this.periodNs = periodNs;
  }

  /** A wait began at {@code at} (a doorbell rung): its interrupt is due one period later. */
  public void expect(long at) {
    deadline = at + periodNs;
    probing = false;
  }

  /** Nothing is awaited any more (the interrupt came, or the driver is done). */
  public void stop() {
    deadline = NONE;
    probing = false;
  }

  /** The model time at which {@link #expired} must be called, or {@link #NONE}. */
  public long deadline() {
    return deadline;
  }

  public boolean probing() {
    return probing;
  }

  /** Why the device was declared removed; empty before. */
  public String reason() {
    return reason;
  }

  /**
   * The driver's wake at model {@code at}: {@link Verdict#PROBE} when the interrupt's deadline
   * passed (the probe's answer is then due one period later), {@link Verdict#REMOVED} when the
   * probe's did, {@link Verdict#WAIT} for a wake before the deadline (a stale one).
   */
  public Verdict expired(long at) {
    if (deadline == NONE || at < deadline) {
      return Verdict.WAIT;
    }
    if (!probing) {
      probing = true;
      probeAt = at;
      deadline = at + periodNs;
      return Verdict.PROBE;
    }
    return removed("the register read issued at " + (deadline - periodNs) + " ns had no completion by "
        + at + " ns (completion timeout)");
  }

  /**
   * Whether an answer to a read issued at {@code issuedAt} (negative: not known) is the open
   * probe's. A probe's answer that comes after a later probe was issued (the first went through
   * registers a window move has since left) is not taken for the later one's.
   */
  public boolean answers(long issuedAt) {
    return probing && (issuedAt < 0 || issuedAt == probeAt);
  }

  /** The model time of a probe's answer that came {@code latencyNs} after the probe was issued. */
  public long answeredAt(long latencyNs) {
    return probeAt + latencyNs;
  }

  /**
   * The probe's answer at model {@code at}: removed on an error completion or all-ones data;
   * otherwise the device is alive and the wait starts over from {@code at}. An answer when no probe
   * is open (the interrupt came meanwhile) is {@link Verdict#WAIT} and changes nothing.
   */
  public Verdict probeAnswered(CompletionStatus status, byte[] data, long at) {
    if (!probing) {
      return Verdict.WAIT;
    }
    if (status != CompletionStatus.SUCCESSFUL) {
      return removed("its register read was answered " + status + " at " + at + " ns");
    }
    if (data == null || data.length < 4 || ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN).getInt() == -1) {
      return removed("its register read returned all ones at " + at + " ns");
    }
    expect(at);
    return Verdict.WAIT;
  }

  private Verdict removed(String why) {
    reason = why;
    stop();
    return Verdict.REMOVED;
  }
}
