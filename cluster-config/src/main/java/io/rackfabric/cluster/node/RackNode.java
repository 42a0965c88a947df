package io.rackfabric.cluster.node;

import akka.actor.NoSerializationVerificationNeeded;
import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import akka.actor.typed.receptionist.Receptionist;
import akka.persistence.typed.PersistenceId;
import io.rackfabric.cluster.management.FabricManagement;
import io.rackfabric.cluster.topology.Component;
import io.rackfabric.cluster.topology.ControlPlaneSpec;
import io.rackfabric.cluster.topology.EndpointSpec;
import io.rackfabric.cluster.topology.LinkSpec;
import io.rackfabric.cluster.topology.SwitchSpec;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.endpoint.InboundAccessCheck;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.rootcomplex.RootRelay;
import io.rackfabric.fabric.link.LinkParameters;
import io.rackfabric.fabric.management.ManagementSettings;
import io.rackfabric.fabric.routing.PortConfig;
import io.rackfabric.fabric.settings.FabricSettings;
import io.rackfabric.fabric.switchchip.SwitchChip;
import io.rackfabric.fabric.wire.WireMessage;
import io.rackfabric.cluster.topology.GlobalMemorySpec;
import io.rackfabric.host.compute.ComputeHost;
import io.rackfabric.host.controlplane.ControlPlaneHost;
import io.rackfabric.host.controlplane.ControlPlaneSettings;
import io.rackfabric.host.failover.LadonAddresses;
import io.rackfabric.host.iommu.IsolationControl;
import io.rackfabric.host.messaging.MessagingLayout;
import io.rackfabric.host.messaging.MessagingSettings;
import io.rackfabric.host.management.ManagementHost;
import io.rackfabric.host.settings.HostSettings;
import io.rackfabric.persistence.controller.JournalTenures;
import io.rackfabric.persistence.controller.Tenure;
import io.rackfabric.persistence.journal.JournalConfig;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import io.rackfabric.fabric.link.PortMessage;
import io.rackfabric.fabric.time.JoinKeeper;
import io.rackfabric.fabric.time.TimeKeeper;

/**
 * The guardian of one node: spawns the components the topology places on this node, registers
 * each with the Receptionist by component id, and lets every link end find its partner by name,
 * wherever in the cluster the partner runs. With a management host, the NTBs start with their
 * requester-ID tables programmed ({@link RequesterIdPlan}), so that the MH knows the IDs its
 * IOMMU entries must name.
 */
public final class RackNode extends AbstractBehavior<RackNode.Command> {

  public sealed interface Command permits ListComponents, MeasureHeap, JournalReady, TenureFound, Listed {}

  /** Asks which components this node runs. */
  public record ListComponents(ActorRef<List<String>> replyTo) implements Command {}

  /**
   * Asks for the heap this node's components hold: a full collection now, against the one taken
   * before they were spawned (only on a node created with {@code measureHeap}).
   */
  public record MeasureHeap(ActorRef<HeapReading> replyTo) implements Command, WireMessage {}

  /**
   * @param baselineBytes used heap after a full collection with the actor system up and no
   *     component spawned, or -1 when this node did not take one
   * @param usedBytes used heap after a full collection now
   */
  public record HeapReading(String node, long baselineBytes, long usedBytes) implements WireMessage {

    /** What the node's components hold, or empty without a baseline. */
    public java.util.OptionalLong growth() {
      return baselineBytes < 0 ? java.util.OptionalLong.empty() : java.util.OptionalLong.of(usedBytes - baselineBytes);
    }
  }

  /**
   * The run's time keeper, or a management host's controller (which the MH here then asks to remove
   * hosts too), appeared or went in the Receptionist: one adapter, as Akka keeps one per class.
   */
  private record Listed(Receptionist.Listing listing) implements Command, NoSerializationVerificationNeeded {}

  /** The journal's tables exist (or could not be made: {@code failure}). */
  private record JournalReady(Throwable failure) implements Command, NoSerializationVerificationNeeded {}

  /** A management host's last tenure in this node's journal (empty: it never ran here). */
  private record TenureFound(String host, Optional<Tenure> last, Throwable failure)
      implements Command, NoSerializationVerificationNeeded {}

  private final List<String> running = new ArrayList<>();
  /** What joins the run's time keeper when one appears: this node's chips and endpoints. */
  private final List<ActorRef<SwitchChip.Command>> chips = new ArrayList<>();
  private final List<ActorRef<MemoryEndpoint.Command>> endpoints = new ArrayList<>();
  /** This node's endpoints by id: the management hosts' control plane runs next to its own. */
  private final Map<String, ActorRef<MemoryEndpoint.Command>> endpointsById = new HashMap<>();
  private ActorRef<TimeKeeper.Command> keeper;
  /** The management host's software when it runs on this node: it follows the controller here. */
  private ActorRef<ManagementHost.Command> managementHost;
  private final Topology topology;
  private final String nodeName;
  private final long baselineHeap;

  public static Behavior<Command> create(Topology topology, String nodeName, FabricSettings settings) {
    return create(topology, nodeName, settings, false);
  }

  /**
   * @param measureHeap take a heap baseline before spawning anything and answer {@link
   *     MeasureHeap} (registered under {@link ComponentKeys#node}): a node JVM of its own, where
   *     the heap is the node's
   */
  public static Behavior<Command> create(Topology topology, String nodeName, FabricSettings settings,
      boolean measureHeap) {
    return Behaviors.setup(ctx -> new RackNode(ctx, topology, nodeName, settings, measureHeap));
  }

  private RackNode(ActorContext<Command> context, Topology topology, String nodeName, FabricSettings settings,
      boolean measureHeap) {
    super(context);
    this.topology = topology;
    this.nodeName = nodeName;
    this.baselineHeap = measureHeap ? usedHeapAfterGc() : -1;
    if (measureHeap) {
      context.getSystem().receptionist().tell(Receptionist.register(ComponentKeys.node(nodeName), context.getSelf()));
    }
    Map<String, ActorRef<MemoryEndpoint.Command>> roots = new HashMap<>();
    RequesterIdPlan requesterIds = RequesterIdPlan.of(topology);
    IsolationControl isolation = isolationFromStart(topology, requesterIds, context.getSystem().settings().config());
    GuestChannelPlan guestChannels = GuestChannelPlan.of(topology,
        ControlPlaneSettings.create(context.getSystem().settings().config()).linkLatencyNs(),
        settings.leastCrossingNs());
    FabricManagement management = FabricManagement.of(topology, settings,
        ManagementSettings.create(context.getSystem().settings().config()), context.getLog());
    for (Component c : topology.placedOn(nodeName)) {
      if (c instanceof SwitchSpec s) {
        List<SwitchChip.PortLink> links = new ArrayList<>();
        for (PortConfig p : s.ports()) {
          String end = LinkSpec.end(s.id(), p.name());
          LinkSpec link = topology.linkAt(end).orElse(null);
          links.add(new SwitchChip.PortLink(p.number(),
              link == null ? LinkParameters.gen3x4() : link.params(), link == null ? null : link.other(end)));
        }
        ActorRef<SwitchChip.Command> chip =
            context.spawn(SwitchChip.create(s.id(), requesterIds.routingTable(s.id()), links, settings,
                management.device(s.id())), s.id());
        context.getSystem().receptionist().tell(Receptionist.register(ComponentKeys.switchChip(s.id()), chip));
        chips.add(chip);
      } else if (c instanceof EndpointSpec e) {
        LinkSpec link = topology.linkAt(e.id()).orElse(null);
        InboundAccessCheck check = isolation == null ? InboundAccessCheck.allowAll()
            : isolation.initialCheck(e.id()).orElse(InboundAccessCheck.allowAll());
        ActorRef<MemoryEndpoint.Command> ep = context.spawn(MemoryEndpoint.create(e.id(), e.bdf(), e.root(),
            e.bars(), link == null ? LinkParameters.gen3x4() : link.params(),
            link == null ? null : link.other(e.id()), settings, check, guestChannels.of(e.id()),
            e.relay() ? RootRelay.Setup.untranslated(topology.relayWindows(e.id())) : null,
            management.endpoint(e.id())), e.id());
        context.getSystem().receptionist().tell(Receptionist.register(ComponentKeys.endpoint(e.id()), ep));
        endpoints.add(ep);
        roots.put(e.id(), ep);
        endpointsById.put(e.id(), ep);
      }
      running.add(c.id());
    }
    spawnHostSoftware(context, topology, roots, requesterIds, management);
    running.addAll(NicNode.spawn(context, topology, nodeName, roots, settings));
    running.addAll(DeviceNode.spawn(context, topology, nodeName, roots, settings));
    context.getLog().info("Node [{}] runs {}", nodeName, running);
    context.getSystem().receptionist().tell(Receptionist.subscribe(TimeKeeper.KEY,
        context.messageAdapter(Receptionist.Listing.class, Listed::new)));
    prepareControlPlane(context, roots);
  }

  /**
   * In a rack with a management host its compute hosts deny inbound DMA from each other by default:
   * their root endpoints start with the IOMMU {@link IsolationControl#initialCheck} gives, and only
   * the management host's page operations open them, besides the pages host software shares with
   * every host (the control page, the datagram service's queues). Null (every endpoint serves
   * everyone) without one.
   */
  private static IsolationControl isolationFromStart(Topology topology, RequesterIdPlan requesterIds,
      com.typesafe.config.Config config) {
    GlobalMemorySpec spec = topology.globalMemorySpec();
    if (spec == null || spec.managementHost() == null) {
      return null;
    }
    List<AddressRange> shared = new ArrayList<>();
    try {
      shared.add(MessagingLayout.of(spec.layout(), 0, MessagingSettings.create(config)).region());
    } catch (IllegalArgumentException e) {
      // This rack's hosts cannot hold the datagram service's queues: nothing of it to open.
    }
    return new IsolationControl(requesterIds.isolationPlan(), spec.ladonAddresses().controlPage(), true, shared);
  }

  /**
   * The management hosts' control plane, when the topology names the pair and one of them is
   * here: it keeps its controller in this node's journal, whose tables are made first. Without a
   * journal configured (a run that keeps no controller state) it does not start.
   */
  private void prepareControlPlane(ActorContext<Command> context, Map<String, ActorRef<MemoryEndpoint.Command>> roots) {
    ControlPlaneSpec pair = topology.controlPlane();
    if (pair == null) {
      return;
    }
    // The CHs' drivers need no journal of their own: they wait for the pair, if it ever starts.
    running.addAll(ControlPlaneClients.spawn(context, topology, roots));
    if (!roots.containsKey(pair.master()) && !roots.containsKey(pair.backup())) {
      return;
    }
    if (context.getSystem().settings().config().getString("akka.persistence.journal.plugin").isEmpty()) {
      context.getLog().info("Node [{}]: no journal configured, so the control plane of [{}] and [{}] does not start",
          nodeName, pair.master(), pair.backup());
      return;
    }
    context.pipeToSelf(JournalConfig.createSchema(context.getSystem()), (done, failure) -> new JournalReady(failure));
  }

  private Behavior<Command> onJournalReady(JournalReady msg) {
    ControlPlaneSpec pair = topology.controlPlane();
    if (msg.failure() != null) {
      getContext().getLog().error("Node [{}]: the journal could not be prepared, the control plane does not start: {}",
          nodeName, msg.failure().toString());
      return this;
    }
    for (String host : List.of(pair.backup(), pair.master())) {
      if (topology.endpoint(host).map(e -> e.node().equals(nodeName)).orElse(false)) {
        // Its journal says whether it ran before: a node started again on its old data folder.
        getContext().pipeToSelf(JournalTenures.last(getContext().getSystem(), ControlPlaneBootPlan.persistenceId(host)),
            (last, failure) -> new TenureFound(host, last, failure));
      }
    }
    return this;
  }

  /**
   * Starts a management host: BOOTING when its journal holds nothing of it (the pair boots in
   * Figure 4's order, from the master's node); FENCED on its last tenure when it does (its JVM died
   * and was started again): it rejoins the other host as backup ({@link ControlPlaneRejoin}) and no
   * boot runs, so it never pairs as a second master.
   */
  private Behavior<Command> onTenureFound(TenureFound msg) {
    if (msg.failure() != null) {
      getContext().getLog().error("Node [{}]: the journal's persistence ids could not be read, [{}] does not start: {}",
          nodeName, msg.host(), msg.failure().toString());
      return this;
    }
    String host = msg.host();
    ControlPlaneSpec pair = topology.controlPlane();
    ControlPlaneSettings settings = ControlPlaneSettings.create(getContext().getSystem().settings().config());
    boolean restarted = msg.last().isPresent();
    String persistenceId = restarted ? msg.last().get().persistenceId() : ControlPlaneBootPlan.persistenceId(host);
    var ref = getContext().spawn(ControlPlaneHost.create(host, restarted ? ControlPlaneHost.Role.FENCED
        : ControlPlaneHost.Role.BOOTING, PersistenceId.ofUniqueId(persistenceId), settings, List.of(),
        endpointsById.get(host)), "cp-" + host);
    getContext().getSystem().receptionist().tell(Receptionist.register(ComponentKeys.controlPlaneHost(host), ref));
    if (managementHost != null) {
      // The controller's page operations reach the hosts' IOMMUs through the MH, once persisted.
      managementHost.tell(new ManagementHost.FollowController(ref, ControlPlaneBootPlan.hostsByRequester(topology)));
    }
    running.add("cp-" + host);
    if (restarted) {
      getContext().spawn(ControlPlaneRejoin.create(topology, host, ref), "cp-rejoin-" + host);
      getContext().getLog().info("Node [{}] restarted [{}] on its journal {}: it rejoins as backup", nodeName, host,
          persistenceId);
    } else if (host.equals(pair.master())) {
      getContext().spawn(ControlPlaneBoot.create(topology, ref, managementHost), "cp-boot");
    }
    getContext().getLog().info("Node [{}] runs the control plane's {}", nodeName, running);
    return this;
  }

  /**
   * The host software of the roots on this node, when the topology names a management host: the
   * MH's fail-over software and each compute host's AER driver and route list, next to their
   * root endpoints. Under a fabric manager that distributes paths, each compute host also sets its
   * route list from its path table ({@link ComputeHost.ApplyPathTables}).
   */
  private void spawnHostSoftware(ActorContext<Command> context, Topology topology,
      Map<String, ActorRef<MemoryEndpoint.Command>> roots, RequesterIdPlan requesterIds, FabricManagement management) {
    GlobalMemorySpec spec = topology.globalMemorySpec();
    if (spec == null || spec.managementHost() == null) {
      return;
    }
    HostSettings hostSettings = HostSettings.create(context.getSystem().settings().config());
    LadonAddresses addresses = spec.ladonAddresses();
    ActorRef<MemoryEndpoint.Command> mhRoot = roots.get(spec.managementHost());
    if (mhRoot != null) {
      var mh = context.spawn(ManagementHost.create(spec.managementHost(), addresses,
          HostWiring.planePorts(topology, spec.managementHost(), spec.layout()),
          hostSettings.notification(), hostSettings, mhRoot, requesterIds.isolationPlan(),
          HostWiring.chCablePorts(topology, spec)),
          "host-" + spec.managementHost());
      context.getSystem().receptionist().tell(
          Receptionist.register(ComponentKeys.managementHost(spec.managementHost()), mh));
      managementHost = mh;
      running.add("host-" + spec.managementHost());
      ControlPlaneSpec pair = topology.controlPlane();
      if (pair != null) { // either may be the master when a host leaves, wherever it runs, restarted or not
        ActorRef<Receptionist.Listing> listings = context.messageAdapter(Receptionist.Listing.class, Listed::new);
        for (String host : List.of(pair.master(), pair.backup())) {
          context.getSystem().receptionist().tell(Receptionist.subscribe(ComponentKeys.controlPlaneHost(host), listings));
        }
      }
    }
    for (int i = 1; i <= spec.computeHosts().size(); i++) {
      String id = spec.computeHosts().get(i - 1);
      ActorRef<MemoryEndpoint.Command> root = roots.get(id);
      if (root != null) {
        var ch = context.spawn(ComputeHost.create(id, i, addresses,
            HostWiring.rootPorts(topology, id, spec.layout()), hostSettings, root), "host-" + id);
        context.getSystem().receptionist().tell(Receptionist.register(ComponentKeys.computeHost(id), ch));
        running.add("host-" + id);
        if (management.fabric() != null && management.settings().distributePaths()) {
          ch.tell(new ComputeHost.ApplyPathTables(HostWiring.pathTablePlanes(topology, spec, id, management.fabric())));
        }
      }
    }
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(ListComponents.class, this::onListComponents)
        .onMessage(MeasureHeap.class, this::onMeasureHeap)
        .onMessage(JournalReady.class, this::onJournalReady)
        .onMessage(TenureFound.class, this::onTenureFound)
        .onMessage(Listed.class, this::onListed)
        .build();
  }

  private Behavior<Command> onListed(Listed msg) {
    if (msg.listing().isForKey(TimeKeeper.KEY)) {
      return keeperListed(msg.listing());
    }
    ControlPlaneSpec pair = topology.controlPlane();
    for (String host : List.of(pair.master(), pair.backup())) {
      var key = ComponentKeys.controlPlaneHost(host);
      if (msg.listing().isForKey(key)) {
        msg.listing().getServiceInstances(key).forEach(c -> managementHost.tell(new ManagementHost.FollowDepartures(c)));
      }
    }
    return this;
  }

  /**
   * The run's time keeper: this node's fabric components join it, and from then on handle their
   * model-time events in its rounds (see {@link TimeKeeper}). Without one they run free.
   */
  private Behavior<Command> keeperListed(Receptionist.Listing listing) {
    var found = listing.getServiceInstances(TimeKeeper.KEY);
    if (keeper != null || found.isEmpty()) {
      return this;
    }
    keeper = found.iterator().next();
    getContext().getLog().info("Node [{}]: {} chip(s) and {} endpoint(s) join the time keeper", nodeName,
        chips.size(), endpoints.size());
    chips.forEach(c -> c.tell(new SwitchChip.Synchronize(keeper)));
    JoinKeeper join = new JoinKeeper(keeper);
    endpoints.forEach(e -> e.<PortMessage>unsafeUpcast().tell(join));
    return this;
  }

  /**
   * The components of {@code topology} that join a time keeper, by the ids they join under: every
   * endpoint and every port of every switch ("switchId.portName").
   */
  public static Set<String> timeMembers(Topology topology) {
    Set<String> ids = new TreeSet<>();
    topology.switches().forEach(s -> s.ports().forEach(p -> ids.add(LinkSpec.end(s.id(), p.name()))));
    topology.endpoints().forEach(e -> ids.add(e.id()));
    return ids;
  }

  private Behavior<Command> onListComponents(ListComponents msg) {
    msg.replyTo().tell(List.copyOf(running));
    return this;
  }

  private Behavior<Command> onMeasureHeap(MeasureHeap msg) {
    msg.replyTo().tell(new HeapReading(nodeName, baselineHeap, usedHeapAfterGc()));
    return this;
  }

  /** Used heap after a full collection (twice: the first may leave finalizable objects behind). */
  public static long usedHeapAfterGc() {
    System.gc();
    System.gc();
    return java.lang.management.ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }
}
