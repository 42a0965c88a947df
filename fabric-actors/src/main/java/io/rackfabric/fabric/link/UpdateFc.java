package io.rackfabric.fabric.link;

import io.rackfabric.fabric.credit.FcCredits;

/**
 * UpdateFC DLLP: cumulative credit limits. A {@code keepalive} (the periodic one of an idle link,
 * or the answer to a repeated InitFC) repeats the limits last advertised and only proves the
 * partner alive: it gives no new credit, so it cannot change when a sender may send.
 */
public record UpdateFc(FcCredits limits, long sentAt, boolean keepalive) implements LinkFrame {

  /** A credit update (not a keepalive). */
  public UpdateFc(FcCredits limits, long sentAt) {
    this(limits, sentAt, false);
  }
}
