package io.rackfabric.cluster.node;

import akka.actor.typed.ActorSystem;
import akka.actor.typed.Behavior;
import akka.actor.typed.Props;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import akka.cluster.ClusterEvent;
import akka.cluster.Member;
import akka.cluster.typed.Cluster;
import akka.cluster.typed.Subscribe;
import java.util.TreeSet;

/**
 * Logs every membership change this node sees at INFO, with the member's address and roles, so
 * that a node's log shows who joined, left or became unreachable (a member that should not be
 * there is visible).
 */
public final class MembershipLog extends AbstractBehavior<MembershipLog.Command> {

  public sealed interface Command permits MemberChanged, ReachabilityChanged {}

  /** A member joined, came up, left, exited, was downed or removed. */
  public record MemberChanged(ClusterEvent.MemberEvent event) implements Command {}

  /** A member became unreachable or reachable again. */
  public record ReachabilityChanged(ClusterEvent.ReachabilityEvent event) implements Command {}

  /** The name the log is started under, one per system. */
  public static final String NAME = "membership-log";

  /** Starts the log as a system actor of {@code system}. */
  public static void start(ActorSystem<?> system) {
    system.systemActorOf(create(), NAME, Props.empty());
  }

  public static Behavior<Command> create() {
    return Behaviors.setup(MembershipLog::new);
  }

  private MembershipLog(ActorContext<Command> context) {
    super(context);
    Cluster cluster = Cluster.get(context.getSystem());
    cluster.subscriptions().tell(Subscribe.create(
        context.messageAdapter(ClusterEvent.MemberEvent.class, MemberChanged::new), ClusterEvent.MemberEvent.class));
    cluster.subscriptions().tell(Subscribe.create(
        context.messageAdapter(ClusterEvent.ReachabilityEvent.class, ReachabilityChanged::new),
        ClusterEvent.ReachabilityEvent.class));
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(MemberChanged.class, this::onMemberChanged)
        .onMessage(ReachabilityChanged.class, this::onReachabilityChanged)
        .build();
  }

  private Behavior<Command> onMemberChanged(MemberChanged msg) {
    log(msg.event().member(), what(msg.event()));
    return this;
  }

  private Behavior<Command> onReachabilityChanged(ReachabilityChanged msg) {
    log(msg.event().member(), msg.event() instanceof ClusterEvent.UnreachableMember ? "unreachable"
        : "reachable again");
    return this;
  }

  private void log(Member member, String what) {
    // Sorted, so that one member's roles read the same in every node's log.
    getContext().getLog().info("Member [{}] {} with roles {}", member.address(), what,
        new TreeSet<>(member.getRoles()));
  }

  /** The change in words, as the log line says it. */
  static String what(ClusterEvent.MemberEvent event) {
    if (event instanceof ClusterEvent.MemberJoined) {
      return "joining";
    } else if (event instanceof ClusterEvent.MemberWeaklyUp) {
      return "weakly up";
    } else if (event instanceof ClusterEvent.MemberUp) {
      return "up";
    } else if (event instanceof ClusterEvent.MemberLeft) {
      return "leaving";
    } else if (event instanceof ClusterEvent.MemberExited) {
      return "exited";
    } else if (event instanceof ClusterEvent.MemberDowned) {
      return "downed";
    } else if (event instanceof ClusterEvent.MemberRemoved removed) {
      return "removed (was " + removed.previousStatus() + ")";
    }
    return "is " + event.member().status(); // later kinds of change (e.g. preparing for shutdown)
  }
}
