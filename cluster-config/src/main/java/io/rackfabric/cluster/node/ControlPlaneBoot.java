package io.rackfabric.cluster.node;

import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import akka.actor.typed.receptionist.Receptionist;
import io.rackfabric.cluster.topology.ControlPlaneSpec;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.fabric.switchchip.SwitchChip;
import io.rackfabric.host.controlplane.ControlPlaneHost;
import io.rackfabric.persistence.controller.Controller.Operation;
import io.rackfabric.persistence.controller.Controller.OperationResult;
import java.util.List;
import java.util.function.Function;

/**
 * Pairs the management hosts once both run, on the master's node: tells the backup which switch
 * chip to fence the master on (every port but the master's), makes the master's host MASTER with
 * the backup, and boots its controller with {@link ControlPlaneBootPlan}'s operations, one at a
 * time (the controller acknowledges each after the backup persisted it), up to the template
 * image. A failed step is logged and ends the boot: the rack's data plane does not depend on it.
 */
public final class ControlPlaneBoot extends AbstractBehavior<ControlPlaneBoot.Command> {

  public sealed interface Command {}

  /** A listing of the backup's host or of the fencing chip (one adapter per message class). */
  private record Listed(Receptionist.Listing listing) implements Command {}

  private record Paired(ControlPlaneHost.RoleChanged changed) implements Command {}

  private record Booted(OperationResult result) implements Command {}

  private final ControlPlaneSpec pair;
  private final ActorRef<ControlPlaneHost.Command> master;
  private final List<Function<ActorRef<OperationResult>, Operation>> operations;
  private final int masterPort;
  private ActorRef<ControlPlaneHost.Command> backup;
  private ActorRef<SwitchChip.Command> chip;
  private int next;
  private boolean paired;

  public static Behavior<Command> create(Topology topology, ActorRef<ControlPlaneHost.Command> master) {
    return Behaviors.setup(ctx -> new ControlPlaneBoot(ctx, topology, master));
  }

  private ControlPlaneBoot(ActorContext<Command> context, Topology topology,
      ActorRef<ControlPlaneHost.Command> master) {
    super(context);
    this.pair = topology.controlPlane();
    this.master = master;
    this.operations = ControlPlaneBootPlan.operations(topology);
    this.masterPort = topology.switchSpec(pair.fencingSwitch()).flatMap(s -> s.port(pair.masterPort()))
        .orElseThrow().number();
    ActorRef<Receptionist.Listing> listings = context.messageAdapter(Receptionist.Listing.class, Listed::new);
    context.getSystem().receptionist().tell(Receptionist.subscribe(ComponentKeys.controlPlaneHost(pair.backup()),
        listings));
    context.getSystem().receptionist().tell(Receptionist.subscribe(ComponentKeys.switchChip(pair.fencingSwitch()),
        listings));
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(Listed.class, this::onListed)
        .onMessage(Paired.class, this::onPaired)
        .onMessage(Booted.class, this::onBooted)
        .build();
  }

  private Behavior<Command> onListed(Listed msg) {
    var backupKey = ComponentKeys.controlPlaneHost(pair.backup());
    var chipKey = ComponentKeys.switchChip(pair.fencingSwitch());
    if (msg.listing().isForKey(backupKey) && backup == null) {
      backup = msg.listing().getServiceInstances(backupKey).stream().findFirst().orElse(null);
    } else if (msg.listing().isForKey(chipKey) && chip == null) {
      chip = msg.listing().getServiceInstances(chipKey).stream().findFirst().orElse(null);
    }
    pairIfReady();
    return this;
  }

  private void pairIfReady() {
    if (backup == null || chip == null || paired) {
      return;
    }
    paired = true;
    backup.tell(new ControlPlaneHost.UseFenceTargets(List.of(new ControlPlaneHost.FenceTarget(chip, List.of(masterPort)))));
    master.tell(new ControlPlaneHost.BecomeMaster(backup, getContext().messageAdapter(
        ControlPlaneHost.RoleChanged.class, Paired::new)));
  }

  private Behavior<Command> onPaired(Paired msg) {
    if (!msg.changed().ok()) {
      getContext().getLog().error("Control plane [{}] could not pair with [{}]: {}", pair.master(), pair.backup(),
          msg.changed().detail());
      return Behaviors.stopped();
    }
    getContext().getLog().info("Control plane [{}] is master, [{}] its backup; booting the controller",
        pair.master(), pair.backup());
    submitNext();
    return this;
  }

  private Behavior<Command> onBooted(Booted msg) {
    if (!msg.result().accepted()) {
      getContext().getLog().error("Control plane [{}] boot step {} of {} refused: {} {}", pair.master(), next,
          operations.size(), msg.result().status(), msg.result().detail());
      return Behaviors.stopped();
    }
    if (next < operations.size()) {
      submitNext();
      return this;
    }
    getContext().getLog().info("Control plane [{}] booted: template image at sequence number {}", pair.master(),
        msg.result().seqNr());
    return Behaviors.stopped();
  }

  private void submitNext() {
    Operation op = operations.get(next++).apply(getContext().messageAdapter(OperationResult.class, Booted::new));
    master.tell(new ControlPlaneHost.Submit(op));
  }
}
