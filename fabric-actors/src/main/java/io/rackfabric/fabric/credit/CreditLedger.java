package io.rackfabric.fabric.credit;

import io.rackfabric.fabric.tlp.TlpClass;

/**
 * The transmitter's view of its link partner's receive buffers. PCIe style: the partner advertises
 * cumulative credit limits; the transmitter counts what it consumed; available = limit - consumed.
 * Because limits are cumulative, a lost or reordered UpdateFC is harmless: the next one heals it.
 */
public final class CreditLedger {

  private final long[] limitHeader = new long[3];
  private final long[] limitData = new long[3];
  private final long[] consumedHeader = new long[3];
  private final long[] consumedData = new long[3];
  private boolean initialised;

  /** Resets everything; the link is (re)training. */
  public void reset() {
    for (int i = 0; i < 3; i++) {
      limitHeader[i] = limitData[i] = consumedHeader[i] = consumedData[i] = 0;
    }
    initialised = false;
  }

  /** Takes the partner's InitFC limits (its buffer sizes). */
  public void initialise(FcCredits limits) {
    reset();
    update(limits);
    initialised = true;
  }

  public boolean initialised() {
    return initialised;
  }

  /** Applies an UpdateFC: limits only ever grow, so an older, smaller one is ignored. */
  public void update(FcCredits limits) {
    for (TlpClass c : TlpClass.ALL) {
      int i = c.ordinal();
      limitHeader[i] = Math.max(limitHeader[i], limits.header(c));
      limitData[i] = Math.max(limitData[i], limits.data(c));
    }
  }

  public boolean canSend(TlpClass c, int dataCredits) {
    int i = c.ordinal();
    return consumedHeader[i] + 1 <= limitHeader[i]
        && consumedData[i] + dataCredits <= limitData[i];
  }

  public void consume(TlpClass c, int dataCredits) {
    if (!canSend(c, dataCredits)) {
      throw new IllegalStateException("no credit for " + c + " with " + dataCredits + " data credits");
    }
    int i = c.ordinal();
    consumedHeader[i] += 1;
    consumedData[i] += dataCredits;
  }

  public long availableHeader(TlpClass c) {
    return limitHeader[c.ordinal()] - consumedHeader[c.ordinal()];
  }

  public long availableData(TlpClass c) {
    return limitData[c.ordinal()] - consumedData[c.ordinal()];
  }
}
