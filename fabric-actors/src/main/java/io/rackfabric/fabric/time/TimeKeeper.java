package io.rackfabric.fabric.time;

import akka.actor.NoSerializationVerificationNeeded;
import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.Terminated;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import akka.actor.typed.receptionist.ServiceKey;
import io.rackfabric.fabric.link.PortMessage;
import io.rackfabric.fabric.wire.WireMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The run's model-time kernel: it decides, for every component that joined it, up to which model
 * time it may handle its events, so that no component ever handles an event while something
 * stamped earlier could still reach it. The outcome of a run is then a function of its inputs and
 * not of thread scheduling or machine load.
 *
 * <p>Each round: once every component has reported since its last grant and every counted
 * message sent has been received (nothing is in flight), {@link SyncBook} computes each
 * component's safe time from every component's earliest pending event and the channels'
 * lookaheads ({@link SyncGraph#safeTimes}), and each component with an event before its safe
 * time gets a {@link Grant}. Idle time costs nothing: when the earliest event anywhere is at T,
 * the next round starts at T however far away it is. Components that joined run in rounds
 * only after every expected component has joined.
 */
public final class TimeKeeper extends AbstractBehavior<TimeKeeper.Command> {

  /** Where components and run drivers find the keeper, on any node. */
  public static final ServiceKey<Command> KEY = ServiceKey.create(Command.class, "rackfabric-time-keeper");

  public sealed interface Command permits Register, Report, GetStatus, AwaitIdle, HoldBefore, Limit, Release, Forget,
      ExpectBack, GetStart, MemberStopped {}

  /** A channel a component sends on: to component {@code to}, at least {@code lookaheadNs} later. */
  public record Channel(String to, long lookaheadNs) implements WireMessage {}

  /**
   * A component joins: its channels, and its counts so far ({@code sentTo} per channel, in the
   * order of {@code channels}). {@code nextBusy}: its earliest pending event that is not
   * background (see {@link Synchronizer#scheduleBackground}).
   */
  public record Register(String member, ActorRef<Grant> ref, List<Channel> channels, long[] sentTo, long received,
      long next, long nextBusy, long stragglers, long now) implements Command, WireMessage {}

  /**
   * A component's counts and earliest pending event: after a grant ({@code round} = the grant's)
   * or when a message arrived or left outside one ({@code round} = -1). {@code now}: the model
   * time of the last event it handled.
   */
  public record Report(String member, long round, long[] sentTo, long received, long next, long nextBusy,
      long stragglers, ActorRef<Confirmed> confirm, long now) implements Command, WireMessage {}

  /**
   * To a component, from a run driver that has just sent it commands that schedule model-time
   * events (a traffic plan): report to the keeper, which then answers {@link Confirmed}. The
   * component handles its messages in order, so once the driver has the answer the keeper knows
   * every event those commands scheduled.
   */
  public record Confirm(ActorRef<Confirmed> replyTo) implements PortMessage, WireMessage {}

  public record Confirmed(String member) implements WireMessage {}

  /**
   * To a component, from a run driver holding the rack before {@code from}: the component is
   * paused over [{@code from}, {@code until}) (its node frozen in the model): what is due in it
   * is handled at {@code until}. It reports to the keeper, which answers {@link Confirmed}.
   */
  public record Pause(long from, long until, ActorRef<Confirmed> replyTo) implements PortMessage, WireMessage {}

  /**
   * From a run driver: grant nothing at or after model time {@code until} until {@link Release};
   * answered with {@link Status} once everything before it is done. A driver holds the rack at
   * the model time it will act at (start traffic, apply a fault), acts, has its commands
   * {@link Confirm}ed, and releases: its actions then enter the model exactly at that time,
   * whatever the machine's load.
   */
  public record HoldBefore(long until, ActorRef<Status> replyTo) implements Command, WireMessage {}

  public record Release() implements Command, WireMessage {}

  /**
   * From a run driver: grant nothing at or after {@code until} from now on, without waiting for
   * an answer (the driver's next act is at {@code until}; it holds there with {@link HoldBefore}).
   */
  public record Limit(long until) implements Command, WireMessage {

    /**
     * Nothing more is granted: a run's end, before its actors stop. Stopping, a component notices
     * its partners' ends at its own clock, which stands at its last event; what it sent then would
     * reach components far ahead of it as stragglers.
     */
    public static Limit freeze() {
      return new Limit(Long.MIN_VALUE);
    }
  }

  /**
   * From a run driver that has just killed the JVM of these components, after taking their links
   * down at the kill's model time and holding the rack quiet there (each reported its last sends
   * and they arrived): the rounds go on without them at once, with every count still exact,
   * rather than when cluster membership reports their death, a wall-time moment.
   */
  public record Forget(List<String> members) implements Command, WireMessage {}

  /**
   * From a run driver about to start the JVM of these forgotten components again at model time
   * {@code at} (a {@code restart-node}): each may join again under its name, with fresh counts and
   * its clock starting at {@code at}; nothing at or after {@code at} is granted to anyone until all
   * have. Answered with {@link Back} once they all joined, or at once with the reason it is refused.
   */
  public record ExpectBack(List<String> members, long at, ActorRef<Back> replyTo) implements Command, WireMessage {}

  /** The answer to {@link ExpectBack}: {@code problem} null once every member joined again. */
  public record Back(List<String> members, long at, String problem) implements WireMessage {}

  /**
   * From software on a restarted node: the model time {@code member}'s clock starts at, answered
   * with {@link Start} ({@code Long.MIN_VALUE} for a member no restart brought back).
   */
  public record GetStart(String member, ActorRef<Start> replyTo) implements Command, WireMessage {}

  public record Start(String member, long at) implements WireMessage {}

  /**
   * To a component: handle every event before model time {@code until}, a background one only
   * before {@code backgroundUntil} too (see {@link SyncBook}), then report. {@code since}: the
   * model time its clock starts at, past {@code Long.MIN_VALUE} for a component its node's restart
   * brought back: what it has due earlier is handled then.
   */
  public record Grant(long round, long until, long backgroundUntil, long since) implements PortMessage, WireMessage {

    /** A grant to a component that never left. */
    public Grant(long round, long until, long backgroundUntil) {
      this(round, until, backgroundUntil, Long.MIN_VALUE);
    }

    /** A grant without background limit. */
    public Grant(long round, long until) {
      this(round, until, until);
    }
  }

  /** What a component sends itself to report once after a burst of arrivals (see {@link Synchronizer}). */
  public enum Flush implements PortMessage, NoSerializationVerificationNeeded { INSTANCE }

  public record GetStatus(ActorRef<Status> replyTo) implements Command, WireMessage {}

  /**
   * @param expected components the keeper waits for before the first round
   * @param joined components that joined (and are still running)
   * @param rounds rounds run so far
   * @param grants grants sent so far
   * @param reports reports received so far
   * @param earliest the earliest pending event anywhere, {@code Long.MAX_VALUE} when none
   * @param stragglers events that arrived at a component stamped before one it had handled
   * @param idle nothing pending, nothing in flight, no grant outstanding
   * @param waiting what the next round waits for, for a person reading a stuck run: the members
   *     yet to report on their grant, then those owed messages in flight (at most a few of each)
   * @param reached the latest model time any component has handled an event at, as reported: a
   *     run driver that puts something into a quiet rack stamps it no earlier, or it would reach
   *     components past their clocks
   * @param settled every member joined, nothing in flight, no grant outstanding: the rack has
   *     done everything before {@code earliest} (a run held at a limit has reached it once
   *     {@code earliest} is at or past the limit)
   */
  public record Status(int expected, int joined, long rounds, long grants, long reports, long earliest,
      long stragglers, boolean idle, String waiting, long reached, boolean settled) implements WireMessage {

    /** Messages of the synchronization itself: a grant and its report, plus reports outside rounds. */
    public long syncMessages() {
      return grants + reports;
    }
  }

  /** Answered with {@link Status} once the rack is idle (at once if it is). */
  public record AwaitIdle(ActorRef<Status> replyTo) implements Command, WireMessage {}

  private record MemberStopped(String member, int incarnation) implements Command, NoSerializationVerificationNeeded {}

  private final SyncBook book;
  private final Set<String> expected;
  private final List<AwaitIdle> idleWaiters = new ArrayList<>();
  private final List<HoldBefore> holdWaiters = new ArrayList<>();
  private final List<ExpectBack> backWaiters = new ArrayList<>();
  private boolean allJoined;

  /**
   * @param expected the components that will join; rounds start when all have (empty: start with
   *     the first)
   */
  public static Behavior<Command> create(Set<String> expected) {
    return Behaviors.setup(ctx -> new TimeKeeper(ctx, expected));
  }

  private TimeKeeper(ActorContext<Command> context, Set<String> expected) {
    super(context);
    this.expected = new TreeSet<>(expected);
    this.book = new SyncBook();
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(Register.class, this::onRegister)
        .onMessage(Report.class, this::onReport)
        .onMessage(GetStatus.class, this::onGetStatus)
        .onMessage(AwaitIdle.class, this::onAwaitIdle)
        .onMessage(HoldBefore.class, this::onHoldBefore)
        .onMessage(Release.class, this::onRelease)
        .onMessage(Limit.class, this::onLimit)
        .onMessage(Forget.class, this::onForget)
        .onMessage(ExpectBack.class, this::onExpectBack)
        .onMessage(GetStart.class, this::onGetStart)
        .onMessage(MemberStopped.class, this::onMemberStopped)
        .build();
  }

  private Behavior<Command> onRegister(Register msg) {
    String problem = book.register(msg.member(), msg.ref(), msg.channels(), msg.sentTo(), msg.received(), msg.next(),
        msg.nextBusy(), msg.stragglers(), msg.now());
    if (problem != null) {
      getContext().getLog().error("Time keeper: {} not admitted: {}", msg.member(), problem);
      return this;
    }
    int incarnation = book.incarnation(msg.member());
    if (incarnation == 0) {
      getContext().watchWith(msg.ref(), new MemberStopped(msg.member(), incarnation));
    } else {
      // Not watched: a watch on a component of a node JVM started again at its old address was seen
      // to fire at once (2026-11-27: 25 ms after it joined, its node still joining the cluster), and
      // would take the live member out. Its later death reaches the keeper from the run driver that
      // kills it (Forget); a restarted JVM that crashes unasked stalls the rounds, which the run's
      // wall limit ends, the progress line naming the member the rounds wait for.
      getContext().getLog().info("Time keeper: member [{}] joined again (incarnation {})", msg.member(), incarnation);
    }
    advance();
    return this;
  }

  private Behavior<Command> onReport(Report msg) {
    book.report(msg.member(), msg.round(), msg.sentTo(), msg.received(), msg.next(), msg.nextBusy(), msg.stragglers(),
        msg.now());
    if (msg.confirm() != null) {
      msg.confirm().tell(new Confirmed(msg.member()));
    }
    advance();
    return this;
  }

  private Behavior<Command> onForget(Forget msg) {
    getContext().getLog().info("Time keeper: members {} forgotten; the rounds go on without them", msg.members());
    msg.members().forEach(book::retire);
    advance();
    return this;
  }

  private Behavior<Command> onExpectBack(ExpectBack msg) {
    String problem = book.expectBack(msg.members(), msg.at());
    if (problem != null) {
      msg.replyTo().tell(new Back(msg.members(), msg.at(), problem));
      return this;
    }
    getContext().getLog().info("Time keeper: members {} expected back at {} ns; nothing is granted from then on"
        + " until they joined", msg.members(), msg.at());
    backWaiters.add(msg);
    advance();
    return this;
  }

  private Behavior<Command> onGetStart(GetStart msg) {
    msg.replyTo().tell(new Start(msg.member(), book.startOf(msg.member())));
    return this;
  }

  private Behavior<Command> onMemberStopped(MemberStopped msg) {
    getContext().getLog().info("Time keeper: member [{}] (incarnation {}) stopped; the rounds go on without it",
        msg.member(), msg.incarnation());
    book.remove(msg.member(), msg.incarnation());
    advance();
    return this;
  }

  private Behavior<Command> onGetStatus(GetStatus msg) {
    msg.replyTo().tell(status());
    return this;
  }

  private Behavior<Command> onAwaitIdle(AwaitIdle msg) {
    idleWaiters.add(msg);
    advance();
    return this;
  }

  private Behavior<Command> onHoldBefore(HoldBefore msg) {
    book.holdBefore(msg.until());
    holdWaiters.add(msg);
    advance();
    return this;
  }

  private Behavior<Command> onLimit(Limit msg) {
    book.holdBefore(msg.until());
    advance();
    return this;
  }

  private Behavior<Command> onRelease(Release msg) {
    book.holdBefore(Long.MAX_VALUE);
    advance();
    return this;
  }

  private Status status() {
    return new Status(expected.size(), book.joined(), book.rounds(), book.grants(), book.reports(), book.earliest(),
        book.stragglers(), book.idle() && allJoined(), book.waiting(), book.reached(),
        book.settled() && allJoined());
  }

  private boolean allJoined() {
    if (!allJoined) {
      allJoined = book.joinedAll(expected); // checked on each message only until it holds
      List<String> cycle = allJoined ? book.zeroCycle() : List.of();
      if (!cycle.isEmpty()) {
        // Such a cycle is ordered one component at a time (SyncBook's tie rule): correct, but slow
        // if it carries the data plane (a setting made a switch latency 0).
        getContext().getLog().warn("Time keeper: channels of lookahead 0 form a cycle {}; events on it are"
            + " handled one component at a time", cycle);
      }
    }
    return allJoined;
  }

  private void advance() {
    if (!backWaiters.isEmpty()) {
      List<String> awaited = book.awaitedBack();
      backWaiters.removeIf(w -> {
        boolean back = w.members().stream().noneMatch(awaited::contains);
        if (back) {
          w.replyTo().tell(new Back(w.members(), w.at(), null));
        }
        return back;
      });
    }
    if (!allJoined()) {
      return;
    }
    List<SyncBook.Granted> grants = book.nextRound();
    for (SyncBook.Granted g : grants) {
      g.ref().tell(new Grant(g.round(), g.until(), g.backgroundUntil(), g.since()));
    }
    if (grants.isEmpty() && !idleWaiters.isEmpty() && book.idle()) {
      Status s = status();
      idleWaiters.forEach(w -> w.replyTo().tell(s));
      idleWaiters.clear();
    }
    if (grants.isEmpty() && !holdWaiters.isEmpty() && book.quietBefore(book.hold())) {
      Status s = status();
      holdWaiters.forEach(w -> w.replyTo().tell(s));
      holdWaiters.clear();
    }
  }
}
