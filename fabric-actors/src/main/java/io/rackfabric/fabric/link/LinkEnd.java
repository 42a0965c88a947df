package io.rackfabric.fabric.link;

import io.rackfabric.fabric.credit.FcCredits;
import io.rackfabric.fabric.tlp.ErrorMessage;
import io.rackfabric.fabric.tlp.Tlp;
import io.rackfabric.fabric.tlp.TlpClass;
import io.rackfabric.fabric.tlp.Tlps;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * One end of a link as a plain object. Every port actor (switch port, NTB port, endpoint) embeds
 * one and stays thin. The end coordinates its parts: link management (training, keepalives,
 * timeouts: {@link LinkTraining}), the transmit side with credit-based flow control and the
 * wire's schedule in model time ({@link Transmitter}), the receive side, which routes each frame
 * from the partner to its part at its model arrival ({@link Reception}) and returns freed buffer
 * space in batches ({@link ReceiveCredits}), and the data link retry with error injection ({@link
 * DataLinkRetry}); it keeps the end's model clock and acts on the link going up and down.
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

    /**
     * The link is up; {@code modelAt} is the later of this end's clock and the partner's as its
     * training InitFCs carried it. A training outside the model runs on wall-clock timers, so this
     * end's clock alone is whatever it was when training ended; the end a run took up at a model
     * time stamps its InitFCs with that time, so both ends come up at it. A retraining under the
     * kernel comes up at the model time of the InitFC's arrival that completes it.
     */
    void linkUp(long modelAt);

    /**
     * The link trained to DL_Protected and waits for management to activate it (auto-activation
     * off, as under a fabric manager, AS-FM section 2.2): only management packets pass until
     * then; {@code modelAt} as for {@link #linkUp}.
     */
    default void linkTrained(long modelAt) {}

    /** The link went down; {@code purged} were queued here and are lost. */
    void linkDown(ErrorMessage.Cause cause, long modelAt, List<Queued> purged);
  }

  /** A TLP waiting for credit; {@code token} identifies the buffer to free when it leaves. */
  public record Queued(Tlp tlp, long readyAt, Object token, long order) {}

  /** Schedules an action as a model-time event of the owner's (see {@link #useModelTimers}). */
  @FunctionalInterface
  public interface ModelTimers {
    void schedule(long at, Runnable action);
  }

  private final LinkParameters params;
  private final LinkTimers linkTimers;
  private final LinkStateMachine machine;
  private final LinkTraining training;
  private final Transmitter tx;
  private final ReceiveCredits receive;
  private final DataLinkRetry retry;
  private final Reception reception;
  private final Listener listener;
  private final LinkCounters counters = new LinkCounters();
  private final WireMeter meter = new WireMeter();
  private long modelNow;

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
    this.linkTimers = timers;
    this.machine = new LinkStateMachine(timers, autoActivate, trainingSeed);
    WireCalendar wire = new WireCalendar(); // first transmissions and replays share it
    this.retry = new DataLinkRetry(params, replayParams, wire, counters, new RetryHost(), meter);
    this.tx = new Transmitter(params, machine, wire, retry::full, this::departed);
    this.receive = new ReceiveCredits(receiveBuffers);
    this.training = new LinkTraining(machine, receive, counters, listener, wallNanos, this::modelNow,
        new StateChanges());
    this.reception = new Reception(params, machine, training, tx, receive, retry, counters, listener, this::observe);
    this.listener = listener;
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

  /** What this end put on its wire, in model time (its window is the owner's to set). */
  public WireMeter meter() {
    return meter;
  }

  public int queued() {
    return tx.size();
  }

  /**
   * The owner is handling an event at model {@code time}, until {@link #endEvent}: what this end
   * transmits meanwhile starts no earlier (a TLP that was due earlier but waited, say for credit,
   * leaves now, not in a gap of the wire's past). Without it a frame could reach the partner
   * earlier than anything the partner was told to wait for. Commands from outside the model
   * (host software on wall-clock timers) are not floored: they carry their own stamps.
   */
  public void beginEvent(long time) {
    tx.floorAt(time);
  }

  public void endEvent() {
    tx.floorAt(Long.MIN_VALUE);
  }

  /**
   * From now on the end runs under the model-time kernel: the data link retry's timers (the
   * replay timer, the coalesced Ack) are model-time events scheduled through {@code timers}, not
   * looked at on the wall-clock tick, so an Ack is never late in wall time and a replay happens
   * exactly when the model says; a retraining after a replay rollover is paced in model time
   * (the retry interval, then each InitFC a DLLP's flight; see {@link LinkTraining}); and the partner's silence no longer takes the link down (see
   * {@link LinkStateMachine#ignoreSilence}).
   */
  public void useModelTimers(ModelTimers timers) {
    retry.useModelTimers(timers);
    training.useModelTimers(timers, linkTimers.modelRetryIntervalNs(), tx::floor);
    machine.ignoreSilence();
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
    tx.holdFrom(modelAt);
  }

  /** Queued TLPs stamped before the horizon: those that will leave without a scenario's help. */
  public int queuedBeforeHorizon() {
    return tx.sizeBeforeHorizon();
  }

  /** The partner is connected (physical layer up): start training. */
  public void enable() {
    training.enable();
  }

  /**
   * Takes the link down from this end at model {@code modelAt}, as a fault or at shutdown. The
   * partner and this end's own AER learn that time, even if this end has already seen later ones.
   */
  public void disable(long modelAt) {
    observe(modelAt);
    training.disable(modelAt);
  }

  /** The partner is gone without a PhysicalDown (see {@link PartnerLink#gone}): down now, by surprise. */
  public void partnerLost() {
    training.physicalDown(modelNow);
  }

  public void activate() {
    training.activate();
  }

  /**
   * The fabric manager's PI-4 write to this port's control register took effect at model
   * {@code modelAt} (AS-FM section 2.2): DL_Protected to DL_Active, or back with {@code active}
   * false. Called inside a model-time event at {@code modelAt}, so data TLPs that waited in the
   * queue while the port was protected leave no earlier than the activation.
   */
  public void setActive(boolean active, long modelAt) {
    observe(modelAt);
    if (active && machine.state() == DataLinkState.DL_PROTECTED) {
      counters.activations++;
      counters.activatedAtNs = modelAt;
      training.activate();
    } else if (!active && machine.state() == DataLinkState.DL_ACTIVE) {
      counters.deactivations++;
      training.deactivate();
    }
  }

  /**
   * Injects errors into what this end transmits from now on ({@link LinkErrors#NONE}: stop). While
   * they are in force TLPs are sequenced and kept for replay; see {@link DataLinkRetry}.
   */
  public void injectErrors(LinkErrors errors) {
    retry.injectErrors(errors);
  }

  /** Timers; the owner calls this periodically. */
  public void tick() {
    training.tick();
    if (machine.isUp()) {
      retry.tick();
    }
  }

  /**
   * Queues a TLP for transmission. Returns false when the link is down: the caller answers or
   * counts it as PCIe does (Unsupported Request for a request, drop for a posted write).
   */
  public boolean offer(Tlp tlp, long readyAt, Object token) {
    return tx.offer(tlp, readyAt, token);
  }

  /**
   * When a frame from the partner takes effect here in model time, or -1 for a frame of link
   * management that is not a model-time event: training outside the model (the InitFCs of the
   * rack's start and of a link-up fault), the physical layer going down, and keepalives. Those run
   * on the link's wall-clock timers and carry no credit or data, so they never change a model
   * figure; everything else, a retraining's InitFCs under the kernel included, is handled in
   * model-time order.
   */
  public long modelArrival(LinkFrame frame) {
    return Reception.arrival(params, frame);
  }

  /**
   * The least model time between this end handling an event and any model-time frame it sends
   * arriving at the partner: the flight of the smallest frame, a DLLP.
   */
  public long lookaheadNs() {
    return params.flightNs(Reception.DLLP_BYTES);
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
    return reception.onFrame(frame);
  }

  /** The TLP that arrived has left the receive buffer; may send an UpdateFC. */
  public void free(Tlp tlp, long modelAt) {
    free(tlp.tlpClass(), 1, Tlps.dataCredits(tlp), modelAt);
  }

  public void free(TlpClass c, int headers, int dataCredits, long modelAt) {
    reception.free(c, headers, dataCredits, modelAt);
  }

  /** A TLP starts on the wire at model {@code start}: through the retry, and its buffer is free. */
  private void departed(Tlp tlp, Object token, long start) {
    observe(start);
    counters.tlpsSent++;
    int bytes = Tlps.wireBytes(tlp);
    meter.sent(start, params.serializationNs(bytes), bytes);
    if (tlp instanceof io.rackfabric.fabric.tlp.FabricMessage m) {
      meter.management(m.packet().kindCode());
    }
    training.sent();
    retry.transmit(tlp, start);
    listener.transmitted(token, tlp, start);
  }

  /** What the link going up and down means for the TLPs. */
  private final class StateChanges implements LinkTraining.Transitions {
    @Override
    public void down(ErrorMessage.Cause cause, long at) {
      List<Queued> purged = tx.purge();
      counters.linkDowns++;
      counters.purged += purged.size();
      receive.linkDown();
      retry.reset();
      listener.linkDown(cause, at, purged);
    }

    @Override
    public void up() {
      listener.linkUp(Math.max(modelNow, training.partnerInitAt()));
      tx.pump();
    }

    @Override
    public void opened() {
      // Trained, DL_Protected, waiting for the fabric manager (auto-activation off): management
      // packets may go.
      long at = Math.max(modelNow, training.partnerInitAt());
      counters.trainedAtNs = at;
      tx.pump();
      listener.linkTrained(at);
    }

    @Override
    public void partnerCredits(FcCredits limits) {
      tx.initialise(limits);
      receive.reset();
    }
  }

  /** The retry's view of this end. */
  private final class RetryHost implements DataLinkRetry.Host {
    @Override
    public long eventFloor() {
      return tx.floor();
    }

    @Override
    public void send(LinkFrame frame) {
      listener.send(frame);
    }

    @Override
    public void observe(long modelAt) {
      LinkEnd.this.observe(modelAt);
    }

    @Override
    public boolean isUp() {
      return machine.isUp();
    }

    @Override
    public void sent() {
      training.sent();
    }

    @Override
    public void room() {
      tx.pump();
    }

    @Override
    public void rollover(long at) {
      training.retrain(at);
    }
  }
}
