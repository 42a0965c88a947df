package io.rackfabric.host.controlplane;

import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.ActorContext;
import io.rackfabric.host.controlplane.ControlPlaneHost.BecomeBackup;
import io.rackfabric.host.controlplane.ControlPlaneHost.BecomeMaster;
import io.rackfabric.host.controlplane.ControlPlaneHost.Command;
import io.rackfabric.host.controlplane.ControlPlaneHost.Pair;
import io.rackfabric.host.controlplane.ControlPlaneHost.Paired;
import io.rackfabric.host.controlplane.ControlPlaneHost.Role;
import io.rackfabric.host.controlplane.ControlPlaneHost.RoleChanged;
import io.rackfabric.host.controlplane.ControlPlaneHost.Submit;
import io.rackfabric.persistence.controller.Controller;
import io.rackfabric.persistence.controller.Replication;
import java.util.ArrayList;
import java.util.List;

/**
 * A lone controller, no backup: the boot of Figure 4 (Ladon), serving the boot's own operations
 * (enumeration, the template image). It becomes the backup ({@link BecomeBackup}: the controller
 * stops, a replica starts on the same journal) or the master ({@link BecomeMaster}: it shows the
 * backup its state, and once the backup holds the same, a controller that replicates takes over).
 * A role change asked for before the boot's controller recovered waits for it.
 */
final class BootingRole extends RoleBehavior {

  private final List<Command> heldRoleChanges = new ArrayList<>();
  private boolean recovered;
  private BecomeMaster pairing;

  private BootingRole(ActorContext<Command> context, HostCore host) {
    super(context, host);
  }

  static Behavior<Command> boot(ActorContext<Command> context, HostCore host) {
    BootingRole booting = new BootingRole(context, host);
    host.startController(Replication.none(), null, ready -> booting.recovered());
    return booting;
  }

  @Override
  Role role() {
    return Role.BOOTING;
  }

  private Behavior<Command> recovered() {
    recovered = true;
    host.serve();
    heldRoleChanges.forEach(getContext().getSelf()::tell);
    heldRoleChanges.clear();
    return this;
  }

  /** The boot's operations only: a host's numbered request waits for a master. */
  @Override
  Behavior<Command> onSubmit(Submit msg) {
    if (msg.operation() instanceof Controller.Request) {
      return super.onSubmit(msg);
    }
    host.admit(msg.operation(), role());
    return this;
  }

  @Override
  Behavior<Command> onBecomeBackup(BecomeBackup msg) {
    if (heldOrRefused(msg, msg.replyTo())) {
      return this;
    }
    host.admission.close();
    host.stopChild(host.controller, () -> {
      host.startReplica();
      msg.replyTo().tell(new RoleChanged(host.name, Role.BACKUP, true, host.lastSeqNr, "backup of its journal"));
      return new BackupRole(getContext(), host);
    });
    return this;
  }

  @Override
  Behavior<Command> onBecomeMaster(BecomeMaster msg) {
    if (heldOrRefused(msg, msg.replyTo())) {
      return this;
    }
    pairing = msg;
    host.peer = msg.backup();
    host.admission.close();
    host.readController(state -> {
      if (state == null) {
        return failPairing("could not read the booted controller's state");
      }
      host.lastSeqNr = state.lastSeqNr();
      host.peer.tell(new Pair(state.lastSeqNr(), state.state(), host.now, getContext().getSelf(),
          host.guest.address()));
      return this;
    });
    return this;
  }

  /** A role change waits for the boot's recovery, or is refused; else false. */
  private boolean heldOrRefused(Command msg, ActorRef<RoleChanged> replyTo) {
    if (!recovered) {
      heldRoleChanges.add(msg);
      return true;
    }
    String refusal = host.controller == null ? host.name + " is " + role() + " without a controller"
        : pairing != null ? host.name + " is already pairing with a backup"
        : host.admission.inFlight() > 0 || !host.admission.isOpen()
            ? host.name + " has " + host.admission.inFlight() + " operations in flight or is still recovering"
            : null;
    if (refusal != null) {
      replyTo.tell(new RoleChanged(host.name, role(), false, host.lastSeqNr, refusal));
      return true;
    }
    return false;
  }

  @Override
  Behavior<Command> onPaired(Paired msg) {
    if (pairing == null) {
      return this;
    }
    host.arrived(msg.sentAt());
    if (!msg.ok()) {
      return failPairing("backup refused: " + msg.detail());
    }
    host.peerGuest = msg.guest();
    BecomeMaster request = pairing;
    host.stopChild(host.controller, () -> {
      host.startController(host.link(host.peer), null, state -> {
        host.lastSeqNr = state.lastSeqNr();
        host.heartbeats.startHeartbeats();
        host.serve();
        request.replyTo().tell(new RoleChanged(host.name, Role.MASTER, true, host.lastSeqNr, "master, paired"));
        return new MasterRole(getContext(), host);
      });
      return this;
    });
    return this;
  }

  private Behavior<Command> failPairing(String detail) {
    getContext().getLog().warn("Host [{}] cannot become master: {}", host.name, detail);
    pairing.replyTo().tell(new RoleChanged(host.name, role(), false, host.lastSeqNr, detail));
    pairing = null;
    host.peer = null;
    host.serve();
    return this;
  }
}
