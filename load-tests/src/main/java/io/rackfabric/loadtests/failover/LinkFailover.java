package io.rackfabric.loadtests.failover;

import akka.actor.typed.ActorRef;
import akka.actor.typed.ActorSystem;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.rackfabric.cluster.node.ClusterSettings;
import io.rackfabric.cluster.node.ComponentKeys;
import io.rackfabric.cluster.node.RackNode;
import io.rackfabric.cluster.topology.GlobalMemorySpec;
import io.rackfabric.cluster.topology.LinkSpec;
import io.rackfabric.cluster.topology.SwitchSpec;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
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

  /** What a run measured, with the fabric's own count of TLPs lost on the failed link. */
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
    GlobalMemorySpec spec = topology.globalMemorySpec();
    if (spec == null || spec.managementHost() == null) {
      throw new IllegalArgumentException("topology " + topology.name()
          + " has no global-memory section naming a management-host: no host software to fail over");
    }
    int n = spec.computeHosts().size();
    if (failedHost < 1 || failedHost > n) {
      throw new IllegalArgumentException("host=" + failedHost + " not in [1," + n + "]");
    }
    Config base = overrides.withFallback(ConfigFactory.load());
    Config config = ConfigFactory.parseString("akka.actor.provider = local")
        .withFallback(ClusterSettings.create(base).dispatcher()).withFallback(base);
    FabricSettings settings = FabricSettings.create(config);
    ActorSystem<RackNode.Command> system = ActorSystem.create(
        RackNode.create(topology, topology.seed().name(), settings), "failover", config);
    try {
      return failOver(system, topology, spec, failedHost, mode, progress);
    } finally {
      system.terminate();
      system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
  }

  private static Result failOver(ActorSystem<?> system, Topology topology, GlobalMemorySpec spec, int failedHost,
      NotificationMode mode, PrintStream progress) throws Exception {
    int n = spec.computeHosts().size();
    ActorRef<MemoryEndpoint.Command> mhRoot = Asks.find(system, ComponentKeys.endpoint(spec.managementHost()), STEP);
    Asks.awaitLinkActive(system, mhRoot, STEP);
    for (String ch : spec.computeHosts()) {
      Asks.awaitLinkActive(system, Asks.find(system, ComponentKeys.endpoint(ch), STEP), STEP);
    }
    ActorRef<ManagementHost.Command> mh = Asks.find(system, ComponentKeys.managementHost(spec.managementHost()), STEP);
    Map<Integer, ActorRef<ComputeHost.Command>> chs = new LinkedHashMap<>();
    for (int i = 1; i <= n; i++) {
      chs.put(i, Asks.find(system, ComponentKeys.computeHost(spec.computeHosts().get(i - 1)), STEP));
    }
    mh.tell(new ManagementHost.UseNotificationMode(mode));
    CompletableFuture<ManagementHost.FailoverCompleted> completed = Asks.askAsync(system, mh,
        ManagementHost.SubscribeFailovers::new, Duration.ofMinutes(2));

    String chId = spec.computeHosts().get(failedHost - 1);
    ActorRef<SwitchPort.Command> port = primaryRootPort(system, topology, spec, chId);
    PortStats before = Asks.ask(system, port, SwitchPort.GetStats::new, STEP);
    // After everything the port has seen, so that the link goes down exactly at the fault time.
    long faultAt = before.modelNow() + 1_000;
    progress.printf("  %s's primary link goes down at model %,d ns (%d compute hosts, %s notification)%n",
        chId, faultAt, n, mode.name().toLowerCase());
    port.tell(new SwitchPort.SetLink(false, faultAt));
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
    PortStats after = Asks.ask(system, port, SwitchPort.GetStats::new, STEP);
    FailoverBreakdown breakdown = FailoverBreakdown.of(failedHost, mode, faultAt, mhLog, logs);
    return new Result(topology, breakdown, mhLog, logs, routes, after.lostOnLinkDown() - before.lostOnLinkDown());
  }

  /** The CH's root port on the primary plane: the CH end of its primary PCIe cable. */
  static ActorRef<SwitchPort.Command> primaryRootPort(ActorSystem<?> system, Topology topology,
      GlobalMemorySpec spec, String chId) throws Exception {
    String rpSwitch = LinkSpec.componentOf(topology.linkAt(chId).orElseThrow().other(chId));
    SwitchSpec chip = topology.switchSpec(rpSwitch).orElseThrow();
    long primaryView = spec.layout().chView(Plane.PRIMARY).base();
    PortConfig primary = chip.ports().stream()
        .filter(p -> p.bridge() != null && p.bridge().prefetchable() != null
            && p.bridge().prefetchable().contains(primaryView) && p.role() != io.rackfabric.fabric.routing.PortRole.UPSTREAM)
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException(chId + " has no primary root port on " + rpSwitch));
    ActorRef<SwitchChip.Command> ref = Asks.find(system, ComponentKeys.switchChip(rpSwitch), STEP);
    SwitchChip.PortReply reply = Asks.ask(system, ref, r -> new SwitchChip.PortRef(primary.number(), r), STEP);
    return reply.port();
  }
}
