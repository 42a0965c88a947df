package io.rackfabric.host.controlplane;

import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.ActorContext;
import io.rackfabric.host.controlplane.ControlPlaneHost.Command;
import io.rackfabric.host.controlplane.ControlPlaneHost.Role;
import io.rackfabric.host.controlplane.ControlPlaneHost.RoleChanged;
import io.rackfabric.host.controlplane.ControlPlaneHost.Switchover;

/**
 * A former master that was fenced or stood down: it never acknowledges again, so what it
 * acknowledged is all the backup needs. Requests are answered NOT_MASTER, operations still with
 * its controller are answered as they come back. It may rejoin as the backup of the host that
 * fenced it ({@link RejoiningRole}).
 */
final class FencedRole extends RoleBehavior {

  private FencedRole(ActorContext<Command> context, HostCore host) {
    super(context, host);
  }

  @Override
  Role role() {
    return Role.FENCED;
  }

  /** Asks the master that fenced it to take it back as backup ({@link RejoiningRole}). */
  @Override
  Behavior<Command> onRejoin(ControlPlaneHost.Rejoin msg) {
    return RejoiningRole.start(getContext(), host, msg, this);
  }

  /**
   * Stops serving: the requests waiting here are refused, new ones too; a switchover under way
   * ({@code switchover}, else null) is answered as failed.
   */
  static Behavior<Command> fence(ActorContext<Command> context, HostCore host, String reason, Switchover switchover) {
    context.getLog().warn("Host [{}] stops serving: {}", host.name, reason);
    FencedRole fenced = standDown(context, host, reason);
    host.admission.close();
    host.admission.takeQueued().forEach(op -> host.refuse(op, Role.FENCED));
    if (switchover != null) {
      switchover.replyTo().tell(new RoleChanged(host.name, Role.FENCED, false, host.lastSeqNr, reason));
    }
    return fenced;
  }

  /** Stands down for {@code reason}: nothing waits here (a hand-over forwarded it). */
  static FencedRole standDown(ActorContext<Command> context, HostCore host, String reason) {
    host.fencedBecause = reason;
    host.heartbeats.stopHeartbeats();
    return new FencedRole(context, host);
  }
}
