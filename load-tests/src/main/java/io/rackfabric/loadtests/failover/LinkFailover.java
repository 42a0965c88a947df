package io.rackfabric.loadtests.failover;

import akka.actor.typed.ActorRef;
import akka.actor.typed.ActorSystem;
import akka.actor.typed.Props;
import akka.actor.typed.javadsl.Behaviors;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.rackfabric.cluster.node.ClusterSettings;
import io.rackfabric.cluster.node.NodeConfig;
import io.rackfabric.cluster.enumeration.RackEnumeration;
import io.rackfabric.cluster.node.ComponentKeys;
import io.rackfabric.cluster.node.HostWiring;
import io.rackfabric.cluster.node.RackNode;
import io.rackfabric.cluster.node.RackTime;
import io.rackfabric.fabric.time.TimeKeeper;
import io.rackfabric.cluster.topology.GlobalMemorySpec;
import io.rackfabric.cluster.topology.LinkSpec;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.link.DataLinkState;
import io.rackfabric.fabric.port.LinkPort;
import io.rackfabric.fabric.routing.PortConfig;
import io.rackfabric.fabric.settings.FabricSettings;
import io.rackfabric.fabric.stats.PortStats;
import io.rackfabric.fabric.switchchip.SwitchChip;
import io.rackfabric.fabric.switchchip.SwitchPort;
import io.rackfabric.host.compute.ComputeHost;
import io.rackfabric.host.failover.ControlWord;
import io.rackfabric.host.failover.FailoverBreakdown;
import io.rackfabric.host.failover.HostLog;
import io.rackfabric.host.failover.NotificationMode;
import io.rackfabric.host.management.ManagementHost;
import io.rackfabric.host.memory.Plane;
import io.rackfabric.host.messaging.DatagramService;
import io.rackfabric.host.settings.HostSettings;
import io.rackfabric.loadtests.harness.Asks;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * One data-plane fail-over (Ladon section 5.3) in one JVM: a Ladon rack with its host software, the
 * primary link of one compute host taken down at a model time, and the breakdown of Table 2 read
 * off the hosts' logs once the MH reports every CH acknowledged.
 */
public final class LinkFailover {

  private static final Duration STEP = Duration.ofSeconds(30);
  /** Wall time without a datagram moving after which what was stamped before the fault has crossed. */
  private static final Duration QUIET = Duration.ofMillis(300);
  /** Wall time to wait for the hosts' AERs while their reactions are held. */
  private static final Duration DETECTION_WAIT = Duration.ofSeconds(10);

  /** What fails, at the primary plane: one CH's link, the MH side's link to the plane's switch, or that switch. */
  public enum Fault {
    /** CH X's primary PCIe cable (its root port's link): X's AER driver reports it (Ladon section 5.3). */
    CH_LINK,
    /** The link between the MH's switch and the primary plane's switch: every CH loses PMS1. */
    UPLINK,
    /** The primary plane's switch (switch A of the dual star): every one of its links goes down. */
    SWITCH,
    /**
     * Every CH's primary cable at once: each CH's AER driver reports its own, and the MH runs a
     * round per report (issue 6's fail-over of a whole rack's links). The breakdown is CH1's round.
     */
    EVERY_CH_LINK
  }

  /**
   * What a run measured, with the fabric's own count of TLPs lost on the failed links (dropped or
   * purged at either end of them) and the datagram streams, if any ran.
   */
  public record Result(Topology topology, FailoverBreakdown breakdown, HostLog mh, Map<Integer, HostLog> chs,
      Map<Integer, List<Plane>> routes, long lostOnFailedLink, List<FailoverStreams.Stream> streams,
      long wallNanos, long lastCompletedAt, int rounds, long stragglers) {}

  /** Datagram streams across the fail-over: how many each way, how far apart, from how long before the fault. */
  public record Streams(long count, long intervalNs, long leadNs) {
    public static final Streams NONE = new Streams(0, 1_000, 10_000);

    public Streams {
      if (count < 0 || intervalNs < 1 || leadNs < 0) {
        throw new IllegalArgumentException("streams count=" + count + ", interval=" + intervalNs + "ns, lead="
            + leadNs + "ns: need count >= 0, interval >= 1ns, lead >= 0");
      }
    }
  }

  private LinkFailover() {}

  /**
   * @param topology a rack with a global-memory section naming its management host
   * @param failedHost the CH (1..N) whose primary link fails
   * @param overrides settings over the defaults (e.g. {@code rackfabric.host.mailbox.poll-latency})
   */
  public static Result run(Topology topology, int failedHost, NotificationMode mode, Config overrides,
      PrintStream progress) throws Exception {
    return run(topology, Fault.CH_LINK, failedHost, mode, overrides, progress);
  }

  /** @param failedHost the CH whose link fails, for {@link Fault#CH_LINK}; ignored otherwise */
  public static Result run(Topology topology, Fault fault, int failedHost, NotificationMode mode, Config overrides,
      PrintStream progress) throws Exception {
    return run(topology, fault, failedHost, mode, Streams.NONE, overrides, progress);
  }

  /** @param streams datagram streams between the failing CH and a peer across the fail-over ('link' only) */
  public static Result run(Topology topology, Fault fault, int failedHost, NotificationMode mode, Streams streams,
      Config overrides, PrintStream progress) throws Exception {
    GlobalMemorySpec spec = topology.globalMemorySpec();
    if (spec == null || spec.managementHost() == null) {
      throw new IllegalArgumentException("topology " + topology.name()
          + " has no global-memory section naming a management-host: no host software to fail over");
    }
    int n = spec.computeHosts().size();
    if (fault == Fault.CH_LINK && (failedHost < 1 || failedHost > n)) {
      throw new IllegalArgumentException("host=" + failedHost + " not in [1," + n + "]");
    }
    if (streams.count() > 0 && (fault != Fault.CH_LINK || n < 2)) {
      throw new IllegalArgumentException("datagram streams run between the CH whose link fails and another CH:"
          + " they need 'link' and at least 2 compute hosts (fault=" + fault + ", hosts=" + n + ")");
    }
    Config base = overrides.withFallback(ConfigFactory.load());
    Config config = ConfigFactory.parseString("akka.actor.provider = local").withFallback(NodeConfig.logging())
        .withFallback(ClusterSettings.create(base).dispatcher()).withFallback(base);
    FabricSettings settings = FabricSettings.create(config);
    ActorSystem<RackNode.Command> system = ActorSystem.create(
        RackNode.create(topology, topology.seed().name(), settings), "failover", config);
    ActorRef<TimeKeeper.Command> keeper = null;
    try {
      // Under the same model-time kernel as a scenario's rack, so the two measure alike.
      keeper = RackTime.start(system, topology);
      Asks.<TimeKeeper.Command, TimeKeeper.Status>ask(system, keeper, TimeKeeper.AwaitIdle::new, STEP);
      int breakdownHost = fault == Fault.CH_LINK ? failedHost : fault == Fault.EVERY_CH_LINK ? 1 : 0;
      return failOver(system, keeper, topology, spec, fault, breakdownHost, mode, streams, progress);
    } finally {
      if (keeper != null) {
        keeper.tell(TimeKeeper.Limit.freeze());
      }
      system.terminate();
      system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
  }

  private static Result failOver(ActorSystem<?> system, ActorRef<TimeKeeper.Command> keeper, Topology topology,
      GlobalMemorySpec spec, Fault fault,
      int failedHost, NotificationMode mode, Streams streams, PrintStream progress) throws Exception {
    int n = spec.computeHosts().size();
    // Every link, not only the roots': a report sent into a secondary path still training is lost.
    RackEnumeration.awaitReady(system, topology, STEP);
    ActorRef<ManagementHost.Command> mh = Asks.find(system, ComponentKeys.managementHost(spec.managementHost()), STEP);
    Map<Integer, ActorRef<ComputeHost.Command>> chs = new LinkedHashMap<>();
    for (int i = 1; i <= n; i++) {
      chs.put(i, Asks.find(system, ComponentKeys.computeHost(spec.computeHosts().get(i - 1)), STEP));
    }
    mh.tell(new ManagementHost.UseNotificationMode(mode));
    // The fail-over of the fault: when a whole plane goes, a CH's own report may finish a round
    // of its own before the MH's (failedHost 0) one.
    CompletableFuture<ManagementHost.FailoverCompleted> completed = new CompletableFuture<>();
    // Every CH's link failing: done when every CH's own round is (the last one is what completes).
    Set<Integer> awaited = new HashSet<>();
    if (fault == Fault.EVERY_CH_LINK) {
      for (int i = 1; i <= n; i++) {
        awaited.add(i);
      }
    } else {
      awaited.add(failedHost);
    }
    List<ManagementHost.FailoverCompleted> rounds = new CopyOnWriteArrayList<>();
    ActorRef<ManagementHost.FailoverCompleted> watcher = system.systemActorOf(
        Behaviors.<ManagementHost.FailoverCompleted>receiveMessage(done -> {
          rounds.add(done);
          if (awaited.remove(done.failedHost()) && awaited.isEmpty()) {
            completed.complete(done);
          }
          return Behaviors.same();
        }), "failover-watcher", Props.empty());
    mh.tell(new ManagementHost.SubscribeFailovers(watcher));

    List<String> ends = new ArrayList<>();
    String what;
    if (fault == Fault.CH_LINK) {
      String chId = spec.computeHosts().get(failedHost - 1);
      HostWiring.PlanePort root = primary(HostWiring.rootPortsOf(topology, chId, spec.layout()), chId);
      ends.add(LinkSpec.end(root.switchId(), root.port().name()));
      what = chId + "'s primary link";
    } else if (fault == Fault.EVERY_CH_LINK) {
      for (String chId : spec.computeHosts()) {
        HostWiring.PlanePort root = primary(HostWiring.rootPortsOf(topology, chId, spec.layout()), chId);
        ends.add(LinkSpec.end(root.switchId(), root.port().name()));
      }
      what = "every CH's primary link";
    } else {
      PlaneSwitch plane = primaryPlaneSwitch(topology, spec);
      if (fault == Fault.UPLINK) {
        ends.add(plane.uplinkEnd());
        what = "the link " + plane.uplinkSwitch() + " -> " + plane.switchId() + " (every CH's PMS1 path)";
      } else {
        for (PortConfig p : topology.switchSpec(plane.switchId()).orElseThrow().ports()) {
          ends.add(LinkSpec.end(plane.switchId(), p.name()));
        }
        what = "switch " + plane.switchId() + " (every link of the primary plane's switch)";
      }
    }
    List<ActorRef<SwitchPort.Command>> ports = new ArrayList<>();
    for (String end : ends) {
      ports.add(portAt(system, topology, end));
    }
    // What the fabric lost on the failed links is counted at both of their ends.
    List<ActorRef<SwitchPort.Command>> counted = new ArrayList<>(ports);
    for (String end : ends) {
      String other = topology.linkAt(end).map(l -> l.other(end)).orElse(null);
      if (other != null && LinkSpec.portOf(other) != null) {
        counted.add(portAt(system, topology, other));
      }
    }
    // After everything the ports have seen, so that the links go down exactly at the fault time.
    long before = 0;
    long latest = 0;
    for (ActorRef<SwitchPort.Command> p : counted) {
      PortStats s = Asks.ask(system, p, SwitchPort.GetStats::new, STEP);
      before += s.lost();
      latest = Math.max(latest, s.modelNow());
    }
    // Nothing is stamped before what any component has handled (link training ran on the others).
    latest = Math.max(latest,
        Asks.<TimeKeeper.Command, TimeKeeper.Status>ask(system, keeper, TimeKeeper.AwaitIdle::new, STEP).reached());
    long faultAt = latest + 1_000 + (streams.count() > 0 ? streams.leadNs() : 0);
    FailoverStreams datagrams = null;
    int peer = failedHost == 1 ? 2 : 1;
    if (streams.count() > 0) {
      datagrams = FailoverStreams.start(system, spec, failedHost, peer, streams.count(), chs, STEP);
    }
    // Actors run concurrently: the rack is held at the fault until every failed link is down at
    // both ends, so nothing stamped after the fault crosses a link that is already dead.
    // The fabric runs under the kernel: holding it is the keeper's limit (a link-level horizon would
    // hold TLPs while the hosts' model-time timers ran on). The host software's timers are wakes of
    // its endpoint, which the limit holds too.
    long start = faultAt - (datagrams == null ? 0 : streams.leadNs());
    // Held at the streams' start until both services have queued every datagram (confirmed): one
    // side's traffic must not run ahead of the other's first send.
    keeper.tell(new TimeKeeper.Limit(start));
    if (datagrams != null) {
      datagrams.send(start, streams.intervalNs(), STEP);
      keeper.tell(new TimeKeeper.Limit(faultAt));
      progress.printf("  CH%d and CH%d send each other %d datagrams of the FreeQ/PostQ service, one every %,d ns"
          + " from %,d ns before the fault%n", failedHost, peer, streams.count(), streams.intervalNs(), streams.leadNs());
      awaitQuiet(datagrams);
    }
    progress.printf("  %s goes down at model %,d ns (%d compute hosts, %s notification)%n",
        what, faultAt, n, mode.name().toLowerCase());
    // Wall time of the fail-over: from the fault to the MH's report that every CH acknowledged.
    long wallAt = System.nanoTime();
    Asks.<TimeKeeper.Command, TimeKeeper.Status>ask(system, keeper, r -> new TimeKeeper.HoldBefore(faultAt, r), STEP);
    for (ActorRef<SwitchPort.Command> p : ports) {
      LinkPort.of(p).tell(new LinkPort.SetLink(false, faultAt, system));
    }
    awaitDown(system, topology, ends);
    // Then up to the earliest any host software can act on the fault: every host whose AER driver
    // runs sees its AER before any reaction (a report, a notification) moves, as in model time.
    long reactions = faultAt + HostSettings.create(system.settings().config()).aerInterruptLatencyNs();
    keeper.tell(new TimeKeeper.Limit(reactions));
    awaitDetected(system, fault, failedHost, mh, chs, faultAt, progress);
    keeper.tell(new TimeKeeper.Release());
    ManagementHost.FailoverCompleted done = completed.get(2, TimeUnit.MINUTES);
    long wallNanos = System.nanoTime() - wallAt;
    long lastCompletedAt = rounds.stream().mapToLong(ManagementHost.FailoverCompleted::completedAt).max()
        .orElse(done.completedAt());
    progress.printf("  the MH reports every CH acknowledged at model %,d ns%n", done.completedAt());
    List<FailoverStreams.Stream> streamResults = datagrams == null ? List.of()
        : datagrams.await(Duration.ofMinutes(2), STEP);
    TimeKeeper.Status sync = Asks.ask(system, keeper, TimeKeeper.GetStatus::new, STEP);
    progress.printf("  model-time kernel: %,d rounds, %,d late events (stragglers)%n", sync.rounds(), sync.stragglers());

    HostLog mhLog = Asks.ask(system, mh, ManagementHost.GetLog::new, STEP);
    Map<Integer, HostLog> logs = new LinkedHashMap<>();
    Map<Integer, List<Plane>> routes = new LinkedHashMap<>();
    for (var e : chs.entrySet()) {
      logs.put(e.getKey(), Asks.ask(system, e.getValue(), ComputeHost.GetLog::new, STEP));
      routes.put(e.getKey(), Asks.<ComputeHost.Command, ComputeHost.Routes>ask(system, e.getValue(),
          ComputeHost.GetRoutes::new, STEP).planes());
    }
    long after = 0;
    for (ActorRef<SwitchPort.Command> p : counted) {
      after += Asks.ask(system, p, SwitchPort.GetStats::new, STEP).lost();
    }
    FailoverBreakdown breakdown = FailoverBreakdown.of(failedHost, mode, faultAt, mhLog, logs);
    return new Result(topology, breakdown, mhLog, logs, routes, after - before, streamResults, wallNanos,
        lastCompletedAt, rounds.size(), sync.stragglers());
  }

  /** Until the services have moved nothing for a while: what is stamped before the fault has crossed. */
  private static void awaitQuiet(FailoverStreams datagrams) throws Exception {
    long last = -1;
    long since = System.nanoTime();
    while (System.nanoTime() - since < QUIET.toNanos()) {
      long now = datagrams.activity(STEP);
      if (now != last) {
        last = now;
        since = System.nanoTime();
      }
      Thread.sleep(20); // polling the services' counters: nothing answers on "quiet"
    }
  }

  /** Until both ends of every failed link are down: the partner learns it from the PhysicalDown. */
  private static void awaitDown(ActorSystem<?> system, Topology topology, List<String> ends) throws Exception {
    for (String end : ends) {
      String other = topology.linkAt(end).map(l -> l.other(end)).orElse(null);
      for (String e : other == null ? List.of(end) : List.of(end, other)) {
        long deadline = System.nanoTime() + STEP.toNanos();
        while (stateOf(system, topology, e) == DataLinkState.DL_ACTIVE) {
          if (System.nanoTime() > deadline) {
            throw new IllegalStateException("link end " + e + " is still up " + STEP + " after the fault");
          }
          Thread.sleep(5); // polling the end's state: a link end answers nothing on "down"
        }
      }
    }
  }

  private static DataLinkState stateOf(ActorSystem<?> system, Topology topology, String end) throws Exception {
    if (LinkSpec.portOf(end) == null) {
      ActorRef<MemoryEndpoint.Command> ep = Asks.find(system, ComponentKeys.endpoint(end), STEP);
      return Asks.ask(system, ep, MemoryEndpoint.GetStats::new, STEP).link().state();
    }
    return Asks.ask(system, portAt(system, topology, end), SwitchPort.GetStats::new, STEP).state();
  }

  /**
   * Until every host whose AER driver the fault wakes has logged its AER: the failed CH for a
   * CH's link; the MH for a plane, and every CH too when the plane's switch goes. Should an AER
   * take longer than the hosts' interrupt latency to arrive (it is held with the reactions then),
   * the run goes on after a while and says so.
   */
  private static void awaitDetected(ActorSystem<?> system, Fault fault, int failedHost,
      ActorRef<ManagementHost.Command> mh, Map<Integer, ActorRef<ComputeHost.Command>> chs, long faultAt,
      PrintStream progress) throws Exception {
    List<Integer> waiting = new ArrayList<>();
    if (fault == Fault.CH_LINK) {
      waiting.add(failedHost);
    } else if (fault == Fault.EVERY_CH_LINK) {
      waiting.addAll(chs.keySet());
    } else {
      waiting.add(0);
      if (fault == Fault.SWITCH) {
        waiting.addAll(chs.keySet());
      }
    }
    long deadline = System.nanoTime() + DETECTION_WAIT.toNanos();
    while (!waiting.isEmpty()) {
      int host = waiting.get(0);
      HostLog log = host == 0 ? Asks.ask(system, mh, ManagementHost.GetLog::new, STEP)
          : Asks.ask(system, chs.get(host), ComputeHost.GetLog::new, STEP);
      if (log.first(HostLog.Step.AER_RECEIVED, host == 0 ? ControlWord.EVERY_HOST : host, faultAt).isPresent()) {
        waiting.remove(0);
      } else if (System.nanoTime() > deadline) {
        progress.printf("  (no AER at %s within %s of wall time: the hosts' reactions go in wall order)%n",
            host == 0 ? "the MH" : "CH" + host, DETECTION_WAIT);
        return;
      } else {
        Thread.sleep(5); // polling the host's log: its AER driver tells nobody
      }
    }
  }

  /** The primary plane's switch and the port of the MH's switch linked to it. */
  record PlaneSwitch(String switchId, String uplinkSwitch, String uplinkEnd) {}

  static PlaneSwitch primaryPlaneSwitch(Topology topology, GlobalMemorySpec spec) {
    HostWiring.PlanePort up = primary(HostWiring.planePortsOf(topology, spec.managementHost(), spec.layout()),
        "the MH " + spec.managementHost());
    String end = LinkSpec.end(up.switchId(), up.port().name());
    String other = topology.linkAt(end).orElseThrow(() -> new IllegalArgumentException(end + " has no link")).other(end);
    return new PlaneSwitch(LinkSpec.componentOf(other), up.switchId(), end);
  }

  private static HostWiring.PlanePort primary(List<HostWiring.PlanePort> ports, String who) {
    return ports.stream().filter(p -> p.plane() == Plane.PRIMARY).findFirst()
        .orElseThrow(() -> new IllegalArgumentException(who + " has no port toward the primary plane"));
  }

  private static ActorRef<SwitchPort.Command> port(ActorSystem<?> system, String switchId, int number) throws Exception {
    ActorRef<SwitchChip.Command> ref = Asks.find(system, ComponentKeys.switchChip(switchId), STEP);
    return Asks.<SwitchChip.Command, SwitchChip.PortReply>ask(system, ref, r -> new SwitchChip.PortRef(number, r), STEP).port();
  }

  /** The actor of the switch port at link end {@code end} ("switch.port"). */
  private static ActorRef<SwitchPort.Command> portAt(ActorSystem<?> system, Topology topology, String end)
      throws Exception {
    String sw = LinkSpec.componentOf(end);
    PortConfig p = topology.switchSpec(sw).flatMap(s -> s.port(LinkSpec.portOf(end)))
        .orElseThrow(() -> new IllegalArgumentException("no switch port '" + end + "'"));
    return port(system, sw, p.number());
  }
}
