package io.rackfabric.fabric.link;

import io.rackfabric.fabric.tlp.Tlp;
import io.rackfabric.fabric.tlp.TlpClass;
import io.rackfabric.fabric.tlp.Tlps;
import java.util.function.LongConsumer;

/**
 * The receiving side of one link end: when each frame from the partner takes effect in model
 * time ({@link #arrival}), and what it does there: a TLP goes into the receive buffer (plain, or
 * under the data link retry, which takes only the expected sequence number), a corrupt one and an
 * Ack or Nak go to the retry, a credit update to the transmitter, training frames and the
 * partner's physical down to link management. Space freed in the receive buffer goes back to the
 * partner as an UpdateFC. A retraining's InitFC under the kernel ({@link InitFc#timed}) is a
 * model-time frame too.
 *
 * <p>Not thread-safe: one owner, the link end.
 */
final class Reception {

  /** Credit DLLPs and Acks are 8 bytes on the wire (6 + framing). */
  static final int DLLP_BYTES = 8;

  private final LinkParameters params;
  private final LinkStateMachine machine;
  private final LinkTraining training;
  private final Transmitter tx;
  private final ReceiveCredits receive;
  private final DataLinkRetry retry;
  private final LinkCounters counters;
  private final LinkEnd.Listener listener;
  /** Advances the end's model clock. */
  private final LongConsumer observe;

  Reception(LinkParameters params, LinkStateMachine machine, LinkTraining training, Transmitter tx,
      ReceiveCredits receive, DataLinkRetry retry, LinkCounters counters, LinkEnd.Listener listener,
      LongConsumer observe) {
    this.params = params;
    this.machine = machine;
    this.training = training;
    this.tx = tx;
    this.receive = receive;
    this.retry = retry;
    this.counters = counters;
    this.listener = listener;
    this.observe = observe;
  }

  /** See {@link LinkEnd#modelArrival}: the frame's send stamp plus its flight, or -1. */
  static long arrival(LinkParameters params, LinkFrame frame) {
    if (frame instanceof TlpFrame f) {
      return f.sentAt() + params.flightNs(Tlps.wireBytes(f.tlp()));
    }
    if (frame instanceof SequencedTlp s) {
      return s.sentAt() + params.flightNs(Tlps.wireBytes(s.tlp()));
    }
    if (frame instanceof CorruptTlp c) {
      return c.sentAt() + params.flightNs(c.wireBytes());
    }
    if (frame instanceof AckNak a) {
      return a.sentAt() + params.flightNs(DLLP_BYTES);
    }
    if (frame instanceof UpdateFc u && !u.keepalive()) {
      return u.sentAt() + params.flightNs(DLLP_BYTES);
    }
    if (frame instanceof InitFc i && i.timed()) {
      return i.sentAt() + params.flightNs(DLLP_BYTES);
    }
    return -1;
  }

  /** See {@link LinkEnd#onFrame}. */
  long onFrame(LinkFrame frame) {
    if (frame instanceof TlpFrame f) {
      return mayReceive() ? intoReceiveBuffer(f.tlp(), arrival(params, f)) : -1;
    }
    if (frame instanceof SequencedTlp s) {
      return acceptSequenced(s);
    }
    if (frame instanceof CorruptTlp c) {
      if (mayReceive()) {
        retry.corrupted(arrival(params, c));
      }
      return -1;
    }
    if (frame instanceof AckNak a) {
      counters.dllpsReceived++;
      training.received();
      retry.onAckNak(a, arrival(params, a));
      return -1;
    }
    if (frame instanceof UpdateFc u) {
      onUpdateFc(u);
    } else if (frame instanceof InitFc i) {
      counters.dllpsReceived++;
      if (i.timed()) {
        observe.accept(arrival(params, i)); // a retraining's step, at its model time
      }
      training.onInitFc(i);
    } else if (frame instanceof PhysicalDown d) {
      // Down when the partner's electrical idle arrives, not at the latest time this end has seen:
      // a TLP stamped later that crossed first (actors run concurrently) must not delay the AER.
      long downAt = d.sentAt() + params.propagationNs();
      observe.accept(downAt);
      training.physicalDown(downAt, d.retraining());
    }
    return -1;
  }

  private void onUpdateFc(UpdateFc u) {
    counters.dllpsReceived++;
    if (u.keepalive()) {
      training.onKeepalive(); // liveness only: its limits were advertised before
      return;
    }
    long arrival = arrival(params, u);
    observe.accept(arrival);
    training.onUpdateFc();
    if (machine.isUp()) {
      tx.credit(u.limits(), arrival);
    }
  }

  /** Whether a TLP arriving now can be taken; counts it as dropped when the link is down. */
  private boolean mayReceive() {
    training.onTlpWhileTraining();
    if (!machine.mayReceive()) {
      counters.droppedLinkDown++;
      return false;
    }
    training.received();
    return true;
  }

  private long intoReceiveBuffer(Tlp tlp, long arrival) {
    if (!receive.arrive(tlp)) {
      counters.receiverOverflows++;
      return -1;
    }
    counters.tlpsReceived++;
    observe.accept(arrival);
    return arrival;
  }

  /**
   * A TLP under the data link retry: only the expected sequence number is taken (and uses buffer
   * space); a duplicate or one after a gap is discarded without using credit.
   */
  private long acceptSequenced(SequencedTlp s) {
    if (!mayReceive()) {
      return -1;
    }
    long arrival = arrival(params, s);
    int actions = retry.receive(s.seq(), arrival);
    if ((actions & ReplayReceiver.ACCEPT) == 0) {
      return -1;
    }
    long accepted = intoReceiveBuffer(s.tlp(), arrival);
    retry.accepted(actions, arrival);
    return accepted;
  }

  /** See {@link LinkEnd#free}: space left the receive buffer at model {@code modelAt}. */
  void free(TlpClass c, int headers, int dataCredits, long modelAt) {
    // Freed while an event is handled later than the TLP came (its end paused in the model): the
    // credit goes back when the space really empties.
    modelAt = Math.max(modelAt, tx.floor());
    observe.accept(modelAt);
    if (receive.free(c, headers, dataCredits, modelAt, machine.isUp())) {
      training.sendingDllp();
      listener.send(receive.update());
    }
  }
}
