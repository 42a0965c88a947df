package io.rackfabric.fabric.credit;

import io.rackfabric.fabric.tlp.Tlp;
import io.rackfabric.fabric.tlp.Tlps;

/**
 * An egress port's debt to its ingress siblings: the receive-buffer space of every TLP that came
 * in through port i stays taken until the TLP has left through this egress port, and is then
 * returned to port i in batches. A batch goes back when it reaches {@code batchSize} TLPs, or at
 * once when port i has nothing left queued here, so an ingress buffer can never be held hostage
 * by a busy egress that no longer carries its traffic.
 */
public final class EgressReleases {

  /** Buffer space returned to one ingress port; {@code at} is when the last of it was freed. */
  public record Batch(int ingress, int[] headers, int[] data, long at) {}

  private static final int PORTS = 32;
  private final int batchSize;
  private final int[][] owedHeaders = new int[PORTS][3];
  private final int[][] owedData = new int[PORTS][3];
  private final int[] queuedFrom = new int[PORTS];
  private final long[] owedSince = new long[PORTS];

  public EgressReleases(int batchSize) {
    if (batchSize < 1) {
      throw new IllegalArgumentException("batchSize=" + batchSize + " must be at least 1");
    }
    this.batchSize = batchSize;
  }

  /** A TLP from {@code ingress} was queued here. */
  public void queued(int ingress) {
    queuedFrom[ingress]++;
  }

  /** A TLP counted by {@link #queued} was refused after all; nothing is owed for it yet. */
  public void unqueued(int ingress) {
    queuedFrom[ingress]--;
  }

  /** A queued TLP left at model time {@code at}; returns a batch when one is due, else null. */
  public Batch transmitted(int ingress, Tlp tlp, long at) {
    queuedFrom[ingress]--;
    owe(ingress, tlp, at);
    int[] h = owedHeaders[ingress];
    return queuedFrom[ingress] == 0 || h[0] + h[1] + h[2] >= batchSize ? flush(ingress) : null;
  }

  /** A queued TLP was lost with the link; its space is owed but not returned yet. */
  public void purged(int ingress, Tlp tlp, long at) {
    queuedFrom[ingress]--;
    owe(ingress, tlp, at);
  }

  /** A TLP from {@code ingress} was consumed or refused here without being queued: return it now. */
  public Batch consumed(int ingress, Tlp tlp, long at) {
    owe(ingress, tlp, at);
    return flush(ingress);
  }

  /** Everything owed to {@code ingress}, or null when nothing is. */
  public Batch flush(int ingress) {
    int[] h = owedHeaders[ingress];
    int[] d = owedData[ingress];
    if (h[0] + h[1] + h[2] == 0) {
      return null;
    }
    Batch b = new Batch(ingress, h.clone(), d.clone(), owedSince[ingress]);
    h[0] = h[1] = h[2] = 0;
    d[0] = d[1] = d[2] = 0;
    return b;
  }

  public int queuedFrom(int ingress) {
    return queuedFrom[ingress];
  }

  private void owe(int ingress, Tlp tlp, long at) {
    owedSince[ingress] = Math.max(owedSince[ingress], at);
    int c = tlp.tlpClass().ordinal();
    owedHeaders[ingress][c]++;
    owedData[ingress][c] += Tlps.dataCredits(tlp);
  }
}
