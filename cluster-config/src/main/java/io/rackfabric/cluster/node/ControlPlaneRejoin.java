package io.rackfabric.cluster.node;

import akka.actor.NoSerializationVerificationNeeded;
import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import akka.actor.typed.receptionist.Receptionist;
import io.rackfabric.cluster.topology.ControlPlaneSpec;
import io.rackfabric.cluster.topology.LinkSpec;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.fabric.switchchip.SwitchChip;
import io.rackfabric.fabric.time.TimeKeeper;
import io.rackfabric.host.controlplane.ControlPlaneHost;
import io.rackfabric.host.controlplane.ControlPlaneSettings;
import java.util.List;

/**
 * A management host started again on its node's journal (its JVM died; {@code rack node} with the
 * old data folder): the host started FENCED on its last tenure, and this actor, beside it, finds
 * the other host of the pair and the fencing chip in the Receptionist, gives the host its fence
 * target (it may take over again later), asks it to {@link ControlPlaneHost.Rejoin} the other host
 * as its backup, logs the answer and stops. No boot runs (no {@link ControlPlaneBoot}): the pair
 * boots once, so a restarted master never pairs as a second master. The other host refuses if it
 * is not the master; the joiner's journal must be a prefix of the master's (else refused with the
 * first differing sequence number); both leave the restarted host FENCED. Under the model-time
 * kernel it first asks the run's keeper when the host's node restarted in the model
 * ({@link TimeKeeper.GetStart}): the rejoin reaches the host no earlier.
 */
public final class ControlPlaneRejoin extends AbstractBehavior<ControlPlaneRejoin.Command> {

  public sealed interface Command permits Listed, Answered, Started {}

  private record Listed(Receptionist.Listing listing) implements Command, NoSerializationVerificationNeeded {}

  private record Answered(ControlPlaneHost.RoleChanged changed) implements Command, NoSerializationVerificationNeeded {}

  private record Started(TimeKeeper.Start start) implements Command, NoSerializationVerificationNeeded {}

  private static final java.time.Duration ASK = java.time.Duration.ofSeconds(30);

  private final String name;
  private final String other;
  private final ControlPlaneSpec pair;
  private final ActorRef<ControlPlaneHost.Command> host;
  private final ControlPlaneHost.FenceTarget targetWithoutChip;
  private ActorRef<ControlPlaneHost.Command> master;
  private ActorRef<SwitchChip.Command> chip;
  /** Under the model-time kernel: the run's keeper, which says when the host's node restarted. */
  private final boolean underKernel;
  private ActorRef<TimeKeeper.Command> keeper;
  private boolean asked;

  /** @param name the restarted host, one of {@code topology}'s control-plane pair */
  public static Behavior<Command> create(Topology topology, String name, ActorRef<ControlPlaneHost.Command> host) {
    return Behaviors.setup(ctx -> new ControlPlaneRejoin(ctx, topology, name, host));
  }

  private ControlPlaneRejoin(ActorContext<Command> context, Topology topology, String name,
      ActorRef<ControlPlaneHost.Command> host) {
    super(context);
    this.name = name;
    this.pair = topology.controlPlane();
    this.other = name.equals(pair.master()) ? pair.backup() : pair.master();
    this.host = host;
    this.targetWithoutChip = fenceTarget(topology, null, name);
    ActorRef<Receptionist.Listing> listings = context.messageAdapter(Receptionist.Listing.class, Listed::new);
    context.getSystem().receptionist().tell(Receptionist.subscribe(ComponentKeys.controlPlaneHost(other), listings));
    context.getSystem().receptionist().tell(Receptionist.subscribe(ComponentKeys.switchChip(pair.fencingSwitch()),
        listings));
    this.underKernel = ControlPlaneSettings.create(context.getSystem().settings().config()).modelTimeHeartbeats();
    if (underKernel) {
      context.getSystem().receptionist().tell(Receptionist.subscribe(TimeKeeper.KEY, listings));
    }
  }

  /**
   * What {@code takingOver} (one host of the pair) fences the other on, on the fencing chip: every
   * port but the other's own into the virtual switch of its own port.
   */
  static ControlPlaneHost.FenceTarget fenceTarget(Topology topology, ActorRef<SwitchChip.Command> chip,
      String takingOver) {
    ControlPlaneSpec pair = topology.controlPlane();
    String fenced = takingOver.equals(pair.master()) ? pair.backup() : pair.master();
    return new ControlPlaneHost.FenceTarget(chip, List.of(portOf(topology, fenced)), portOf(topology, takingOver));
  }

  /** The fencing chip's port {@code host} is linked to (the topology's check made sure there is one). */
  private static int portOf(Topology topology, String host) {
    String chip = topology.controlPlane().fencingSwitch();
    return topology.linkAt(host).map(l -> LinkSpec.portOf(l.other(host)))
        .flatMap(port -> topology.switchSpec(chip).flatMap(s -> s.port(port)))
        .orElseThrow(() -> new IllegalArgumentException("'" + host + "' is not linked to a port of " + chip))
        .number();
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(Listed.class, this::onListed)
        .onMessage(Answered.class, this::onAnswered)
        .onMessage(Started.class, this::onStarted)
        .build();
  }

  private Behavior<Command> onListed(Listed msg) {
    var hostKey = ComponentKeys.controlPlaneHost(other);
    var chipKey = ComponentKeys.switchChip(pair.fencingSwitch());
    if (msg.listing().isForKey(hostKey) && master == null) {
      master = msg.listing().getServiceInstances(hostKey).stream().findFirst().orElse(null);
    } else if (msg.listing().isForKey(chipKey) && chip == null) {
      chip = msg.listing().getServiceInstances(chipKey).stream().findFirst().orElse(null);
    } else if (msg.listing().isForKey(TimeKeeper.KEY) && keeper == null) {
      keeper = msg.listing().getServiceInstances(TimeKeeper.KEY).stream().findFirst().orElse(null);
    }
    if (master == null || chip == null || (underKernel && keeper == null) || asked) {
      return this;
    }
    asked = true;
    if (underKernel) {
      askStart();
      return this;
    }
    return rejoin(Long.MIN_VALUE);
  }

  /** The rejoin reaches the host no earlier than its node's restart in the model: asked first. */
  private void askStart() {
    getContext().ask(TimeKeeper.Start.class, keeper, ASK, r -> new TimeKeeper.GetStart(name, r),
        (start, failure) -> new Started(start));
  }

  private Behavior<Command> onStarted(Started msg) {
    if (msg.start() == null) {
      // Never rejoin at a model time the keeper did not give: that would differ from run to run.
      getContext().getLog().warn("Host [{}] restarted: the time keeper did not say when; asking again", name);
      askStart();
      return this;
    }
    return rejoin(msg.start().at());
  }

  private Behavior<Command> rejoin(long notBefore) {
    host.tell(new ControlPlaneHost.UseFenceTargets(List.of(new ControlPlaneHost.FenceTarget(chip,
        targetWithoutChip.keepPorts(), targetWithoutChip.ownPort()))));
    getContext().getLog().info("Host [{}] restarted: asks [{}] to take it back as backup", name, other);
    host.tell(new ControlPlaneHost.Rejoin(master, getContext().messageAdapter(ControlPlaneHost.RoleChanged.class,
        Answered::new), notBefore));
    return this;
  }

  private Behavior<Command> onAnswered(Answered msg) {
    if (msg.changed().ok()) {
      getContext().getLog().info("Host [{}] restarted and rejoined [{}]: {}", name, other, msg.changed().detail());
    } else {
      getContext().getLog().warn("Host [{}] restarted and stays {}: {}", name, msg.changed().role(),
          msg.changed().detail());
    }
    return Behaviors.stopped();
  }
}
