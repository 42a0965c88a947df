package io.rackfabric.fabric.link;

/**
 * The data link state machine of one port, free of actors and clocks: every input takes the
 * current wall time in nanoseconds and returns a bit set of actions for the caller to carry out.
 *
 * <p>Training: each end sends InitFC naming its attempt; on the partner's InitFC an end records
 * the partner's credits and answers once naming the attempt it saw; when both have seen each
 * other the link is DL_PROTECTED, and DL_ACTIVE at once if auto-activation is on. An InitFC naming
 * a new attempt while up means the partner retrained: the link goes down and trains again.
 */
public final class LinkStateMachine {

  public static final int SEND_INIT = 1;
  public static final int SEND_UPDATE = 2;
  public static final int LINK_PROTECTED = 4;
  public static final int LINK_UP = 8;
  public static final int LINK_DOWN = 16;
  public static final int SEND_PHYSICAL_DOWN = 32;
  /** The partner's credits arrived in this InitFC: initialise the transmit ledger from it. */
  public static final int TAKE_PARTNER_CREDITS = 64;
  /** The link went down because DLLPs stopped. */
  public static final int TIMED_OUT = 128;

  private final LinkTimers timers;
  private final boolean autoActivate;
  private DataLinkState state = DataLinkState.DL_INACTIVE;
  private boolean enabled;
  /** Whether a partner's silence for the DLLP timeout takes the link down (see {@link #ignoreSilence}). */
  private boolean silenceDownsLink = true;
  /** Whether training is paced by model-time events, not {@link #tick} (see {@link #paceInModelTime}). */
  private boolean modelPaced;
  private long stateSince;
  private long lastReceived;
  private long lastSent;
  private long myTraining;
  private long trainingCounter;
  private long partnerTraining;
  private boolean partnerHasOurs;

  public LinkStateMachine(LinkTimers timers, boolean autoActivate, long trainingSeed) {
    this.timers = timers;
    this.autoActivate = autoActivate;
    // Distinct per port incarnation so a restarted port's InitFC never looks like a duplicate.
    this.trainingCounter = trainingSeed << 20;
  }

  public DataLinkState state() {
    return state;
  }

  public boolean enabled() {
    return enabled;
  }

  public long training() {
    return myTraining;
  }

  public long partnerTraining() {
    return partnerTraining;
  }

  /** Whether a TLP of this kind may be transmitted in the current state. */
  public boolean mayTransmit(boolean managementOnly) {
    return state == DataLinkState.DL_ACTIVE
        || (state == DataLinkState.DL_PROTECTED && managementOnly);
  }

  /** Whether TLPs from the partner are accepted. */
  public boolean mayReceive() {
    return state == DataLinkState.DL_ACTIVE || state == DataLinkState.DL_PROTECTED;
  }

  public boolean isUp() {
    return mayReceive();
  }

  /** The physical link came up (partner connected, or the link was re-enabled). */
  public int enable(long now) {
    enabled = true;
    if (state == DataLinkState.DL_INACTIVE) {
      return startTraining(now);
    }
    return 0;
  }

  /** The link is taken down at this end (fault injection, or the port is shutting down). */
  public int disable(long now) {
    enabled = false;
    int actions = SEND_PHYSICAL_DOWN;
    if (isUp()) {
      actions |= LINK_DOWN;
    }
    enter(DataLinkState.DL_INACTIVE, now);
    return actions;
  }

  /**
   * The data link layer gives up on the link (REPLAY_NUM rolled over): down at once, the partner
   * told by a physical down, and training again after the retry interval, as PCIe retrains.
   */
  public int retrain(long now) {
    int actions = SEND_PHYSICAL_DOWN;
    if (isUp()) {
      actions |= LINK_DOWN;
    }
    enter(DataLinkState.DL_INACTIVE, now);
    return actions;
  }

  /** Activation by management (the FM's PI-4 write in AS-FM). */
  public int activate(long now) {
    if (state == DataLinkState.DL_PROTECTED) {
      enter(DataLinkState.DL_ACTIVE, now);
      return LINK_UP;
    }
    return 0;
  }

  /**
   * Deactivation by management (the FM's PI-4 write back to DL_Protected in AS-FM section 2.2):
   * the link stays trained and carries management packets only. No action: nothing is lost,
   * data TLPs wait in the transmit queue until the next activation.
   */
  public int deactivate(long now) {
    if (state == DataLinkState.DL_ACTIVE) {
      enter(DataLinkState.DL_PROTECTED, now);
    }
    return 0;
  }

  public int onInitFc(InitFc init, long now) {
    lastReceived = now;
    if (!enabled) {
      return 0;
    }
    int actions = 0;
    if (isUp()) {
      if (init.training() == partnerTraining) {
        // The attempt we trained with: a late duplicate, or the partner's retry because our
        // last InitFC was lost. Never a reason to go down; answer with an UpdateFC, which
        // completes the partner's training (onUpdateFc) and, unlike an InitFC, is never answered.
        return SEND_UPDATE;
      }
      actions |= LINK_DOWN; // the partner retrained: whatever we had is gone
      enter(DataLinkState.DL_INACTIVE, now);
    }
    if (state == DataLinkState.DL_INACTIVE) {
      actions |= startTraining(now);
    }
    if (init.training() != partnerTraining) {
      partnerTraining = init.training();
      actions |= TAKE_PARTNER_CREDITS | SEND_INIT;
    }
    if (init.seenTraining() == myTraining) {
      partnerHasOurs = true;
    }
    return actions | maybeProtected(now);
  }

  /**
   * Training from here on is paced by the caller's model-time events, not the wall-clock {@link
   * #tick}: the tick neither starts a training after the retry interval nor resends InitFC nor
   * gives an attempt up, and a keepalive completes no training ({@link #onKeepalive}). The caller
   * starts training with {@link #retryTraining} at its model time; each InitFC arrives as a
   * model-time event, and none is lost, so none is resent. {@code false}: back to the tick (a
   * link enabled or disabled from outside the model).
   */
  public void paceInModelTime(boolean paced) {
    modelPaced = paced;
  }

  public boolean pacedInModelTime() {
    return modelPaced;
  }

  /** The retry interval is over (a model-time event): an enabled, inactive link trains again. */
  public int retryTraining(long now) {
    if (enabled && state == DataLinkState.DL_INACTIVE) {
      return startTraining(now);
    }
    return 0;
  }

  /**
   * A keepalive UpdateFC: the partner is alive. On the tick's pace it also completes a training
   * like any UpdateFC; paced in model time it does not, since it left on the partner's wall clock,
   * outside the model: the partner's InitFC or first TLP, both model-time events, complete it.
   */
  public int onKeepalive(long now) {
    if (modelPaced) {
      lastReceived = now;
      return 0;
    }
    return onUpdateFc(now);
  }

  /** An UpdateFC also proves the partner finished training with us. */
  public int onUpdateFc(long now) {
    lastReceived = now;
    if (state == DataLinkState.DL_INIT && partnerTraining != 0) {
      partnerHasOurs = true;
      return maybeProtected(now);
    }
    return 0;
  }

  public int onPhysicalDown(long now) {
    lastReceived = now;
    int actions = isUp() ? LINK_DOWN : 0;
    enter(DataLinkState.DL_INACTIVE, now);
    return actions;
  }

  public void onTlpReceived(long now) {
    lastReceived = now;
  }

  public void onSent(long now) {
    lastSent = now;
  }

  /** Timers: keepalive, DLLP timeout, InitFC retries, training timeout, retraining. */
  /**
   * A partner's silence no longer takes the link down: under the model-time kernel every death
   * reaches the link as an event (the partner's PhysicalDown, from a fault, a stop or a kill the
   * run driver made), and silence in wall time only says how loaded the machine is.
   */
  public void ignoreSilence() {
    silenceDownsLink = false;
  }

  public int tick(long now) {
    switch (state) {
      case DL_ACTIVE, DL_PROTECTED -> {
        if (silenceDownsLink && now - lastReceived > timers.dllpTimeout().toNanos()) {
          enter(DataLinkState.DL_INACTIVE, now);
          return LINK_DOWN | TIMED_OUT;
        }
        if (now - lastSent >= timers.keepalive().toNanos()) {
          return SEND_UPDATE;
        }
        return 0;
      }
      case DL_INIT -> {
        if (modelPaced) {
          return 0;
        }
        // Only a silent partner makes an attempt give up. One that answered (we hold its
        // credits) may have finished training with us already: a fresh attempt now would take its
        // link down by surprise, as a JVM slow to start once did to a CH's root port before any
        // traffic. The attempt goes on; the partner's UpdateFC or InitFC completes it.
        if (partnerTraining == 0 && now - stateSince > timers.initTimeout().toNanos()) {
          enter(DataLinkState.DL_INACTIVE, now);
          return 0;
        }
        return now - lastSent >= timers.initRetry().toNanos() ? SEND_INIT : 0;
      }
      default -> {
        if (enabled && !modelPaced && now - stateSince >= timers.retryInterval().toNanos()) {
          return startTraining(now);
        }
        return 0;
      }
    }
  }

  private int startTraining(long now) {
    myTraining = ++trainingCounter;
    partnerTraining = 0;
    partnerHasOurs = false;
    enter(DataLinkState.DL_INIT, now);
    lastReceived = now;
    return SEND_INIT;
  }

  private int maybeProtected(long now) {
    if (state == DataLinkState.DL_INIT && partnerTraining != 0 && partnerHasOurs) {
      enter(DataLinkState.DL_PROTECTED, now);
      if (autoActivate) {
        enter(DataLinkState.DL_ACTIVE, now);
        return LINK_PROTECTED | LINK_UP;
      }
      return LINK_PROTECTED;
    }
    return 0;
  }

  private void enter(DataLinkState next, long now) {
    state = next;
    stateSince = now;
  }
}
