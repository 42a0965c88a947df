package io.rackfabric.fabric.switchchip;

import akka.actor.typed.ActorRef;
import io.rackfabric.fabric.credit.EgressReleases;
import io.rackfabric.fabric.credit.MulticastShadow;
import io.rackfabric.fabric.link.LinkEnd;
import io.rackfabric.fabric.time.PortTime;
import io.rackfabric.fabric.tlp.Tlp;
import io.rackfabric.fabric.tlp.TlpClass;
import io.rackfabric.fabric.tlp.Tlps;
import java.util.Arrays;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * One port's side of the chip's crossbar: its sibling ports, the model-time channel to each (a
 * switch latency across the chip), and the ingress buffer space that crosses the chip. A TLP that
 * came in through a sibling and leaves here keeps that sibling's buffer until it has left, and the
 * space goes back in batches ({@link EgressReleases}); a multicast TLP that came in here took its
 * buffer once, so the releases of all its copies but one are absorbed before the link partner
 * gets credit back ({@link MulticastShadow}).
 */
final class Crossbar {

  private static final int PORTS = 32;

  private final int number;
  private final long switchLatencyNs;
  private final LinkEnd link;
  private final PortTime time;
  @SuppressWarnings("unchecked")
  private final ActorRef<SwitchPort.Command>[] siblings = new ActorRef[PORTS];
  /** The time keeper's channel to each sibling, -1 until declared. */
  private final int[] channel = new int[PORTS];
  private final EgressReleases releases;
  private final MulticastShadow shadow = new MulticastShadow();

  Crossbar(int number, long switchLatencyNs, int releaseBatch, LinkEnd link, PortTime time) {
    this.number = number;
    this.switchLatencyNs = switchLatencyNs;
    this.link = link;
    this.time = time;
    this.releases = new EgressReleases(releaseBatch);
    Arrays.fill(channel, -1);
  }

  void siblings(Map<Integer, ActorRef<SwitchPort.Command>> ports) {
    ports.forEach((n, ref) -> siblings[n] = ref);
  }

  /**
   * Declares a model-time channel to each sibling known so far, named by {@code names}, with its
   * {@code lookahead} (the least crossing of the chip between the two ports), until the port has
   * joined its time keeper: counted from the first message, as the link is.
   */
  void declare(IntFunction<String> names, java.util.function.IntToLongFunction lookahead) {
    if (time.joined()) {
      return;
    }
    for (int n = 0; n < siblings.length; n++) {
      if (siblings[n] != null && n != number && channel[n] < 0) {
        channel[n] = time.declare(names.apply(n), lookahead.applyAsLong(n));
      }
    }
  }

  /** Each sibling port's number, ascending (this port's own excluded). */
  void forEachSibling(java.util.function.IntConsumer action) {
    for (int n = 0; n < siblings.length; n++) {
      if (n != number && siblings[n] != null) {
        action.accept(n);
      }
    }
  }

  /** Whether sibling {@code port} is running. */
  boolean has(int port) {
    return port >= 0 && port < siblings.length && siblings[port] != null; // a source route may name any number
  }

  /** Tells sibling {@code port} a model-time message, counted for the time keeper. */
  void tell(int port, SwitchPort.Command msg) {
    siblings[port].tell(msg);
    if (channel[port] >= 0) {
      time.sent(channel[port]);
    }
  }

  /** A TLP from {@code ingress} was queued on this port's link. */
  void queued(int ingress) {
    releases.queued(ingress);
  }

  /** A TLP counted by {@link #queued} was refused by the link after all. */
  void unqueued(int ingress) {
    releases.unqueued(ingress);
  }

  /** A queued TLP from {@code ingress} left at model {@code at}. */
  void transmitted(int ingress, Tlp tlp, long at) {
    returnSpace(releases.transmitted(ingress, tlp, at));
  }

  /** A TLP from {@code ingress} was consumed or refused here without being queued. */
  void consumed(int ingress, Tlp tlp, long at) {
    returnSpace(releases.consumed(ingress, tlp, at));
  }

  /** A queued TLP from {@code ingress} was lost with the link at model {@code at}. */
  void purged(int ingress, Tlp tlp, long at) {
    releases.purged(ingress, tlp, at);
  }

  /** Returns everything owed to every sibling (the link went down: nothing more will leave). */
  void flushAll() {
    for (int i = 0; i < PORTS; i++) {
      returnSpace(releases.flush(i));
    }
  }

  /** A TLP that came in here went to {@code copies} siblings (at least one). */
  void replicated(Tlp tlp, int copies) {
    shadow.replicated(tlp.tlpClass(), copies, Tlps.dataCredits(tlp));
  }

  /** A sibling gave back buffer space of TLPs that came in here: free on the link what is left. */
  void released(int[] headers, int[] data, long at) {
    for (TlpClass c : TlpClass.ALL) {
      int i = c.ordinal();
      long h = shadow.absorbHeaders(c, headers[i]);
      long d = shadow.absorbData(c, data[i]);
      if (h > 0 || d > 0) {
        link.free(c, (int) h, (int) d, at);
      }
    }
  }

  /**
   * Sends a batch of freed buffer space back to the ingress port it belongs to, across the chip:
   * it is free there a switch latency after it was freed here (never before now).
   */
  private void returnSpace(EgressReleases.Batch batch) {
    if (batch != null && siblings[batch.ingress()] != null) {
      long at = Math.max(batch.at(), time.now()) + switchLatencyNs;
      tell(batch.ingress(), new SwitchPort.CreditsReleased(batch.headers(), batch.data(), at, number));
    }
  }
}
