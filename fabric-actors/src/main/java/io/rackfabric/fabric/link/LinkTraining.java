package io.rackfabric.fabric.link;

import io.rackfabric.fabric.credit.FcCredits;
import io.rackfabric.fabric.tlp.ErrorMessage;
import java.util.function.LongSupplier;

/**
 * The link management of one link end: drives its {@link LinkStateMachine} on the wall clock
 * (training, keepalives, the DLLP timeout, retraining) and sends the DLLPs the machine's decisions
 * call for (InitFC, keepalive UpdateFC, the physical layer going down). What the link going down
 * or up means for the TLPs is the end's ({@link Transitions}).
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
    apply(machine.enable(wallNanos.getAsLong()), null);
  }

  void disable(long modelAt) {
    apply(machine.disable(wallNanos.getAsLong()), ErrorMessage.Cause.SURPRISE_DOWN, modelAt);
  }

  /** The physical layer went down at model {@code modelAt}: the partner's or lost with it. */
  void physicalDown(long modelAt) {
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
    apply(machine.retrain(wallNanos.getAsLong()), ErrorMessage.Cause.REPLAY_ROLLOVER, modelAt);
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
    // Training runs on the link's wall-clock timers; how many InitFCs it took must not move the
    // model clock.
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

  /** @param downAt the model time a link-down among the actions happens at */
  private void apply(int actions, ErrorMessage.Cause downCause, long downAt) {
    if ((actions & LinkStateMachine.LINK_DOWN) != 0) {
      transitions.down(downCause == null ? ErrorMessage.Cause.SURPRISE_DOWN : downCause, downAt);
    }
    if ((actions & LinkStateMachine.SEND_PHYSICAL_DOWN) != 0) {
      listener.send(new PhysicalDown(downAt));
    }
    if ((actions & LinkStateMachine.SEND_INIT) != 0) {
      sendingDllp();
      listener.send(new InitFc(receive.size(), machine.training(), machine.partnerTraining(),
          modelNow.getAsLong()));
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
