package io.rackfabric.fabric.link;

import io.rackfabric.fabric.credit.FcCredits;
import io.rackfabric.fabric.credit.ReceiveBuffer;
import io.rackfabric.fabric.tlp.Tlp;
import io.rackfabric.fabric.tlp.TlpClass;
import io.rackfabric.fabric.tlp.Tlps;

/**
 * The receiving half of one link end's flow control: the receive buffer the partner's credits
 * stand for, and the credit handed back as its owner frees the space, stamped with when it was
 * freed. Space still held when the link went down belongs to a training that is gone: its frees
 * are absorbed here rather than returned to the partner of the next training.
 */
final class ReceiveCredits {

  private final ReceiveBuffer buffer;
  /** Receive-buffer space held when the link last went down, still to be freed by the owner. */
  private final long[] staleHeaders = new long[3];
  private final long[] staleData = new long[3];
  private long lastFreedAt;

  ReceiveCredits(FcCredits size) {
    this.buffer = new ReceiveBuffer(size);
  }

  /** The buffer sizes an InitFC advertises. */
  FcCredits size() {
    return buffer.size();
  }

  /** Accounts an arriving TLP; false when the partner sent it beyond the advertised credits. */
  boolean arrive(Tlp tlp) {
    return buffer.arrive(tlp.tlpClass(), Tlps.dataCredits(tlp));
  }

  /**
   * The owner freed space at model {@code modelAt}. Returns true when an UpdateFC is due now (see
   * {@link #update}); never while the link is not {@code up}.
   */
  boolean free(TlpClass c, int headers, int dataCredits, long modelAt, boolean up) {
    int i = c.ordinal();
    long absorbHeaders = Math.min(headers, staleHeaders[i]);
    long absorbData = Math.min(dataCredits, staleData[i]);
    staleHeaders[i] -= absorbHeaders;
    staleData[i] -= absorbData;
    headers -= (int) absorbHeaders;
    dataCredits -= (int) absorbData;
    if ((headers == 0 && dataCredits == 0) || !up) {
      return false;
    }
    lastFreedAt = Math.max(lastFreedAt, modelAt);
    return buffer.free(c, headers, dataCredits);
  }

  /**
   * An UpdateFC advertising everything freed so far. Stamped with when the space was freed, not
   * with the latest time the end has seen: credit must not reach the sender later in model time
   * than the buffer really emptied.
   */
  UpdateFc update() {
    return new UpdateFc(buffer.advertise(), lastFreedAt);
  }

  /**
   * A keepalive: the limits last advertised, nothing newly freed. Credit reaches the partner only
   * through {@link #update}, at the model time the space was freed; a keepalive sent when the
   * wall-clock timer fires must not hand it over earlier or later than that.
   */
  UpdateFc keepalive() {
    return new UpdateFc(buffer.advertised(), lastFreedAt, true);
  }

  /** The partner took our credits afresh (a new training): the buffer counts from zero. */
  void reset() {
    buffer.reset();
  }

  /** The link went down: what the buffer holds is freed later, and absorbed then. */
  void linkDown() {
    for (TlpClass c : TlpClass.ALL) {
      staleHeaders[c.ordinal()] += buffer.occupiedHeaders(c);
      staleData[c.ordinal()] += buffer.occupiedData(c);
    }
    buffer.reset();
  }
}
