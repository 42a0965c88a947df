package io.rackfabric.fabric.link;

import io.rackfabric.fabric.credit.FcCredits;
import io.rackfabric.fabric.tlp.ErrorMessage;
import java.util.function.LongSupplier;

/**
 * The link management of one link end: drives its {@link LinkStateMachine} on the wall clock
 * (training, keepalives, the DLLP timeout, retraining) and sends the DLLPs the machine's decisions
 * call for (InitFC, keepalive UpdateFC, the physical layer going down). What the link going down
 * or up means for the TLPs is the end's ({@link Transitions}).
 *
 * <p>Under the model-time kernel ({@link #useModelTimers}) a retraining the model caused is paced
 * in model time, not on the wall clock: after a replay rollover at model T this end starts
 * training again as a model-time event a retry interval later ({@link
 * LinkTimers#modelRetryIntervalNs}); its partner, told by the rollover's {@link PhysicalDown},
 * waits for that InitFC. Every InitFC sent in a model-time event is a model-time frame ({@link
 * InitFc#timed}) arriving a DLLP's flight later, and each answer is sent in the event of its
 * arrival: the partner is up at T + interval + 3 flights, this end 2 flights after the interval. So the link is up again at a model time that
 * follows from the parameters, whatever the machine's speed. The training at the rack's start and
 * after a link-up fault is outside any event (before traffic, or with the rack held) and keeps the
 * wall-clock timers.
 */
final class LinkTraining {

  /** What the link end does when the link changes state. */
  interface Transitions {
    /** The link went down at model {@code at}: drop what was queued, kept and credited. */
    void down(ErrorMessage.Cause cause, long at);

    /** DL_ACTIVE, at the end's model time. */
    void up();

    /** DL_PROTECTED: management TLPs may go. */
    void opened();

    /** The partner's InitFC of a new training: its buffer sizes, and a fresh start for ours. */
    void partnerCredits(FcCredits limits);
  }

  private final LinkStateMachine machine;
  private final ReceiveCredits receive;
  private final LinkCounters counters;
  private final LinkEnd.Listener listener;
  private final LongSupplier wallNanos;
  /** The end's model clock: what training frames and a link-down with no time of its own carry. */
  private final LongSupplier modelNow;
  private final Transitions transitions;
  /** TLPs arrived or left since the last tick (see {@link #tick}). */
  /** The latest model time the partner stamped an InitFC with (0: none yet). */
  private long partnerInitAt;
  /** Schedules this end's model-time events; null while free-running. */
  private LinkEnd.ModelTimers modelTimers;
  private long modelRetryIntervalNs;
  /** The model time of the event being handled, or {@code Long.MIN_VALUE} outside one. */
  private LongSupplier eventTime = () -> Long.MIN_VALUE;
  /** Counts the link's downs and enables: a scheduled retraining is for the down it was set for only. */
  private long downs;
  private boolean rxActivity;
  private boolean txActivity;

  LinkTraining(LinkStateMachine machine, ReceiveCredits receive, LinkCounters counters,
      LinkEnd.Listener listener, LongSupplier wallNanos, LongSupplier modelNow, Transitions transitions) {
    this.machine = machine;
    this.receive = receive;
    this.counters = counters;
    this.listener = listener;
    this.wallNanos = wallNanos;
    this.modelNow = modelNow;
    this.transitions = transitions;
  }

  /**
   * From now on a retraining the model caused is paced by model-time events scheduled through
   * {@code timers}, {@code retryIntervalNs} after the down; {@code eventTime} tells the model time
   * of the event being handled ({@code Long.MIN_VALUE} outside one), which stamps a timed InitFC.
   */
  void useModelTimers(LinkEnd.ModelTimers timers, long retryIntervalNs, LongSupplier eventTime) {
    this.modelTimers = timers;
    this.modelRetryIntervalNs = retryIntervalNs;
    this.eventTime = eventTime;
  }

  /** TLPs or retry DLLPs arrived: the partner is alive. */
  void received() {
    rxActivity = true;
  }

  /** TLPs or retry DLLPs went out: no keepalive is due. */
  void sent() {
    txActivity = true;
  }

  /** A flow-control DLLP goes out now. */
  void sendingDllp() {
    counters.dllpsSent++;
    machine.onSent(wallNanos.getAsLong());
  }

  void enable() {
    onWallClock();
    apply(machine.enable(wallNanos.getAsLong()), null);
  }

  void disable(long modelAt) {
    onWallClock();
    apply(machine.disable(wallNanos.getAsLong()), ErrorMessage.Cause.SURPRISE_DOWN, modelAt);
  }

  /** The physical layer went down at model {@code modelAt}: the partner's or lost with it. */
  void physicalDown(long modelAt) {
    physicalDown(modelAt, false);
  }

  /**
   * The physical layer went down at model {@code modelAt}; {@code retraining}: the partner went
   * down to retrain (its replay rollover). Under the kernel this end then waits for the partner's
   * InitFC, a model-time frame, and trains on it: no wall-clock tick starts a training meanwhile.
   */
  void physicalDown(long modelAt, boolean retraining) {
    downs++;
    machine.paceInModelTime(retraining && modelTimers != null);
    apply(machine.onPhysicalDown(wallNanos.getAsLong()), ErrorMessage.Cause.SURPRISE_DOWN, modelAt);
  }

  void activate() {
    apply(machine.activate(wallNanos.getAsLong()), null);
  }

  void deactivate() {
    apply(machine.deactivate(wallNanos.getAsLong()), null);
  }

  /** The data link retry gave up at model {@code modelAt}: down, and training again. */
  void retrain(long modelAt) {
    apply(machine.retrain(wallNanos.getAsLong()), ErrorMessage.Cause.REPLAY_ROLLOVER, modelAt, true);
    retrainAt(modelAt);
  }

  /**
   * Under the kernel: training starts again as a model-time event a retry interval after the down
   * at model {@code downAt}, unless the link went down or was enabled again meanwhile. Free-running,
   * the wall-clock tick does it.
   */
  private void retrainAt(long downAt) {
    long down = ++downs;
    if (modelTimers == null) {
      return;
    }
    machine.paceInModelTime(true);
    modelTimers.schedule(downAt + modelRetryIntervalNs, () -> {
      if (down == downs) {
        apply(machine.retryTraining(wallNanos.getAsLong()), null);
      }
    });
  }

  /** Enabled, disabled or down from outside the model: training goes back to the wall-clock tick. */
  private void onWallClock() {
    downs++;
    machine.paceInModelTime(false);
  }

  /** Timers; the end calls this periodically. */
  void tick() {
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
    apply(machine.tick(now), ErrorMessage.Cause.DLLP_TIMEOUT);
  }

  /** An UpdateFC arrived (its credit is the end's): the partner is alive, and has our credits. */
  void onUpdateFc() {
    apply(machine.onUpdateFc(wallNanos.getAsLong()), null);
  }

  /** A keepalive UpdateFC arrived: the partner is alive (see {@link LinkStateMachine#onKeepalive}). */
  void onKeepalive() {
    apply(machine.onKeepalive(wallNanos.getAsLong()), null);
  }

  /**
   * A TLP arrived while training: like an UpdateFC, it proves the partner is up with our credits
   * (its last InitFC was lost), so training finishes rather than drop a TLP whose credit the
   * partner has consumed.
   */
  void onTlpWhileTraining() {
    if (machine.state() == DataLinkState.DL_INIT) {
      onUpdateFc();
    }
  }

  /** The latest model time the partner stamped an InitFC with: its clock as it trained (0: none yet). */
  long partnerInitAt() {
    return partnerInitAt;
  }

  void onInitFc(InitFc i) {
    partnerInitAt = Math.max(partnerInitAt, i.sentAt());
    if (i.timed() && modelTimers != null) {
      machine.paceInModelTime(true); // the partner retrains in model time: so does this end
    }
    // An untimed training runs on the link's wall-clock timers; how many InitFCs it took must not
    // move the model clock.
    int actions = machine.onInitFc(i, wallNanos.getAsLong());
    if ((actions & LinkStateMachine.LINK_DOWN) != 0) {
      // Before the partner's credits are taken: going down forgets the old ones.
      transitions.down(ErrorMessage.Cause.SURPRISE_DOWN, modelNow.getAsLong());
      actions &= ~LinkStateMachine.LINK_DOWN;
    }
    if ((actions & LinkStateMachine.TAKE_PARTNER_CREDITS) != 0) {
      transitions.partnerCredits(i.limits());
    }
    apply(actions, null);
  }

  private void apply(int actions, ErrorMessage.Cause downCause) {
    apply(actions, downCause, modelNow.getAsLong());
  }

  private void apply(int actions, ErrorMessage.Cause downCause, long downAt) {
    apply(actions, downCause, downAt, false);
  }

  /**
   * @param downAt the model time a link-down among the actions happens at
   * @param retraining a physical down among the actions tells the partner this end retrains
   */
  private void apply(int actions, ErrorMessage.Cause downCause, long downAt, boolean retraining) {
    if ((actions & LinkStateMachine.LINK_DOWN) != 0) {
      transitions.down(downCause == null ? ErrorMessage.Cause.SURPRISE_DOWN : downCause, downAt);
    }
    if ((actions & LinkStateMachine.SEND_PHYSICAL_DOWN) != 0) {
      listener.send(new PhysicalDown(downAt, retraining));
    }
    if ((actions & LinkStateMachine.SEND_INIT) != 0) {
      sendingDllp();
      // In a model-time event of a training paced in model time: a model-time frame sent at the
      // event's time. Otherwise link management, stamped with the end's clock.
      long event = eventTime.getAsLong();
      boolean timed = modelTimers != null && machine.pacedInModelTime() && event != Long.MIN_VALUE;
      listener.send(new InitFc(receive.size(), machine.training(), machine.partnerTraining(),
          timed ? event : modelNow.getAsLong(), timed));
    }
    if ((actions & LinkStateMachine.SEND_UPDATE) != 0) {
      sendingDllp();
      listener.send(receive.keepalive());
    }
    if ((actions & LinkStateMachine.LINK_UP) != 0) {
      counters.linkUps++;
      transitions.up();
    } else if ((actions & LinkStateMachine.LINK_PROTECTED) != 0) {
      transitions.opened();
    }
  }
}
