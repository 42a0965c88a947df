package io.rackfabric.fabric.time;

import akka.actor.typed.ActorRef;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A component's side of the conservative synchronization, embedded in its actor: model-time
 * events (frames from its link partner, messages from sibling ports, its own scheduled events)
 * go into an {@link InputQueue} and are handled, in that queue's order, only up to what the
 * {@link TimeKeeper} grants; what the component sends to other components is counted per
 * channel so that the keeper knows when nothing is in flight. Until the component has joined a
 * keeper it runs free: every event is handled as it arrives, in arrival order (tests of one
 * actor, a node started without a run driver).
 *
 * <p>The owning actor calls {@link #receive} for each model-time message, {@link #sent} for each
 * it sends, {@link #onGrant} for a {@link TimeKeeper.Grant} and {@link #flush} for the
 * {@link TimeKeeper.Flush} it is asked to send itself (see {@code requestFlush}).
 *
 * <p>Not thread-safe: one owner.
 */
public final class Synchronizer<E> {

  /** Handles one event at its model time. */
  @FunctionalInterface
  public interface Handler<E> {
    void handle(E event, long time);
  }

  /** Channel keys below 0 are the component's own. */
  public static final int SELF = -1;

  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(Synchronizer.class);

  private final String member;
  private final Handler<E> handler;
  private final Runnable requestFlush;
  private final InputQueue<E> queue = new InputQueue<>();
  private final Map<String, Integer> channelIndex = new HashMap<>();
  private final List<TimeKeeper.Channel> channels = new ArrayList<>();
  private long[] sentTo = new long[0];
  private ActorRef<TimeKeeper.Command> keeper;
  private long received;
  private long stragglers;
  /** Model time of the event being handled, or of the last one. */
  private long now;
  private boolean inGrant;
  /** The grant whose events wait, after the one being handled, for {@link #resume}. */
  private TimeKeeper.Grant suspended;
  private boolean suspendAsked;
  private boolean dirty;
  private boolean flushPending;
  /** Pauses of this component, [from, until) each: what falls in one is handled at its end. */
  private final List<long[]> pauses = new ArrayList<>();

  /**
   * @param member the component's id in the keeper's graph (its link end name)
   * @param requestFlush makes the owner send itself {@link TimeKeeper.Flush} (once per request)
   */
  public Synchronizer(String member, Handler<E> handler, Runnable requestFlush) {
    this.member = member;
    this.handler = handler;
    this.requestFlush = requestFlush;
  }

  /**
   * Declares a channel this component sends on, with its lookahead; returns the index to pass to
   * {@link #sent}. Declaring the same target again returns the same index (smaller lookahead kept).
   */
  public int declare(String to, long lookaheadNs) {
    Integer i = channelIndex.get(to);
    if (i != null) {
      TimeKeeper.Channel c = channels.get(i);
      channels.set(i, new TimeKeeper.Channel(to, Math.min(c.lookaheadNs(), lookaheadNs)));
      return i;
    }
    if (keeper != null) {
      throw new IllegalStateException(member + ": channel to " + to + " declared after joining the keeper");
    }
    channels.add(new TimeKeeper.Channel(to, lookaheadNs));
    sentTo = java.util.Arrays.copyOf(sentTo, channels.size());
    channelIndex.put(to, channels.size() - 1);
    return channels.size() - 1;
  }

  /** Joins {@code keeper}: from now on events wait for its grants. */
  public void join(ActorRef<TimeKeeper.Command> keeper, ActorRef<TimeKeeper.Grant> self) {
    if (this.keeper != null) {
      return;
    }
    this.keeper = keeper;
    keeper.tell(new TimeKeeper.Register(member, self, List.copyOf(channels), sentTo.clone(), received,
        queue.nextTime(), queue.nextBusyTime(), stragglers, now));
  }

  public boolean joined() {
    return keeper != null;
  }

  /**
   * The component is paused over [{@code from}, {@code until}) of model time (its node held, as a
   * frozen host would be): every event due in it, queued or still to come, is handled at
   * {@code until}, in its order. Under the kernel only; free-running nothing happens.
   */
  public void pause(long from, long until) {
    if (keeper == null || until <= from) {
      return;
    }
    pauses.add(new long[] {from, until});
    // Deferred to the pause's end, or past the pauses it runs into.
    queue.defer(from, until);
    queue.defer(until, unpaused(until));
    changed();
  }

  /** {@code time}, or the end of the pause it falls in (of the next one, when pauses overlap). */
  private long unpaused(long time) {
    if (pauses.isEmpty()) {
      return time; // every event passes here: no loop when nothing was ever paused
    }
    boolean moved = true;
    while (moved) {
      moved = false;
      for (long[] p : pauses) {
        if (time >= p[0] && time < p[1]) {
          time = p[1];
          moved = true;
        }
      }
    }
    return time;
  }

  /** A model-time message arrived on input channel {@code channel}, due at {@code time}. */
  public void receive(long time, int channel, E event) {
    received++;
    time = unpaused(time);
    if (keeper == null) {
      now = Math.max(now, time);
      handler.handle(event, time);
      return;
    }
    if (time < now) {
      stragglers++; // an input that no grant foresaw: a source outside the synchronization
      LOG.warn("Member [{}] straggler on channel {}: {} stamped {} ns behind its clock {} ns", member, channel,
          event.getClass().getSimpleName(), now - time, now);
    }
    queue.add(time, channel, event);
    changed();
  }

  /**
   * Schedules one of the component's own events at model {@code time} (a generator's next
   * request). Free-running, it is handled at once.
   */
  public void schedule(long time, E event) {
    if (keeper == null) {
      now = Math.max(now, time);
      handler.handle(event, time);
      return;
    }
    queue.add(unpaused(Math.max(time, now)), SELF, event);
    changed();
  }

  /**
   * Schedules one of the component's own events at a model {@code time} fixed by another component
   * (a reassignment stamped by the management host): it must arrive before the clock passes it.
   * One due behind the clock is counted as a straggler and handled at the clock. Free-running, it
   * is handled at once.
   */
  public void scheduleStamped(long time, E event) {
    if (keeper != null && time < now) {
      stragglers++;
      LOG.warn("Member [{}] straggler: its own {} stamped {} ns behind its clock {} ns", member,
          event.getClass().getSimpleName(), now - time, now);
    }
    schedule(time, event);
  }

  /**
   * Schedules a background event of the component's own (a periodic timer): handled in model-time
   * order like any other, but it keeps no released rack running (see {@link TimeKeeper}): a rack
   * whose only pending events are background ones is idle. Free-running, it is handled at once.
   */
  public void scheduleBackground(long time, E event) {
    if (keeper == null) {
      now = Math.max(now, time);
      handler.handle(event, time);
      return;
    }
    queue.addBackground(unpaused(Math.max(time, now)), SELF, event);
    changed();
  }

  /**
   * Takes back one of the component's own events scheduled earlier (a timeout whose request was
   * answered in time), every queued event equal to {@code event}, so that it does not move the
   * component's clock. One already handled, or never scheduled, is no change. Free-running there
   * is nothing to take back: the event was handled when it was scheduled. The keeper's view of the
   * earliest event may stay earlier until the next report: conservative, never wrong.
   */
  public void cancel(E event) {
    if (keeper != null && queue.remove(event)) {
      changed();
    }
  }

  /** A model-time message went out on declared channel {@code channel}. */
  public void sent(int channel) {
    sentTo[channel]++;
    changed();
  }

  /** Handles every queued event before the grant's limit, in order, then reports. */
  public void onGrant(TimeKeeper.Grant grant) {
    run(grant);
  }

  private void run(TimeKeeper.Grant grant) {
    if (grant.since() > now) {
      // Brought back by its node's restart: its clock starts at the restart's model time, and
      // what it had due earlier (its start-up) is handled then, in its order.
      queue.defer(Long.MIN_VALUE, grant.since());
      now = grant.since();
    }
    inGrant = true;
    InputQueue.Entry<E> e;
    while ((e = queue.pollBefore(grant.until(), grant.backgroundUntil())) != null) {
      now = Math.max(now, e.time());
      try {
        handler.handle(e.event(), e.time());
      } catch (RuntimeException failure) {
        inGrant = false;
        throw failure;
      }
      if (suspendAsked) {
        suspendAsked = false;
        suspended = grant; // still in the grant: what arrives meanwhile waits for it, unreported
        return;
      }
    }
    inGrant = false;
    report(grant.round());
  }

  /**
   * Called by the handler while it handles a granted event: the events after it wait until
   * {@link #resume}, because software outside the component (host software running next to it)
   * must act on this event first, at its model time. Outside a grant (free-running, or an event
   * handled as it arrived) there is nothing to hold back, and nothing happens.
   */
  public void suspend() {
    if (inGrant && suspended == null) {
      suspendAsked = true;
    }
  }

  /** Goes on with the suspended grant's events, then reports; nothing when none is suspended. */
  public void resume() {
    TimeKeeper.Grant grant = suspended;
    if (grant != null) {
      suspended = null;
      run(grant);
    }
  }

  public boolean suspended() {
    return suspended != null;
  }

  /**
   * A driver's {@link TimeKeeper.Confirm}: reports now, with the confirmation for the keeper to
   * pass on. Free-running, the driver is answered at once.
   */
  public void confirm(TimeKeeper.Confirm msg) {
    if (keeper == null) {
      msg.replyTo().tell(new TimeKeeper.Confirmed(member));
      return;
    }
    dirty = false;
    keeper.tell(new TimeKeeper.Report(member, -1, sentTo.clone(), received, queue.nextTime(), queue.nextBusyTime(),
        stragglers, msg.replyTo(), now));
  }

  /** The owner's {@link TimeKeeper.Flush}: reports what changed since the last report. */
  public void flush() {
    flushPending = false;
    if (dirty && keeper != null) {
      report(-1);
    }
  }

  private void changed() {
    if (inGrant || keeper == null) {
      return; // a grant reports when it is done; free-running there is nobody to tell
    }
    dirty = true;
    if (!flushPending) {
      flushPending = true;
      requestFlush.run();
    }
  }

  private void report(long round) {
    dirty = false;
    keeper.tell(new TimeKeeper.Report(member, round, sentTo.clone(), received, queue.nextTime(), queue.nextBusyTime(),
        stragglers, null, now));
  }

  /** Model time of the event being handled (or of the last one handled). */
  public long now() {
    return now;
  }

  public long stragglers() {
    return stragglers;
  }

  public int pending() {
    return queue.size();
  }
}
