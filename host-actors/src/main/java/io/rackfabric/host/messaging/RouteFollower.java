package io.rackfabric.host.messaging;

import akka.actor.NoSerializationVerificationNeeded;
import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import io.rackfabric.host.compute.ComputeHost;

/**
 * Carries a compute host's route changes to its datagram service: when the fail-over software
 * moves a target to the other plane (Ladon section 5.3), the service reaches that peer through the
 * other plane's range from the same model time and resends what the old path may have lost.
 */
public final class RouteFollower extends AbstractBehavior<RouteFollower.Command> {

  public sealed interface Command permits RouteChanged, PlaneAnswered {}

  private record RouteChanged(ComputeHost.RouteChanged change) implements Command, NoSerializationVerificationNeeded {}

  private record PlaneAnswered(DatagramService.PlaneReply reply) implements Command, NoSerializationVerificationNeeded {}

  private final int self;
  private final ActorRef<ComputeHost.Command> host;
  private final ActorRef<DatagramService.Command> service;
  private final ActorRef<DatagramService.PlaneReply> replies;

  /**
   * Subscribes to {@code host}'s route changes and applies each to {@code service}.
   *
   * @param self the host's number (i for CH i): a route list names the host itself too, which
   *     is no peer of its own service
   */
  public static Behavior<Command> create(ActorRef<ComputeHost.Command> host, int self,
      ActorRef<DatagramService.Command> service) {
    return Behaviors.setup(ctx -> new RouteFollower(ctx, host, self, service));
  }

  private RouteFollower(ActorContext<Command> context, ActorRef<ComputeHost.Command> host, int self,
      ActorRef<DatagramService.Command> service) {
    super(context);
    this.self = self;
    this.host = host;
    this.service = service;
    this.replies = context.messageAdapter(DatagramService.PlaneReply.class, PlaneAnswered::new);
    host.tell(new ComputeHost.FollowRoutes(context.messageAdapter(ComputeHost.RouteChanged.class, RouteChanged::new),
        context.getSelf()));
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(RouteChanged.class, this::onRouteChanged)
        .onMessage(PlaneAnswered.class, this::onPlaneAnswered)
        .build();
  }

  private Behavior<Command> onRouteChanged(RouteChanged msg) {
    ComputeHost.RouteChanged c = msg.change();
    if (c.target() == self) {
      host.tell(new ComputeHost.RouteFollowed(getContext().getSelf()));
      return this;
    }
    // Followed once the service answered: whatever it queued for the change is at its endpoint.
    service.tell(new DatagramService.UsePlane(c.target(), c.plane(), c.modelAt(), replies));
    return this;
  }

  private Behavior<Command> onPlaneAnswered(PlaneAnswered msg) {
    host.tell(new ComputeHost.RouteFollowed(getContext().getSelf()));
    if (msg.reply() instanceof DatagramService.PlaneRefused r) {
      getContext().getLog().warn("Host [{}] cannot reach host {} through the {} plane: {}",
          r.host(), r.peer(), r.plane().ntb(), r.reason());
    }
    return this;
  }
}
