package io.rackfabric.fabric.link;

import io.rackfabric.fabric.credit.CreditLedger;
import io.rackfabric.fabric.credit.FcCredits;
import io.rackfabric.fabric.credit.ReceiveBuffer;
import io.rackfabric.fabric.tlp.Completion;
import io.rackfabric.fabric.tlp.ConfigRead;
import io.rackfabric.fabric.tlp.ConfigWrite;
import io.rackfabric.fabric.tlp.ErrorMessage;
import io.rackfabric.fabric.tlp.Tlp;
import io.rackfabric.fabric.tlp.TlpClass;
import io.rackfabric.fabric.tlp.Tlps;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * One end of a link as a plain object: the data link state machine, the transmit queues with
 * credit-based flow control and their occupancy of the wire in model time, and the receive
 * buffer with batched credit returns. Every port actor (switch port, NTB port, endpoint) embeds one and stays thin.
 *
 * <p>Nothing leaves through {@link Listener#send} without credit, so a remote partner's mailbox
 * and Artery's bounded send queue can never be overrun by TLPs.
 */
public final class LinkEnd {

  /** Where a link end's effects go; implemented by the owning actor. */
  public interface Listener {
    /** Sends a frame to the partner. */
    void send(LinkFrame frame);

    /**
     * A queued TLP has left through this link at model time {@code sentAt}; the buffer it came
     * from can be freed as of that time.
     */
    void transmitted(Object token, Tlp tlp, long sentAt);

    void linkUp(long modelAt);

    /** The link went down; {@code purged} were queued here and are lost. */
    void linkDown(ErrorMessage.Cause cause, long modelAt, List<Queued> purged);
  }

  /** A TLP waiting for credit; {@code token} identifies the buffer to free when it leaves. */
  public record Queued(Tlp tlp, long readyAt, Object token, long order) {}

  private static final int DLLP_BYTES = 8;

  private final LinkParameters params;
  private final LinkStateMachine machine;
  private final CreditLedger ledger = new CreditLedger();
  private final ReceiveBuffer receive;
  private final Listener listener;
  private final LongSupplier wallNanos;
  @SuppressWarnings("unchecked")
  private final ArrayDeque<Queued>[] queues = new ArrayDeque[] {
      new ArrayDeque<Queued>(), new ArrayDeque<Queued>(), new ArrayDeque<Queued>()};
  private final boolean[] blocked = new boolean[3];
  private final long[] creditReadyAt = new long[3];
  /** Receive-buffer space held when the link last went down, still to be freed by the owner. */
  private final long[] staleHeaders = new long[3];
  private final long[] staleData = new long[3];
  /** The egress wire's schedule in model time (see {@link WireCalendar} for why not a FIFO). */
  private final WireCalendar wire = new WireCalendar();
  /** TLPs arrived or left since the last tick (see {@link #tick}). */
  private boolean rxActivity;
  private boolean txActivity;
  private long lastFreedAt;
  private long modelNow;
  /** Schedules an action as a model-time event of the owner's (see {@link #useModelTimers}). */
  @FunctionalInterface
  public interface ModelTimers {
    void schedule(long at, Runnable action);
  }

  /** Set once the owner's events run in model time: the retry's timers are then events too. */
  private ModelTimers modelTimers;
  /** The replay timer deadline an event is scheduled for, so each is scheduled once. */
  private long armedReplayDeadline = -1;
  private boolean ackTimerArmed;

  /** The model time of the event the owner is handling: nothing can start on the wire before it. */
  private long eventAt = Long.MIN_VALUE;
  /** TLPs that would start at or after this model time wait here (see {@link #holdFrom}). */
  private long horizon = Long.MAX_VALUE;
  private long order;
  private final LinkCounters counters = new LinkCounters();
  private final ReplayParameters replayParams;
  /**
   * The data link retry, created when first needed: a link without injected errors sends plain
   * {@link TlpFrame}s, keeps nothing and sends no Acks. While errors are injected, and until
   * everything sent under them is acknowledged, TLPs go out sequenced and are kept for replay.
   */
  private ReplayBuffer replay;
  private ReplayReceiver replayRx;
  private ErrorInjector injector;
  /** Model arrival of the last TLP the replay receiver accepted: what a coalesced Ack carries. */
  private long lastAcceptedAt;

  public LinkEnd(
      LinkParameters params,
      FcCredits receiveBuffers,
      LinkTimers timers,
      boolean autoActivate,
      long trainingSeed,
      Listener listener,
      LongSupplier wallNanos) {
    this(params, receiveBuffers, timers, ReplayParameters.defaults(), autoActivate, trainingSeed,
        listener, wallNanos);
  }

  public LinkEnd(
      LinkParameters params,
      FcCredits receiveBuffers,
      LinkTimers timers,
      ReplayParameters replayParams,
      boolean autoActivate,
      long trainingSeed,
      Listener listener,
      LongSupplier wallNanos) {
    this.params = params;
    this.replayParams = replayParams;
    this.machine = new LinkStateMachine(timers, autoActivate, trainingSeed);
    this.receive = new ReceiveBuffer(receiveBuffers);
    this.listener = listener;
    this.wallNanos = wallNanos;
  }

  public LinkParameters params() {
    return params;
  }

  public DataLinkState state() {
    return machine.state();
  }

  public boolean isUp() {
    return machine.isUp();
  }

  public long modelNow() {
    return modelNow;
  }

  public LinkCounters counters() {
    return counters;
  }

  public int queued() {
    return queues[0].size() + queues[1].size() + queues[2].size();
  }

  /**
   * The owner is handling an event at model {@code time}, until {@link #endEvent}: what this end
   * transmits meanwhile starts no earlier (a TLP that was due earlier but waited, say for credit,
   * leaves now, not in a gap of the wire's past). Without it a frame could reach the partner
   * earlier than anything the partner was told to wait for. Commands from outside the model
   * (host software on wall-clock timers) are not floored: they carry their own stamps.
   */
  public void beginEvent(long time) {
    eventAt = time;
  }

  public void endEvent() {
    eventAt = Long.MIN_VALUE;
  }

  /**
   * From now on the end runs under the model-time kernel: the data link retry's timers (the
   * replay timer, the coalesced Ack) are model-time events scheduled through {@code timers}, not
   * looked at on the wall-clock tick, so an Ack is never late in wall time and a replay happens
   * exactly when the model says; and the partner's silence no longer takes the link down (see
   * {@link LinkStateMachine#ignoreSilence}).
   */
  public void useModelTimers(ModelTimers timers) {
    this.modelTimers = timers;
    machine.ignoreSilence();
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
    if (replay == null || !machine.isUp()) {
      return;
    }
    long expired = replay.expire(at);
    if (expired >= 0) {
      counters.replayTimeouts++;
      observe(expired);
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
      if (replayRx != null && replayRx.owesAck() && machine.isUp()) {
        sendAckNak(false, at);
      }
    });
  }

  /** Advances the end's model clock (a fault or command stamped with model time). */
  public void observe(long modelAt) {
    modelNow = Math.max(modelNow, modelAt);
  }

  /**
   * Holds every TLP stamped at or after {@code modelAt} at this hop until the horizon is raised;
   * {@code Long.MAX_VALUE} lifts it. A scenario that applies a fault at model time T sets the
   * horizon of every link end to T first: actors run concurrently, so without it a TLP stamped
   * after T (host software that ran ahead, a write that reached this hop late) could cross the
   * link before the fault is applied, and carry this end's clock past T. Held TLPs wait in the
   * queues and are lost like any queued TLP if the link goes down.
   */
  public void holdFrom(long modelAt) {
    horizon = modelAt;
    pump();
  }

  /** The partner is connected (physical layer up): start training. */
  public void enable() {
    apply(machine.enable(wallNanos.getAsLong()), null);
  }

  /**
   * Takes the link down from this end at model {@code modelAt}, as a fault or at shutdown. The
   * partner and this end's own AER learn that time, even if this end has already seen later ones.
   */
  public void disable(long modelAt) {
    observe(modelAt);
    apply(machine.disable(wallNanos.getAsLong()), ErrorMessage.Cause.SURPRISE_DOWN, modelAt);
  }

  /** The partner is gone without a PhysicalDown (see {@link PartnerLink#gone}): down now, by surprise. */
  public void partnerLost() {
    long at = modelNow();
    apply(machine.onPhysicalDown(wallNanos.getAsLong()), ErrorMessage.Cause.SURPRISE_DOWN, at);
  }

  public void activate() {
    apply(machine.activate(wallNanos.getAsLong()), null);
  }

  /**
   * Injects errors into what this end transmits from now on ({@link LinkErrors#NONE}: stop). While
   * they are in force TLPs are sequenced and kept for replay; see {@link ReplayBuffer}.
   */
  public void injectErrors(LinkErrors errors) {
    injector = errors.any() ? new ErrorInjector(errors) : null;
    if (injector != null && replay == null) {
      replay = new ReplayBuffer(replayParams.bufferTlps(), replayParams.timeoutNs(),
          replayParams.limit(), replayParams.idleTicks());
    }
  }

  /** Whether TLPs sent now must be sequenced and kept. */
  private boolean sequencing() {
    return injector != null || (replay != null && !replay.isEmpty());
  }

  /** A full replay buffer stops transmission until an Ack frees it. */
  private boolean replayFull() {
    return replay != null && replay.full();
  }

  /** Timers; the owner calls this periodically. */
  public void tick() {
    long now = wallNanos.getAsLong();
    // TLP traffic since the last tick counts as traffic now: the timers it feeds (DLLP timeout,
    // keepalive) are hundreds of ticks long, and reading the clock per TLP would cost more than
    // the rest of a hop's link work.
    if (rxActivity) {
      machine.onTlpReceived(now);
      rxActivity = false;
    }
    if (txActivity) {
      machine.onSent(now);
      txActivity = false;
    }
    int actions = machine.tick(now);
    apply(actions, ErrorMessage.Cause.DLLP_TIMEOUT);
    if (machine.isUp() && modelTimers == null) {
      tickReplay();
    }
  }

  /** Coalesced Acks still owed, and the replay timer. */
  private void tickReplay() {
    if (replayRx != null && (replayRx.tick() & ReplayReceiver.SEND_ACK) != 0) {
      sendAckNak(false, lastAcceptedAt);
    }
    if (replay != null) {
      long expired = replay.tick();
      if (expired >= 0) {
        counters.replayTimeouts++;
        observe(expired);
        startReplay(expired);
      }
    }
  }

  /**
   * Queues a TLP for transmission. Returns false when the link is down: the caller answers or
   * counts it as PCIe does (Unsupported Request for a request, drop for a posted write).
   */
  public boolean offer(Tlp tlp, long readyAt, Object token) {
    if (!machine.enabled() || machine.state() == DataLinkState.DL_INACTIVE) {
      return false;
    }
    // Nothing waiting and credit at hand: the TLP leaves at once, without being queued.
    if (queued() == 0 && !replayFull() && machine.mayTransmit(isManagement(tlp))
        && ledger.canSend(tlp.tlpClass(), Tlps.dataCredits(tlp)) && beforeHorizon(readyAt)) {
      send(tlp, readyAt, token);
      return true;
    }
    queues[tlp.tlpClass().ordinal()].add(new Queued(tlp, readyAt, token, order++));
    pump();
    return true;
  }

  /**
   * When a frame from the partner takes effect here in model time, or -1 for a frame of link
   * management that is not a model-time event: training (InitFC), the physical layer going down,
   * and keepalives. Those run on the link's wall-clock timers and carry no credit or data, so they
   * never change a model figure; everything else is handled in model-time order.
   */
  public long modelArrival(LinkFrame frame) {
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
    return -1;
  }

  /**
   * The least model time between this end handling an event and any model-time frame it sends
   * arriving at the partner: the flight of the smallest frame, a DLLP.
   */
  public long lookaheadNs() {
    return params.flightNs(DLLP_BYTES);
  }

  /** The TLP of a frame {@link #onFrame} accepted (a plain or a sequenced TLP frame). */
  public static Tlp tlpOf(LinkFrame accepted) {
    return accepted instanceof TlpFrame f ? f.tlp() : ((SequencedTlp) accepted).tlp();
  }

  /**
   * A frame from the partner. Returns the TLP's model arrival time when a TLP was accepted into
   * the receive buffer (the caller must later {@link #free} it), or -1 otherwise.
   */
  public long onFrame(LinkFrame frame) {
    if (frame instanceof TlpFrame f) {
      return acceptTlp(f.tlp(), f.sentAt());
    }
    if (frame instanceof SequencedTlp s) {
      return acceptSequenced(s);
    }
    if (frame instanceof CorruptTlp c) {
      onCorrupt(c);
      return -1;
    }
    if (frame instanceof AckNak a) {
      onAckNak(a);
      return -1;
    }
    long wall = wallNanos.getAsLong();
    if (frame instanceof UpdateFc u) {
      onUpdateFc(u, wall);
    } else if (frame instanceof InitFc i) {
      onInitFc(i, wall);
    } else if (frame instanceof PhysicalDown d) {
      // Down when the partner's electrical idle arrives, not at the latest time this end has seen:
      // a TLP stamped later that crossed first (actors run concurrently) must not delay the AER.
      long downAt = d.sentAt() + params.propagationNs();
      observe(downAt);
      apply(machine.onPhysicalDown(wall), ErrorMessage.Cause.SURPRISE_DOWN, downAt);
    }
    return -1;
  }

  private void onUpdateFc(UpdateFc u, long wall) {
    counters.dllpsReceived++;
    if (u.keepalive()) {
      apply(machine.onUpdateFc(wall), null); // liveness only: its limits were advertised before
      return;
    }
    long arrival = u.sentAt() + params.flightNs(DLLP_BYTES);
    observe(arrival);
    apply(machine.onUpdateFc(wall), null);
    if (machine.isUp()) {
      ledger.update(u.limits());
      for (int c = 0; c < 3; c++) {
        if (blocked[c]) {
          creditReadyAt[c] = Math.max(creditReadyAt[c], arrival);
          blocked[c] = false;
        }
      }
      pump();
    }
  }

  private void onInitFc(InitFc i, long wall) {
    counters.dllpsReceived++;
    // Training runs on the link's wall-clock timers; how many InitFCs it took must not move the
    // model clock.
    int actions = machine.onInitFc(i, wall);
    if ((actions & LinkStateMachine.LINK_DOWN) != 0) {
      goDown(ErrorMessage.Cause.SURPRISE_DOWN, modelNow);
      actions &= ~LinkStateMachine.LINK_DOWN;
    }
    if ((actions & LinkStateMachine.TAKE_PARTNER_CREDITS) != 0) {
      ledger.initialise(i.limits());
      receive.reset();
    }
    apply(actions, null);
  }

  private long acceptTlp(Tlp tlp, long sentAt) {
    if (!mayReceive()) {
      return -1;
    }
    return intoReceiveBuffer(tlp, sentAt + params.flightNs(Tlps.wireBytes(tlp)));
  }

  /** Whether a TLP arriving now can be taken; counts it as dropped when the link is down. */
  private boolean mayReceive() {
    if (machine.state() == DataLinkState.DL_INIT) {
      // Like an UpdateFC, a TLP proves the partner is up with our credits (its last InitFC was
      // lost): finish training rather than drop a TLP whose credit the partner has consumed.
      apply(machine.onUpdateFc(wallNanos.getAsLong()), null);
    }
    if (!machine.mayReceive()) {
      counters.droppedLinkDown++;
      return false;
    }
    rxActivity = true;
    return true;
  }

  private long intoReceiveBuffer(Tlp tlp, long arrival) {
    if (!receive.arrive(tlp.tlpClass(), Tlps.dataCredits(tlp))) {
      counters.receiverOverflows++;
      return -1;
    }
    counters.tlpsReceived++;
    observe(arrival);
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
    long arrival = s.sentAt() + params.flightNs(Tlps.wireBytes(s.tlp()));
    int actions = receiver().onTlp(s.seq());
    if ((actions & ReplayReceiver.ACCEPT) == 0) {
      observe(arrival);
      if (s.seq() > receiver().nextExpected()) {
        counters.outOfSequence++;
      } else {
        counters.duplicatesDiscarded++;
      }
      answer(actions, arrival);
      return -1;
    }
    lastAcceptedAt = Math.max(lastAcceptedAt, arrival);
    long accepted = intoReceiveBuffer(s.tlp(), arrival);
    answer(actions, arrival);
    if (replayRx.owesAck()) {
      armAckTimer(arrival);
    }
    return accepted;
  }

  private void onCorrupt(CorruptTlp c) {
    if (!mayReceive()) {
      return;
    }
    counters.badLcrc++;
    long arrival = c.sentAt() + params.flightNs(c.wireBytes());
    observe(arrival);
    answer(receiver().onBadLcrc(), arrival);
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
    txActivity = true;
    listener.send(new AckNak(nak, replayRx.ackSeq(), at));
  }

  private void onAckNak(AckNak a) {
    counters.dllpsReceived++;
    rxActivity = true;
    long arrival = a.sentAt() + params.flightNs(DLLP_BYTES);
    observe(arrival);
    if (replay == null || !machine.isUp()) {
      return; // from before the link last went down: nothing it names is kept any more
    }
    if (a.nak()) {
      counters.naksReceived++;
      replay.onAck(a.seq(), arrival);
      startReplay(arrival);
    } else if (replay.onAck(a.seq(), arrival) > 0) {
      pump(); // the buffer may have been full
    }
    armReplayTimer();
  }

  /** A Nak or the timer at model {@code at}: sends every kept TLP again, or gives up the link. */
  private void startReplay(long at) {
    int decision = replay.replay(at);
    if (decision == ReplayBuffer.ROLLOVER) {
      counters.replayRollovers++;
      apply(machine.retrain(wallNanos.getAsLong()), ErrorMessage.Cause.REPLAY_ROLLOVER, at);
      return;
    }
    if (decision == ReplayBuffer.NONE) {
      return;
    }
    counters.replays++;
    long cursor = at;
    for (int i = 0; i < replay.outstanding(); i++) {
      Tlp tlp = replay.tlpAt(i);
      long serialization = params.serializationNs(Tlps.wireBytes(tlp));
      long start = replay.startAt(i);
      if (start < cursor) {
        // Went out before the replay began: sent again, on wire time of its own. No credit is
        // taken: a replayed TLP consumed its credit when it first went out.
        start = wire.reserve(cursor, serialization);
        replay.restamp(i, start);
        counters.tlpsReplayed++;
      }
      // Otherwise it went out after the replay began in model time (actors ran ahead in wall
      // time): it is the TLP that follows the replayed ones, resent as it was, and its first
      // copy, which the partner discarded behind the gap, never happened.
      observe(start);
      transmitSequenced(tlp, replay.seqAt(i), start);
      cursor = start + serialization;
    }
    txActivity = true;
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
        listener.send(new CorruptTlp(Tlps.wireBytes(tlp), start));
      }
      case ErrorInjector.DELAY -> {
        counters.injectedDelays++;
        listener.send(new SequencedTlp(tlp, seq, start + injector.errors().delayNs()));
      }
      default -> listener.send(new SequencedTlp(tlp, seq, start));
    }
  }

  /** The TLP that arrived has left the receive buffer; may send an UpdateFC. */
  public void free(Tlp tlp, long modelAt) {
    free(tlp.tlpClass(), 1, Tlps.dataCredits(tlp), modelAt);
  }

  public void free(TlpClass c, int headers, int dataCredits, long modelAt) {
    observe(modelAt);
    int i = c.ordinal();
    // TLPs that were still held when the link went down belong to a training that is gone: their
    // frees are absorbed here instead of being returned to the partner of the new training.
    long absorbHeaders = Math.min(headers, staleHeaders[i]);
    long absorbData = Math.min(dataCredits, staleData[i]);
    staleHeaders[i] -= absorbHeaders;
    staleData[i] -= absorbData;
    headers -= (int) absorbHeaders;
    dataCredits -= (int) absorbData;
    if ((headers == 0 && dataCredits == 0) || !machine.isUp()) {
      return;
    }
    lastFreedAt = Math.max(lastFreedAt, modelAt);
    if (receive.free(c, headers, dataCredits)) {
      sendUpdate();
    }
  }

  private void pump() {
    if (!machine.isUp()) {
      return;
    }
    int posted = TlpClass.POSTED.ordinal();
    while (true) {
      if (replayFull()) {
        return; // an Ack will free it and pump again
      }
      Queued pick = null;
      Queued postedHead = firstTransmittable(queues[posted]);
      for (int c = 0; c < 3; c++) {
        Queued head = c == posted ? postedHead : firstTransmittable(queues[c]);
        if (head == null) {
          continue;
        }
        if (!ledger.canSend(head.tlp().tlpClass(), Tlps.dataCredits(head.tlp()))) {
          blocked[c] = true;
          continue;
        }
        if (c != posted && postedHead != null && postedHead.order() < head.order()) {
          continue; // PCIe ordering: reads and completions never pass an earlier posted request
        }
        if (pick == null || head.order() < pick.order()) {
          pick = head;
        }
      }
      if (pick == null) {
        return;
      }
      transmit(pick);
    }
  }

  /**
   * The oldest TLP of a class that the link state and the horizon let through: the head when
   * active and nothing is held; in DL_PROTECTED the oldest configuration request, completion or
   * message, which must not wait behind memory requests that are held until activation.
   */
  private Queued firstTransmittable(ArrayDeque<Queued> queue) {
    boolean active = machine.state() == DataLinkState.DL_ACTIVE;
    if (active && horizon == Long.MAX_VALUE) {
      return queue.peekFirst(); // everything may go: no need to walk the queue
    }
    for (Queued q : queue) {
      // A TLP held at the horizon is stamped after every one that passes it here, so passing it
      // keeps model order.
      if (beforeHorizon(q.readyAt()) && (active || machine.mayTransmit(isManagement(q.tlp())))) {
        return q;
      }
    }
    return null;
  }

  /** Queued TLPs stamped before the horizon: those that will leave without a scenario's help. */
  public int queuedBeforeHorizon() {
    if (horizon == Long.MAX_VALUE) {
      return queued();
    }
    int n = 0;
    for (ArrayDeque<Queued> q : queues) {
      for (Queued e : q) {
        if (beforeHorizon(e.readyAt())) {
          n++;
        }
      }
    }
    return n;
  }

  private void transmit(Queued q) {
    queues[q.tlp().tlpClass().ordinal()].removeFirstOccurrence(q);
    send(q.tlp(), q.readyAt(), q.token());
  }

  /** Puts a TLP on the wire: takes its credit and its slot on the wire (model time). */
  private void send(Tlp tlp, long readyAt, Object token) {
    int c = tlp.tlpClass().ordinal();
    ledger.consume(tlp.tlpClass(), Tlps.dataCredits(tlp));
    long start = wire.reserve(
        Math.max(Math.max(readyAt, creditReadyAt[c]), eventAt), params.serializationNs(Tlps.wireBytes(tlp)));
    observe(start);
    counters.tlpsSent++;
    txActivity = true;
    if (injector != null && injector.over(start) && replay.isEmpty()) {
      injector = null; // the window is over and everything sent under it is acknowledged
    }
    if (sequencing()) {
      transmitSequenced(tlp, replay.retain(tlp, start), start);
      armReplayTimer();
    } else {
      listener.send(new TlpFrame(tlp, start));
    }
    listener.transmitted(token, tlp, start);
  }

  /**
   * Whether the TLP is stamped before the horizon. Its stamp at this hop, not where credit and the
   * wire's schedule would put it: a generator's last requests before a fault must still leave the
   * source, or its job would never finish; a few nanoseconds of queueing past the horizon do not
   * move a clock far.
   */
  private boolean beforeHorizon(long readyAt) {
    return readyAt < horizon;
  }

  private static boolean isManagement(Tlp tlp) {
    return tlp instanceof ConfigRead
        || tlp instanceof ConfigWrite
        || tlp instanceof ErrorMessage
        || tlp instanceof Completion; // responses are never held back
  }

  private void sendUpdate() {
    counters.dllpsSent++;
    machine.onSent(wallNanos.getAsLong());
    // Stamped with when the space was freed, not with the latest time this end has seen: credit
    // must not reach the sender later in model time than the buffer really emptied.
    listener.send(new UpdateFc(receive.advertise(), lastFreedAt));
  }

  /**
   * A keepalive: the limits last advertised, nothing newly freed. Credit reaches the partner only
   * through {@link #sendUpdate}, at the model time the space was freed; a keepalive sent when the
   * wall-clock timer fires must not hand it over earlier or later than that.
   */
  private void sendKeepalive() {
    counters.dllpsSent++;
    machine.onSent(wallNanos.getAsLong());
    listener.send(new UpdateFc(receive.advertised(), lastFreedAt, true));
  }

  private void apply(int actions, ErrorMessage.Cause downCause) {
    apply(actions, downCause, modelNow);
  }

  /** @param downAt the model time a link-down among the actions happens at */
  private void apply(int actions, ErrorMessage.Cause downCause, long downAt) {
    if ((actions & LinkStateMachine.LINK_DOWN) != 0) {
      goDown(downCause == null ? ErrorMessage.Cause.SURPRISE_DOWN : downCause, downAt);
    }
    if ((actions & LinkStateMachine.SEND_PHYSICAL_DOWN) != 0) {
      listener.send(new PhysicalDown(downAt));
    }
    if ((actions & LinkStateMachine.SEND_INIT) != 0) {
      counters.dllpsSent++;
      machine.onSent(wallNanos.getAsLong());
      listener.send(
          new InitFc(receive.size(), machine.training(), machine.partnerTraining(), modelNow));
    }
    if ((actions & LinkStateMachine.SEND_UPDATE) != 0) {
      sendKeepalive();
    }
    if ((actions & LinkStateMachine.LINK_UP) != 0) {
      counters.linkUps++;
      listener.linkUp(modelNow);
      pump();
    } else if ((actions & LinkStateMachine.LINK_PROTECTED) != 0) {
      pump();
    }
  }

  private void goDown(ErrorMessage.Cause cause, long downAt) {
    armedReplayDeadline = -1;
    List<Queued> purged = new ArrayList<>(queued());
    for (ArrayDeque<Queued> q : queues) {
      purged.addAll(q);
      q.clear();
    }
    counters.linkDowns++;
    counters.purged += purged.size();
    ledger.reset();
    for (TlpClass c : TlpClass.ALL) {
      staleHeaders[c.ordinal()] += receive.occupiedHeaders(c);
      staleData[c.ordinal()] += receive.occupiedData(c);
    }
    receive.reset();
    if (replay != null) {
      counters.unackedOnDown += replay.outstanding();
      replay.reset();
    }
    if (replayRx != null) {
      replayRx.reset();
    }
    for (int c = 0; c < 3; c++) {
      blocked[c] = false;
      creditReadyAt[c] = 0;
    }
    listener.linkDown(cause, downAt, purged);
  }
}
