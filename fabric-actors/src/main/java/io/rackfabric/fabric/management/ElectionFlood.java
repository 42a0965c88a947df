package io.rackfabric.fabric.management;

import io.rackfabric.fabric.link.DataLinkState;
import java.util.ArrayList;
import java.util.List;

/**
 * One device's part in the fabric-manager election (AS-FM section 4, over the spanning-tree
 * capability): a claim that arrives is offered to the device's capability, which keeps the best
 * two claims it has seen; only a claim that changed them (became the best or the second best) is
 * passed on, out of every trained port but the one it came in through. A claim that changes
 * nothing is suppressed here.
 *
 * <p>Why the outcome does not depend on start-up order or timing: the global best two claims are
 * the best two of every subset of claims that contains them, so at every device, whenever one of
 * them arrives, it is among that device's best two (or already there) and goes on; it therefore
 * crosses every link of a connected fabric and reaches every device, and every device ends with
 * exactly the global best two. Suppression only stops claims that cannot be among them. Plain,
 * no clock: the device's actor gives it what arrives and sends what it returns.
 */
public final class ElectionFlood {

  private final ConfigurationSpace space;
  private long received;
  private long forwarded;
  private long suppressed;
  /** The model time the best two last changed here; -1: never. */
  private long lastChangeAt = -1;

  public ElectionFlood(ConfigurationSpace space) {
    this.space = space;
  }

  /**
   * {@code claim} arrived through port {@code ingress} (-1: the device's own claim, made here) at
   * model {@code at}: the ports to pass it on through, empty when it changed nothing.
   */
  public List<Integer> onClaim(ElectionClaim claim, int ingress, long at) {
    if (ingress >= 0) {
      received++;
    }
    if (!space.spanningTree().offer(claim.claim())) {
      suppressed++;
      return List.of();
    }
    lastChangeAt = at;
    List<Integer> out = new ArrayList<>();
    for (int p = 0; p < space.device().ports().size(); p++) {
      DataLinkState s = space.portState(p);
      if (p != ingress && (s == DataLinkState.DL_PROTECTED || s == DataLinkState.DL_ACTIVE)) {
        out.add(p);
      }
    }
    forwarded += out.size();
    return out;
  }

  /** The best claim this device has seen; null: none. */
  public ElectionClaim primary() {
    SpanningTreeCapability.Claim c = space.spanningTree().primary();
    return c == null ? null : ElectionClaim.of(c);
  }

  /** The second best; null: none. */
  public ElectionClaim secondary() {
    SpanningTreeCapability.Claim c = space.spanningTree().secondary();
    return c == null ? null : ElectionClaim.of(c);
  }

  public long received() {
    return received;
  }

  /** Copies sent on (one per port). */
  public long forwarded() {
    return forwarded;
  }

  /** Claims that changed nothing and went no further. */
  public long suppressed() {
    return suppressed;
  }

  public long lastChangeAt() {
    return lastChangeAt;
  }
}
