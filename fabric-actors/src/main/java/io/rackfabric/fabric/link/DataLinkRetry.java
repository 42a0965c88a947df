package io.rackfabric.fabric.link;

import io.rackfabric.fabric.tlp.Tlp;
import io.rackfabric.fabric.tlp.Tlps;

/**
 * The data link layer's retry at one link end, with the error injection it exists for. The
 * transmitter's half sequences what goes out and keeps it ({@link ReplayBuffer}), and sends it
 * again on a Nak or when the replay timer runs out; the receiver's half takes only the expected
 * sequence number and answers with Acks and Naks ({@link ReplayReceiver}). Both are created when
 * first needed: a link without injected errors sends plain {@link TlpFrame}s, keeps nothing and
 * sends no Acks. While errors are injected, and until everything sent under them is acknowledged,
 * TLPs go out sequenced and are kept for replay.
 *
 * <p>The timers (replay, coalesced Ack) are looked at on the wall-clock {@link #tick}, or, once the
 * owner runs in model time ({@link #useModelTimers}), are model-time events.
 */
final class DataLinkRetry {

  /** What the retry needs of its link end. */
  interface Host {
    /** Sends a frame to the partner. */
    void send(LinkFrame frame);

    /** Advances the end's model clock. */
    void observe(long modelAt);

    boolean isUp();

    /** DLLPs or TLPs went out: transmit activity for the link's wall-clock timers. */
    void sent();

    /** An Ack freed room in a replay buffer that may have been full. */
    void room();

    /** REPLAY_NUM rolled over at model {@code at}: the link must retrain. */
    void rollover(long at);

    /**
     * The model time of the event the owner is handling ({@link LinkEnd#beginEvent}), or
     * {@code Long.MIN_VALUE} outside one: nothing sent meanwhile is stamped earlier.
     */
    long eventFloor();
  }

  private final LinkParameters params;
  private final WireMeter meter;
  private final ReplayParameters replayParams;
  /** The egress wire's schedule, shared with first transmissions: a replay takes wire time too. */
  private final WireCalendar wire;
  private final LinkCounters counters;
  private final Host host;
  private ReplayBuffer replay;
  private ReplayReceiver replayRx;
  private ErrorInjector injector;
  /** Model arrival of the last TLP the replay receiver accepted: what a coalesced Ack carries. */
  private long lastAcceptedAt;
  /** Set once the owner's events run in model time: the retry's timers are then events too. */
  private LinkEnd.ModelTimers modelTimers;
  /** The replay timer deadline an event is scheduled for, so each is scheduled once. */
  private long armedReplayDeadline = -1;
  private boolean ackTimerArmed;

  DataLinkRetry(LinkParameters params, ReplayParameters replayParams, WireCalendar wire,
      LinkCounters counters, Host host) {
    this(params, replayParams, wire, counters, host, new WireMeter());
  }

  /** @param meter the link end's wire meter: a replay takes the wire as a first transmission does */
  DataLinkRetry(LinkParameters params, ReplayParameters replayParams, WireCalendar wire,
      LinkCounters counters, Host host, WireMeter meter) {
    this.meter = meter;
    this.params = params;
    this.replayParams = replayParams;
    this.wire = wire;
    this.counters = counters;
    this.host = host;
  }

  void useModelTimers(LinkEnd.ModelTimers timers) {
    this.modelTimers = timers;
  }

  /** Injects errors into what is transmitted from now on ({@link LinkErrors#NONE}: stop). */
  void injectErrors(LinkErrors errors) {
    injector = errors.any() ? new ErrorInjector(errors) : null;
    if (injector != null && replay == null) {
      replay = new ReplayBuffer(replayParams.bufferTlps(), replayParams.timeoutNs(),
          replayParams.limit(), replayParams.idleTicks());
    }
  }

  /** A full replay buffer stops transmission until an Ack frees it. */
  boolean full() {
    return replay != null && replay.full();
  }

  /** A TLP goes on the wire at model {@code start}: sequenced and kept, or as a plain frame. */
  void transmit(Tlp tlp, long start) {
    if (injector != null && injector.over(start) && replay.isEmpty()) {
      injector = null; // the window is over and everything sent under it is acknowledged
    }
    if (injector != null || (replay != null && !replay.isEmpty())) {
      transmitSequenced(tlp, replay.retain(tlp, start), start);
      armReplayTimer();
    } else {
      host.send(new TlpFrame(tlp, start));
    }
  }

  /** The wall-clock tick of an up link: coalesced Acks still owed, and the replay timer. */
  void tick() {
    if (modelTimers != null) {
      return; // they are model-time events
    }
    if (replayRx != null && (replayRx.tick() & ReplayReceiver.SEND_ACK) != 0) {
      sendAckNak(false, lastAcceptedAt);
    }
    if (replay != null) {
      long expired = replay.tick();
      if (expired >= 0) {
        counters.replayTimeouts++;
        host.observe(expired);
        startReplay(expired);
      }
    }
  }

  /**
   * A sequenced TLP arrived at model {@code arrival}. Returns the {@link ReplayReceiver} actions:
   * without {@link ReplayReceiver#ACCEPT} it was a duplicate or came after a gap, and is discarded
   * (and answered) here; with it the caller takes the TLP, then calls {@link #accepted}.
   */
  int receive(long seq, long arrival) {
    int actions = receiver().onTlp(seq);
    if ((actions & ReplayReceiver.ACCEPT) == 0) {
      host.observe(arrival);
      if (seq > receiver().nextExpected()) {
        counters.outOfSequence++;
      } else {
        counters.duplicatesDiscarded++;
      }
      answer(actions, arrival);
      return actions;
    }
    lastAcceptedAt = Math.max(lastAcceptedAt, arrival);
    return actions;
  }

  /** The TLP {@link #receive} accepted was taken: acknowledges it now or later. */
  void accepted(int actions, long arrival) {
    answer(actions, arrival);
    if (replayRx.owesAck()) {
      armAckTimer(arrival);
    }
  }

  /** A TLP that failed its LCRC arrived at model {@code arrival}. */
  void corrupted(long arrival) {
    counters.badLcrc++;
    host.observe(arrival);
    answer(receiver().onBadLcrc(), arrival);
  }

  void onAckNak(AckNak a, long arrival) {
    host.observe(arrival);
    if (replay == null || !host.isUp()) {
      return; // from before the link last went down: nothing it names is kept any more
    }
    if (a.nak()) {
      counters.naksReceived++;
      replay.onAck(a.seq(), arrival);
      startReplay(arrival);
    } else if (replay.onAck(a.seq(), arrival) > 0) {
      host.room();
    }
    armReplayTimer();
  }

  /** The link went down or retrains: everything kept is gone, numbering starts over. */
  void reset() {
    armedReplayDeadline = -1;
    if (replay != null) {
      counters.unackedOnDown += replay.outstanding();
      replay.reset();
    }
    if (replayRx != null) {
      replayRx.reset();
    }
  }

  /** Arms the model-time replay timer for its current deadline, once per deadline. */
  private void armReplayTimer() {
    if (modelTimers == null || replay == null) {
      return;
    }
    long d = replay.deadline();
    if (d >= 0 && d != armedReplayDeadline) {
      armedReplayDeadline = d;
      modelTimers.schedule(d, () -> onReplayTimer(d));
    }
  }

  private void onReplayTimer(long at) {
    if (replay == null || !host.isUp()) {
      return;
    }
    long expired = replay.expire(at);
    if (expired >= 0) {
      counters.replayTimeouts++;
      host.observe(expired);
      startReplay(expired);
    }
    armReplayTimer();
  }

  /** The receiver owes an Ack: sent a third of the replay timeout later (PCIe's Ack latency). */
  private void armAckTimer(long from) {
    if (modelTimers == null || ackTimerArmed) {
      return;
    }
    ackTimerArmed = true;
    long at = from + Math.max(1, replayParams.timeoutNs() / 3);
    modelTimers.schedule(at, () -> {
      ackTimerArmed = false;
      if (replayRx != null && replayRx.owesAck() && host.isUp()) {
        sendAckNak(false, at);
      }
    });
  }

  /** A Nak or the timer at model {@code at}: sends every kept TLP again, or gives up the link. */
  private void startReplay(long at) {
    int decision = replay.replay(at);
    if (decision == ReplayBuffer.ROLLOVER) {
      counters.replayRollovers++;
      host.rollover(at);
      return;
    }
    if (decision == ReplayBuffer.NONE) {
      return;
    }
    counters.replays++;
    long cursor = at;
    for (int i = 0; i < replay.outstanding(); i++) {
      Tlp tlp = replay.tlpAt(i);
      int bytes = Tlps.wireBytes(tlp);
      long serialization = params.serializationNs(bytes);
      long start = replay.startAt(i);
      if (start < cursor) {
        // Went out before the replay began: sent again, on wire time of its own. No credit is
        // taken: a replayed TLP consumed its credit when it first went out.
        start = wire.reserve(cursor, serialization);
        meter.sent(start, serialization, bytes);
        if (tlp instanceof io.rackfabric.fabric.tlp.FabricMessage m) {
          meter.management(m.packet().kindCode());
        }
        replay.restamp(i, start);
        counters.tlpsReplayed++;
      }
      // Otherwise it went out after the replay began in model time (actors ran ahead in wall
      // time): it is the TLP that follows the replayed ones, resent as it was, and its first
      // copy, which the partner discarded behind the gap, never happened.
      host.observe(start);
      transmitSequenced(tlp, replay.seqAt(i), start);
      cursor = start + serialization;
    }
    host.sent();
    replay.replayed(cursor);
    armReplayTimer();
  }

  /** Sends a sequenced TLP through the error injection (if any). */
  private void transmitSequenced(Tlp tlp, long seq, long start) {
    int fate = injector == null ? ErrorInjector.PASS : injector.draw(start);
    switch (fate) {
      case ErrorInjector.DROP -> counters.injectedDrops++;
      case ErrorInjector.CORRUPT -> {
        counters.injectedCorrupt++;
        host.send(new CorruptTlp(Tlps.wireBytes(tlp), start));
      }
      case ErrorInjector.DELAY -> {
        counters.injectedDelays++;
        host.send(new SequencedTlp(tlp, seq, start + injector.errors().delayNs()));
      }
      default -> host.send(new SequencedTlp(tlp, seq, start));
    }
  }

  private ReplayReceiver receiver() {
    if (replayRx == null) {
      replayRx = new ReplayReceiver(replayParams.ackEvery());
    }
    return replayRx;
  }

  private void answer(int actions, long at) {
    if ((actions & ReplayReceiver.SEND_NAK) != 0) {
      sendAckNak(true, at);
    } else if ((actions & ReplayReceiver.SEND_ACK) != 0) {
      sendAckNak(false, at);
    }
  }

  private void sendAckNak(boolean nak, long at) {
    counters.dllpsSent++;
    if (nak) {
      counters.naksSent++;
    } else {
      counters.acksSent++;
    }
    host.sent();
    // Handled later than it was due (its end paused in the model): stamped when it really leaves.
    host.send(new AckNak(nak, replayRx.ackSeq(), Math.max(at, host.eventFloor())));
  }
}
