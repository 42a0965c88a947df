package io.rackfabric.cluster.node;

import akka.actor.NoSerializationVerificationNeeded;
import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import akka.actor.typed.receptionist.Receptionist;
import io.rackfabric.cluster.node.BootSequence.Action;
import io.rackfabric.cluster.topology.ControlPlaneSpec;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.fabric.routing.RoutingTable;
import io.rackfabric.fabric.switchchip.SwitchChip;
import io.rackfabric.fabric.wire.WireMessage;
import io.rackfabric.host.controlplane.ControlPlaneHost;
import io.rackfabric.host.management.ManagementHost;
import io.rackfabric.host.nic.NicSettings;
import io.rackfabric.persistence.controller.Controller.Operation;
import io.rackfabric.persistence.controller.Controller.OperationResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Boots the management-host pair in the order of Figure 4 (Ladon section 4.3.2), on the master's
 * node, once both hosts (each started BOOTING) and the fencing chip are registered: every VS1
 * port of the fencing chip but the master's moves to VS2; the backup enumerates the devices with
 * {@link ControlPlaneBootPlan} (one operation at a time, up to its template image) and becomes
 * BACKUP; the ports move back to VS1; the master enumerates with the same plan, takes its own
 * template image, and pairs with the backup (BecomeMaster: the same last sequence number and an
 * equal state, or no pair). The order is {@link BootSequence}'s; this actor only carries it out.
 *
 * <p>Registered under {@link ComponentKeys#controlPlaneBoot()}: a run waits with
 * {@link AwaitBooted} before it starts traffic, since while the devices sit in VS2 the master
 * cannot reach them. A failed step ends the boot (logged and answered as FAILED): the rack's data
 * plane does not depend on it.
 *
 * <p>The reassignments do not disturb the data plane: a switch chip keeps no model clock and
 * {@code ReassignPorts} changes only the ports' virtual-switch field; bridge windows, bus numbers
 * and NTB translations stay as they were, and the move back to VS1 gives the table it started
 * with (the rack test compares them). Nothing crosses the chip during the boot: traffic waits
 * for {@link AwaitBooted}.
 */
public final class ControlPlaneBoot extends AbstractBehavior<ControlPlaneBoot.Command> {

  public sealed interface Command {}

  /** Replies with where the boot is now. */
  public record GetProgress(ActorRef<BootProgress> replyTo) implements Command, WireMessage {}

  /** Replies once the boot has ended, booted or failed (at once if it has). */
  public record AwaitBooted(ActorRef<BootProgress> replyTo) implements Command, WireMessage {}

  /**
   * Where the boot is.
   *
   * @param passed the steps entered so far, in order
   * @param failure why the boot failed, else empty
   * @param devicePorts the fencing chip's ports the backup booted with (every VS1 port but the master's)
   * @param devicesInVs2 the chip's table after the move to VS2 (null before)
   * @param devicesBackInVs1 the chip's table after the move back to VS1 (null before)
   * @param backupTemplateSeqNr the backup's template image (-1 before)
   * @param masterTemplateSeqNr the master's template image (-1 before)
   */
  public record BootProgress(String master, String backup, BootSequence.Step step, List<BootSequence.Step> passed,
      String failure, List<Integer> devicePorts, RoutingTable devicesInVs2, RoutingTable devicesBackInVs1,
      long backupTemplateSeqNr, long masterTemplateSeqNr) implements WireMessage {

    public BootProgress {
      passed = List.copyOf(passed);
      devicePorts = List.copyOf(devicePorts);
    }

    public boolean booted() {
      return step == BootSequence.Step.BOOTED;
    }

    public boolean ended() {
      return step == BootSequence.Step.BOOTED || step == BootSequence.Step.FAILED;
    }
  }

  /** A listing of the backup's host or of the fencing chip (one adapter per message class). */
  private record Listed(Receptionist.Listing listing) implements Command, NoSerializationVerificationNeeded {}

  private record PortsMoved(RoutingTable table, Throwable failure)
      implements Command, NoSerializationVerificationNeeded {}

  private record Answered(OperationResult result, Throwable failure)
      implements Command, NoSerializationVerificationNeeded {}

  private record RoleAnswered(ControlPlaneHost.RoleChanged changed, Throwable failure)
      implements Command, NoSerializationVerificationNeeded {}

  /**
   * The longest a step may take: a BOOTING host holds operations until its controller recovered,
   * and a recovery may take a while on a loaded machine; the chip answers at once.
   */
  private static final Duration STEP_TIMEOUT = Duration.ofMinutes(2);

  private final ControlPlaneSpec pair;
  private final ActorRef<ControlPlaneHost.Command> master;
  private final List<Function<ActorRef<OperationResult>, Operation>> operations;
  private final Topology topology;
  private final BootSequence sequence;
  private final List<ActorRef<BootProgress>> waiting = new ArrayList<>();
  private final ActorRef<ManagementHost.Command> managementHost;
  private ActorRef<ControlPlaneHost.Command> backup;
  private ActorRef<SwitchChip.Command> chip;

  /**
   * @param managementHost the MH's software on this node, told to send removals of hosts that left
   *     the rack to the backup's controller too (null: none here)
   */
  public static Behavior<Command> create(Topology topology, ActorRef<ControlPlaneHost.Command> master,
      ActorRef<ManagementHost.Command> managementHost) {
    return Behaviors.setup(ctx -> new ControlPlaneBoot(ctx, topology, master, managementHost));
  }

  private ControlPlaneBoot(ActorContext<Command> context, Topology topology,
      ActorRef<ControlPlaneHost.Command> master, ActorRef<ManagementHost.Command> managementHost) {
    super(context);
    this.pair = topology.controlPlane();
    this.master = master;
    this.managementHost = managementHost;
    this.operations = ControlPlaneBootPlan.operations(topology,
        NicSettings.create(context.getSystem().settings().config()).vfCount());
    this.topology = topology;
    this.sequence = new BootSequence(BootSequence.devicePorts(topology), operations.size());
    context.getSystem().receptionist().tell(Receptionist.register(ComponentKeys.controlPlaneBoot(), context.getSelf()));
    ActorRef<Receptionist.Listing> listings = context.messageAdapter(Receptionist.Listing.class, Listed::new);
    context.getSystem().receptionist().tell(Receptionist.subscribe(ComponentKeys.controlPlaneHost(pair.backup()),
        listings));
    context.getSystem().receptionist().tell(Receptionist.subscribe(ComponentKeys.switchChip(pair.fencingSwitch()),
        listings));
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(GetProgress.class, this::onGetProgress)
        .onMessage(AwaitBooted.class, this::onAwaitBooted)
        .onMessage(Listed.class, this::onListed)
        .onMessage(PortsMoved.class, this::onPortsMoved)
        .onMessage(Answered.class, this::onAnswered)
        .onMessage(RoleAnswered.class, this::onRoleAnswered)
        .build();
  }

  private Behavior<Command> onGetProgress(GetProgress msg) {
    msg.replyTo().tell(progress());
    return this;
  }

  private Behavior<Command> onAwaitBooted(AwaitBooted msg) {
    if (sequence.ended()) {
      msg.replyTo().tell(progress());
    } else {
      waiting.add(msg.replyTo());
    }
    return this;
  }

  private Behavior<Command> onListed(Listed msg) {
    var backupKey = ComponentKeys.controlPlaneHost(pair.backup());
    var chipKey = ComponentKeys.switchChip(pair.fencingSwitch());
    if (msg.listing().isForKey(backupKey) && backup == null) {
      backup = msg.listing().getServiceInstances(backupKey).stream().findFirst().orElse(null);
    } else if (msg.listing().isForKey(chipKey) && chip == null) {
      chip = msg.listing().getServiceInstances(chipKey).stream().findFirst().orElse(null);
    }
    if (backup != null && chip != null && sequence.step() == BootSequence.Step.FINDING) {
      // Each host fences the other into its own virtual switch: the backup at a take-over, the
      // master at a second one, once it rejoined as the backup of the host that fenced it.
      backup.tell(new ControlPlaneHost.UseFenceTargets(
          List.of(ControlPlaneRejoin.fenceTarget(topology, chip, pair.backup()))));
      master.tell(new ControlPlaneHost.UseFenceTargets(
          List.of(ControlPlaneRejoin.fenceTarget(topology, chip, pair.master()))));
      if (managementHost != null) {
        // The backup may serve when a host leaves (after a switchover): named now, before the run
        // starts, whenever the node's own Receptionist listing of it comes.
        managementHost.tell(new ManagementHost.FollowDepartures(backup));
      }
      act(sequence.start());
    }
    return this;
  }

  private Behavior<Command> onPortsMoved(PortsMoved msg) {
    act(msg.failure() != null
        ? sequence.fail("switch chip " + pair.fencingSwitch() + " did not answer the reassignment: " + msg.failure())
        : sequence.devicesMoved(msg.table()));
    return this;
  }

  private Behavior<Command> onAnswered(Answered msg) {
    act(msg.failure() != null
        ? sequence.fail("no answer to a boot operation: " + msg.failure())
        : sequence.operationAnswered(msg.result()));
    return this;
  }

  private Behavior<Command> onRoleAnswered(RoleAnswered msg) {
    act(msg.failure() != null
        ? sequence.fail("no answer to a role change: " + msg.failure())
        : sequence.roleChanged(msg.changed()));
    return this;
  }

  private void act(Action action) {
    if (action instanceof BootSequence.MoveDevices m) {
      getContext().getLog().info("Control plane boot: ports {} of [{}] to VS{}", m.ports(), pair.fencingSwitch(),
          m.virtualSwitch());
      getContext().ask(RoutingTable.class, chip, STEP_TIMEOUT,
          r -> new SwitchChip.ReassignPorts(m.ports(), m.virtualSwitch(), r), PortsMoved::new);
    } else if (action instanceof BootSequence.Submit s) {
      ActorRef<ControlPlaneHost.Command> host = s.host() == BootSequence.Host.BACKUP ? backup : master;
      if (s.operation() == 0) {
        getContext().getLog().info("Control plane boot: [{}] enumerates ({} operations up to its template image)",
            s.host() == BootSequence.Host.BACKUP ? pair.backup() : pair.master(), operations.size());
      }
      Function<ActorRef<OperationResult>, Operation> op = operations.get(s.operation());
      getContext().ask(OperationResult.class, host, STEP_TIMEOUT, r -> new ControlPlaneHost.Submit(op.apply(r)),
          Answered::new);
    } else if (action instanceof BootSequence.StandBy) {
      getContext().getLog().info("Control plane boot: [{}] took its template image at sequence number {}; "
          + "it stands by as backup", pair.backup(), sequence.backupTemplateSeqNr());
      getContext().ask(ControlPlaneHost.RoleChanged.class, backup, STEP_TIMEOUT, ControlPlaneHost.BecomeBackup::new,
          RoleAnswered::new);
    } else if (action instanceof BootSequence.Pair) {
      getContext().getLog().info("Control plane boot: [{}] took its template image at sequence number {}; "
          + "pairing with [{}]", pair.master(), sequence.masterTemplateSeqNr(), pair.backup());
      getContext().ask(ControlPlaneHost.RoleChanged.class, master, STEP_TIMEOUT,
          r -> new ControlPlaneHost.BecomeMaster(backup, r), RoleAnswered::new);
    } else if (action instanceof BootSequence.Finished f) {
      if (f.booted()) {
        getContext().getLog().info("Control plane booted (Figure 4): {}, [{}] its backup", f.detail(), pair.backup());
      } else {
        getContext().getLog().error("Control plane [{}]/[{}] boot failed {}", pair.master(), pair.backup(),
            f.detail());
      }
      BootProgress p = progress();
      waiting.forEach(w -> w.tell(p));
      waiting.clear();
    } else if (action instanceof BootSequence.Ignored i) {
      getContext().getLog().warn("Control plane boot: ignored {}", i.why());
    }
  }

  private BootProgress progress() {
    return new BootProgress(pair.master(), pair.backup(), sequence.step(), sequence.passed(), sequence.failure(),
        sequence.devicePortList(), sequence.devicesInVs2(), sequence.devicesBackInVs1(),
        sequence.backupTemplateSeqNr(), sequence.masterTemplateSeqNr());
  }
}
