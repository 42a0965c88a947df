package io.rackfabric.host.controlplane;

import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.ActorContext;
import io.rackfabric.host.controlplane.ControlPlaneHost.Command;
import io.rackfabric.host.controlplane.ControlPlaneHost.Role;
import io.rackfabric.host.controlplane.ControlPlaneHost.RoleChanged;
import io.rackfabric.host.controlplane.ControlPlaneHost.Switchover;
import io.rackfabric.persistence.controller.Controller;
import io.rackfabric.persistence.controller.Controller.OperationResult;
import io.rackfabric.persistence.controller.ControllerEvent;
import java.time.Duration;

/**
 * A former master that was fenced or stood down: it never acknowledges again, so what it
 * acknowledged is all the backup needs. Requests are answered NOT_MASTER, operations still with
 * its controller are answered as they come back. It may rejoin as the backup of the host that
 * fenced it ({@link RejoiningRole}). A host restarted on its journal begins here too.
 */
final class FencedRole extends RoleBehavior {

  /** How long the step-down's journal write may take: a stuck journal is an error, not a model decision. */
  private static final Duration STEP_DOWN_WRITE_TIMEOUT = Duration.ofMinutes(1);

  /** Whether the step-down's event is still being persisted: a rejoin waits for it. */
  private boolean writingStepDown;
  /** A rejoin asked for while the step-down was being persisted. */
  private ControlPlaneHost.Rejoin waitingRejoin;

  private FencedRole(ActorContext<Command> context, HostCore host) {
    super(context, host);
  }

  @Override
  Role role() {
    return Role.FENCED;
  }

  /** Asks the master that fenced it, or the one named, to take it back as backup ({@link RejoiningRole}). */
  @Override
  Behavior<Command> onRejoin(ControlPlaneHost.Rejoin msg) {
    if (writingStepDown) {
      waitingRejoin = msg; // its journal is read once the tenure's end is in it
      return this;
    }
    if (msg.master() != null && !msg.master().equals(host.peer)) {
      host.peer = msg.master();
      host.peerGuest = null; // the master's transfer names its guest address
    }
    return RejoiningRole.start(getContext(), host, msg, this);
  }

  /**
   * A host whose JVM died, started again on its journal ({@code host.persistenceId}: its last
   * tenure's): it serves nothing and starts no controller, so it cannot become a second master; it
   * rejoins a live master as its backup when told which ({@link ControlPlaneHost.Rejoin}).
   */
  static FencedRole restarted(ActorContext<Command> context, HostCore host) {
    context.getLog().info("Host [{}] restarted on its journal {}: FENCED until it rejoins the master", host.name,
        host.persistenceId.id());
    return standDown(context, host, "restarted on its journal " + host.persistenceId.id());
  }

  /**
   * Stops serving: the requests waiting here are refused, new ones too; a switchover under way
   * ({@code switchover}, else null) is answered as failed.
   */
  static FencedRole fence(ActorContext<Command> context, HostCore host, String reason, Switchover switchover) {
    context.getLog().warn("Host [{}] stops serving: {}", host.name, reason);
    FencedRole fenced = standDown(context, host, reason);
    host.admission.close();
    host.admission.takeQueued().forEach(op -> host.refuse(op, Role.FENCED));
    if (switchover != null) {
      switchover.replyTo().tell(new RoleChanged(host.name, Role.FENCED, false, host.lastSeqNr, reason));
    }
    return fenced;
  }

  /**
   * A master that was cut off from its backup learns, when the cut heals at model time
   * {@code healedAt}, that the backup fenced it on the switch meanwhile ({@code notice}): both
   * believed they were master until now. It stops serving; it had served nothing since the cut (it
   * could not replicate), so its journal is a prefix of the fencer's. Its controller persists the
   * step-down to this tenure's journal ({@link ControllerEvent.SteppedDown}, at the host's clock, the
   * heal), once, as the tenure's last event; a rejoin asked meanwhile waits for that write.
   */
  static Behavior<Command> foundFenced(ActorContext<Command> context, HostCore host, ControlPlaneHost.Fenced notice,
      long healedAt) {
    host.now = Math.max(host.now, healedAt);
    FencedRole fenced = fence(context, host, "fenced on the switch by " + notice.by() + " at " + notice.at()
        + " ns while cut off from it; stepped down when the cut healed at " + healedAt + " ns (lastSeqNr="
        + host.lastSeqNr + ")", null);
    if (host.controller == null) {
      context.getLog().warn("Host [{}] has no controller: its step-down is not in its journal", host.name);
      return fenced;
    }
    fenced.writingStepDown = true;
    long at = host.now;
    context.ask(OperationResult.class, host.controller, STEP_DOWN_WRITE_TIMEOUT,
        to -> new Controller.StepDown(notice.by(), notice.at(), at, to), ControlPlaneHost.StepDownWritten::new);
    return fenced;
  }

  /** The step-down is in the journal (or failed to be): a rejoin that waited goes on. */
  @Override
  Behavior<Command> onStepDownWritten(ControlPlaneHost.StepDownWritten msg) {
    super.onStepDownWritten(msg);
    writingStepDown = false;
    ControlPlaneHost.Rejoin waiting = waitingRejoin;
    waitingRejoin = null;
    return waiting == null ? this : onRejoin(waiting);
  }

  /** Stands down for {@code reason}: nothing waits here (a hand-over forwarded it). */
  static FencedRole standDown(ActorContext<Command> context, HostCore host, String reason) {
    host.fencedBecause = reason;
    host.heartbeats.stopHeartbeats();
    return new FencedRole(context, host);
  }
}
