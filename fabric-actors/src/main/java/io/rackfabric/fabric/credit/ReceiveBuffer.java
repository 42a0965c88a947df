package io.rackfabric.fabric.credit;

import io.rackfabric.fabric.tlp.TlpClass;
import io.rackfabric.fabric.tlp.Tlps;

/**
 * The receiver's side of flow control: buffer sizes, what arrived, what was freed, and which
 * cumulative limits have been advertised. Credit returns are batched: an UpdateFC goes out when a
 * quarter of any buffer has been freed since the last one. That cannot deadlock: a sender blocked
 * on a TLP of d data credits means more than (size - d) credits are in the buffer or freed but
 * unadvertised, so once the receiver has freed everything more than (size - d) are unadvertised.
 * The data threshold is therefore capped at (size - largest TLP + 1), the largest TLP being the
 * smaller of the buffer and a {@link Tlps#MAX_LENGTH}-byte payload; a quarter alone would strand
 * a sender whose next TLP is more than three quarters of the buffer. Keepalives advertise
 * nothing new ({@link #advertised}): credit moves only when space is freed, in model time.
 */
public final class ReceiveBuffer {

  private final FcCredits size;
  private final long[] received = new long[6];
  private final long[] freed = new long[6];
  private final long[] advertisedFreed = new long[6];
  private final long[] threshold = new long[6];

  public ReceiveBuffer(FcCredits size) {
    this.size = size;
    for (TlpClass c : TlpClass.ALL) {
      threshold[2 * c.ordinal()] = Math.max(1, size.header(c) / 4);
      long data = size.data(c);
      long largestTlp = Math.min(data, Tlps.MAX_LENGTH / Tlps.BYTES_PER_DATA_CREDIT);
      threshold[2 * c.ordinal() + 1] = Math.max(1, Math.min(data / 4, data - largestTlp + 1));
    }
  }

  public FcCredits size() {
    return size;
  }

  /** Clears all counters; the link is (re)training. */
  public void reset() {
    for (int i = 0; i < 6; i++) {
      received[i] = freed[i] = advertisedFreed[i] = 0;
    }
  }

  /**
   * Accounts an arriving TLP. Returns false when it exceeds what was advertised: the sender broke
   * flow control (a receiver overflow error); the TLP must be dropped and not freed.
   */
  public boolean arrive(TlpClass c, int dataCredits) {
    int h = 2 * c.ordinal();
    if (received[h] + 1 > size.header(c) + advertisedFreed[h]
        || received[h + 1] + dataCredits > size.data(c) + advertisedFreed[h + 1]) {
      return false;
    }
    received[h] += 1;
    received[h + 1] += dataCredits;
    return true;
  }

  /** Frees buffer space; returns true when enough has accumulated to send an UpdateFC now. */
  public boolean free(TlpClass c, int headers, int dataCredits) {
    int h = 2 * c.ordinal();
    freed[h] += headers;
    freed[h + 1] += dataCredits;
    if (freed[h] > received[h] || freed[h + 1] > received[h + 1]) {
      throw new IllegalStateException("freed more " + c + " credits than received");
    }
    return freed[h] - advertisedFreed[h] >= threshold[h]
        || freed[h + 1] - advertisedFreed[h + 1] >= threshold[h + 1];
  }

  /** Whether anything was freed since the last advertisement. */
  public boolean hasUnadvertised() {
    for (int i = 0; i < 6; i++) {
      if (freed[i] != advertisedFreed[i]) {
        return true;
      }
    }
    return false;
  }

  /** The cumulative limits to advertise now; marks everything freed so far as advertised. */
  public FcCredits advertise() {
    long[] header = new long[3];
    long[] data = new long[3];
    for (TlpClass c : TlpClass.ALL) {
      int h = 2 * c.ordinal();
      advertisedFreed[h] = freed[h];
      advertisedFreed[h + 1] = freed[h + 1];
      header[c.ordinal()] = size.header(c) + freed[h];
      data[c.ordinal()] = size.data(c) + freed[h + 1];
    }
    return FcCredits.of(header, data);
  }

  /** The cumulative limits advertised last, without advertising anything new (a keepalive). */
  public FcCredits advertised() {
    long[] header = new long[3];
    long[] data = new long[3];
    for (TlpClass c : TlpClass.ALL) {
      int h = 2 * c.ordinal();
      header[c.ordinal()] = size.header(c) + advertisedFreed[h];
      data[c.ordinal()] = size.data(c) + advertisedFreed[h + 1];
    }
    return FcCredits.of(header, data);
  }

  /** Header credits currently held in the buffer for class c. */
  public long occupiedHeaders(TlpClass c) {
    return received[2 * c.ordinal()] - freed[2 * c.ordinal()];
  }

  /** Data credits currently held in the buffer for class c. */
  public long occupiedData(TlpClass c) {
    return received[2 * c.ordinal() + 1] - freed[2 * c.ordinal() + 1];
  }
}
