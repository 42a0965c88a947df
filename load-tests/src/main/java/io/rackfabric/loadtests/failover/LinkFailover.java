package io.rackfabric.loadtests.failover;

import akka.actor.typed.ActorRef;
import akka.actor.typed.ActorSystem;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.rackfabric.cluster.node.ClusterSettings;
import io.rackfabric.cluster.enumeration.RackEnumeration;
import io.rackfabric.cluster.node.ComponentKeys;
import io.rackfabric.cluster.node.HostWiring;
import io.rackfabric.cluster.node.RackNode;
import io.rackfabric.cluster.topology.GlobalMemorySpec;
import io.rackfabric.cluster.topology.LinkSpec;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.fabric.routing.PortConfig;
import io.rackfabric.fabric.settings.FabricSettings;
import io.rackfabric.fabric.stats.PortStats;
import io.rackfabric.fabric.switchchip.SwitchChip;
import io.rackfabric.fabric.switchchip.SwitchPort;
import io.rackfabric.host.compute.ComputeHost;
import io.rackfabric.host.failover.FailoverBreakdown;
import io.rackfabric.host.failover.HostLog;
import io.rackfabric.host.failover.NotificationMode;
import io.rackfabric.host.management.ManagementHost;
import io.rackfabric.host.memory.Plane;
import io.rackfabric.loadtests.harness.Asks;
import java.io.PrintStream;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * One data-plane fail-over (seeds/000 5.3) in one JVM: a Ladon rack with its host software, the
 * primary link of one compute host taken down at a model time, and the breakdown of Table 2 read
 * off the hosts' logs once the MH reports every CH acknowledged.
 */
public final class LinkFailover {

  private static final Duration STEP = Duration.ofSeconds(30);

  /** What fails, at the primary plane: one CH's link, the MH side's link to the plane's switch, or that switch. */
  public enum Fault {
    /** CH X's primary PCIe cable (its root port's link): X's AER driver reports it (seeds/000 5.3). */
    CH_LINK,
    /** The link between the MH's switch and the primary plane's switch: every CH loses PMS1. */
    UPLINK,
    /** The primary plane's switch (switch A of the dual star): every one of its links goes down. */
    SWITCH
  }

  /** What a run measured, with the fabric's own count of TLPs lost on the failed links. */
  public record Result(Topology topology, FailoverBreakdown breakdown, HostLog mh, Map<Integer, HostLog> chs,
      Map<Integer, List<Plane>> routes, long lostOnFailedLink) {}

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
    GlobalMemorySpec spec = topology.globalMemorySpec();
    if (spec == null || spec.managementHost() == null) {
      throw new IllegalArgumentException("topology " + topology.name()
          + " has no global-memory section naming a management-host: no host software to fail over");
    }
    int n = spec.computeHosts().size();
    if (fault == Fault.CH_LINK && (failedHost < 1 || failedHost > n)) {
      throw new IllegalArgumentException("host=" + failedHost + " not in [1," + n + "]");
    }
    Config base = overrides.withFallback(ConfigFactory.load());
    Config config = ConfigFactory.parseString("akka.actor.provider = local")
        .withFallback(ClusterSettings.create(base).dispatcher()).withFallback(base);
    FabricSettings settings = FabricSettings.create(config);
    ActorSystem<RackNode.Command> system = ActorSystem.create(
        RackNode.create(topology, topology.seed().name(), settings), "failover", config);
    try {
      return failOver(system, topology, spec, fault, fault == Fault.CH_LINK ? failedHost : 0, mode, progress);
    } finally {
      system.terminate();
      system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
  }

  private static Result failOver(ActorSystem<?> system, Topology topology, GlobalMemorySpec spec, Fault fault,
      int failedHost, NotificationMode mode, PrintStream progress) throws Exception {
    int n = spec.computeHosts().size();
    // Every link, not only the roots': a report sent into a secondary path still training is lost.
    RackEnumeration.awaitReady(system, topology, STEP);
    ActorRef<ManagementHost.Command> mh = Asks.find(system, ComponentKeys.managementHost(spec.managementHost()), STEP);
    Map<Integer, ActorRef<ComputeHost.Command>> chs = new LinkedHashMap<>();
    for (int i = 1; i <= n; i++) {
      chs.put(i, Asks.find(system, ComponentKeys.computeHost(spec.computeHosts().get(i - 1)), STEP));
    }
    mh.tell(new ManagementHost.UseNotificationMode(mode));
    CompletableFuture<ManagementHost.FailoverCompleted> completed = Asks.askAsync(system, mh,
        ManagementHost.SubscribeFailovers::new, Duration.ofMinutes(2));

    List<ActorRef<SwitchPort.Command>> ports;
    String what;
    if (fault == Fault.CH_LINK) {
      String chId = spec.computeHosts().get(failedHost - 1);
      ports = List.of(primaryRootPort(system, topology, spec, chId));
      what = chId + "'s primary link";
    } else {
      PlaneSwitch plane = primaryPlaneSwitch(topology, spec);
      if (fault == Fault.UPLINK) {
        ports = List.of(port(system, plane.uplinkSwitch(), plane.uplinkPort()));
        what = "the link " + plane.uplinkSwitch() + " -> " + plane.switchId() + " (every CH's PMS1 path)";
      } else {
        ports = new java.util.ArrayList<>();
        for (PortConfig p : topology.switchSpec(plane.switchId()).orElseThrow().ports()) {
          ports.add(port(system, plane.switchId(), p.number()));
        }
        what = "switch " + plane.switchId() + " (every link of the primary plane's switch)";
      }
    }
    // After everything the ports have seen, so that the links go down exactly at the fault time.
    long before = 0;
    long latest = 0;
    for (ActorRef<SwitchPort.Command> p : ports) {
      PortStats s = Asks.ask(system, p, SwitchPort.GetStats::new, STEP);
      before += s.lostOnLinkDown();
      latest = Math.max(latest, s.modelNow());
    }
    long faultAt = latest + 1_000;
    progress.printf("  %s goes down at model %,d ns (%d compute hosts, %s notification)%n",
        what, faultAt, n, mode.name().toLowerCase());
    for (ActorRef<SwitchPort.Command> p : ports) {
      p.tell(new SwitchPort.SetLink(false, faultAt));
    }
    ManagementHost.FailoverCompleted done = completed.get(2, TimeUnit.MINUTES);
    progress.printf("  the MH reports every CH acknowledged at model %,d ns%n", done.completedAt());

    HostLog mhLog = Asks.ask(system, mh, ManagementHost.GetLog::new, STEP);
    Map<Integer, HostLog> logs = new LinkedHashMap<>();
    Map<Integer, List<Plane>> routes = new LinkedHashMap<>();
    for (var e : chs.entrySet()) {
      logs.put(e.getKey(), Asks.ask(system, e.getValue(), ComputeHost.GetLog::new, STEP));
      routes.put(e.getKey(), Asks.<ComputeHost.Command, ComputeHost.Routes>ask(system, e.getValue(),
          ComputeHost.GetRoutes::new, STEP).planes());
    }
    long after = 0;
    for (ActorRef<SwitchPort.Command> p : ports) {
      after += Asks.ask(system, p, SwitchPort.GetStats::new, STEP).lostOnLinkDown();
    }
    FailoverBreakdown breakdown = FailoverBreakdown.of(failedHost, mode, faultAt, mhLog, logs);
    return new Result(topology, breakdown, mhLog, logs, routes, after - before);
  }

  /** The primary plane's switch and the port of the MH's switch linked to it. */
  record PlaneSwitch(String switchId, String uplinkSwitch, int uplinkPort) {}

  static PlaneSwitch primaryPlaneSwitch(Topology topology, GlobalMemorySpec spec) {
    HostWiring.PlanePort up = primary(HostWiring.planePortsOf(topology, spec.managementHost(), spec.layout()),
        "the MH " + spec.managementHost());
    String end = LinkSpec.end(up.switchId(), up.port().name());
    String other = topology.linkAt(end).orElseThrow(() -> new IllegalArgumentException(end + " has no link")).other(end);
    return new PlaneSwitch(LinkSpec.componentOf(other), up.switchId(), up.port().number());
  }

  private static HostWiring.PlanePort primary(List<HostWiring.PlanePort> ports, String who) {
    return ports.stream().filter(p -> p.plane() == Plane.PRIMARY).findFirst()
        .orElseThrow(() -> new IllegalArgumentException(who + " has no port toward the primary plane"));
  }

  private static ActorRef<SwitchPort.Command> port(ActorSystem<?> system, String switchId, int number) throws Exception {
    ActorRef<SwitchChip.Command> ref = Asks.find(system, ComponentKeys.switchChip(switchId), STEP);
    return Asks.<SwitchChip.Command, SwitchChip.PortReply>ask(system, ref, r -> new SwitchChip.PortRef(number, r), STEP).port();
  }

  /** The CH's root port on the primary plane: the CH end of its primary PCIe cable. */
  static ActorRef<SwitchPort.Command> primaryRootPort(ActorSystem<?> system, Topology topology,
      GlobalMemorySpec spec, String chId) throws Exception {
    HostWiring.PlanePort p = primary(HostWiring.rootPortsOf(topology, chId, spec.layout()), chId);
    return port(system, p.switchId(), p.port().number());
  }
}
