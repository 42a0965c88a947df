package io.rackfabric.loadtests.harness;

import akka.actor.typed.ActorRef;
import akka.actor.typed.ActorSystem;
import akka.actor.typed.javadsl.Behaviors;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.rackfabric.cluster.node.ClusterSettings;
import io.rackfabric.cluster.node.ComponentKeys;
import io.rackfabric.cluster.node.MembershipLog;
import io.rackfabric.cluster.node.NodeConfig;
import io.rackfabric.cluster.node.NodeRunner;
import io.rackfabric.loadtests.scenario.language.Network;
import io.rackfabric.cluster.topology.EndpointSpec;
import io.rackfabric.cluster.topology.NodeSpec;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A rack running on node JVMs, driven from this JVM: this JVM is the cluster's seed with the role
 * "driver" and hosts no component; one child JVM per topology node. Starts everything, finds every
 * endpoint, waits until every endpoint's link is DL_ACTIVE, and on {@link #close} stops it all.
 * If start-up fails, whatever was started is stopped before the exception leaves.
 */
public final class ClusterRun implements AutoCloseable {

  private final ActorSystem<Void> driver;
  private final NodeProcesses nodes;
  private final Map<String, ActorRef<MemoryEndpoint.Command>> endpoints = new HashMap<>();

  private final Netns netns;

  private ClusterRun(ActorSystem<Void> driver, NodeProcesses nodes, Netns netns) {
    this.driver = driver;
    this.nodes = nodes;
    this.netns = netns;
  }

  /**
   * @param topologyArg how the children find the topology: a bundled name or a file path
   */
  public static ClusterRun start(Topology topology, String topologyArg, String transport, Path runDir,
      PrintStream progress) throws Exception {
    return start(topology, topologyArg, transport, false, runDir, progress);
  }

  /**
   * @param sharedMediaDriver with aeron-udp, run one media driver process for all JVMs instead of
   *     one embedded in each
   */
  public static ClusterRun start(Topology topology, String topologyArg, String transport,
      boolean sharedMediaDriver, Path runDir, PrintStream progress) throws Exception {
    return start(topology, topologyArg, transport, sharedMediaDriver, runDir, progress, Map.of());
  }

  /** @param overrides configuration paths and values for every node JVM, as system properties */
  public static ClusterRun start(Topology topology, String topologyArg, String transport,
      boolean sharedMediaDriver, Path runDir, PrintStream progress, Map<String, String> overrides) throws Exception {
    return start(topology, topologyArg, transport, sharedMediaDriver, runDir, progress, overrides, Network.LOOPBACK,
        false);
  }

  /**
   * @param network {@link Network#NAMESPACES}: every node JVM in a network namespace of its own
   *     ({@link Netns}), this JVM on the root namespace's end of a veth to each; refused with
   *     {@link NetnsUnavailableException} where namespaces cannot be made, before anything starts
   * @param needsNetem with namespaces: a fault will degrade with delay or loss (netem is checked for)
   */
  public static ClusterRun start(Topology topology, String topologyArg, String transport,
      boolean sharedMediaDriver, Path runDir, PrintStream progress, Map<String, String> overrides, Network network,
      boolean needsNetem) throws Exception {
    return start(topology, topologyArg, transport, sharedMediaDriver, runDir, progress, overrides, network, needsNetem,
        null);
  }

  /**
   * @param tlsDir with tls-tcp: the rack's keys folder ({@code rack keys}), or null for the stores in
   *     the settings; they are opened before anything starts, and every node JVM is given the same
   *     paths (never the password)
   */
  public static ClusterRun start(Topology topology, String topologyArg, String transport,
      boolean sharedMediaDriver, Path runDir, PrintStream progress, Map<String, String> overrides, Network network,
      boolean needsNetem, String tlsDir) throws Exception {
    // The driver JVM reads the run's settings as the node JVMs do (they get them as -D properties).
    Config base = ConfigFactory.parseMap(overrides).withFallback(ConfigFactory.load());
    ClusterSettings cluster = ClusterSettings.create(base, transport, tlsDir);
    if (cluster.tls() != null) {
      Map<String, String> withTls = new HashMap<>(overrides);
      withTls.putAll(cluster.tls().childSettings());
      overrides = withTls;
    }
    AeronDirs.sweep(); // what earlier runs' killed JVMs left in /dev/shm
    Netns netns = null;
    String driverHost = "127.0.0.1";
    if (network == Network.NAMESPACES) {
      if (sharedMediaDriver && transport.equals("aeron-udp")) {
        throw new IllegalArgumentException("sharedMediaDriver=true with network=namespaces: the driver process would"
            + " send every node's traffic from one namespace");
      }
      netns = Netns.create(new NetnsPlan(ProcessHandle.current().pid(), topology.nodes().stream().map(NodeSpec::name)
          .toList()), needsNetem, Netns.SYSTEM, progress);
      driverHost = netns.plan().driverAddress();
    }
    NodeProcesses nodes;
    try {
      nodes = new NodeProcesses(runDir);
    } catch (Exception | Error e) {
      if (netns != null) {
        netns.close();
      }
      throw e;
    }
    List<String> driverArgs = List.of();
    if (sharedMediaDriver && transport.equals("aeron-udp")) {
      Path aeronDir = Path.of("/dev/shm", "rack-aeron-" + ProcessHandle.current().pid() + "-" + System.nanoTime());
      try {
        nodes.startMediaDriver(aeronDir, Duration.ofSeconds(30));
      } catch (Exception e) {
        nodes.close();
        throw e;
      }

      cluster = cluster.withAeronDir(aeronDir.toString());
      driverArgs = List.of("--aeron-dir", aeronDir.toString());
    }
    int driverPort = NodeProcesses.freePort();
    Config config = NodeConfig.member(driverHost, driverPort, driverHost, driverPort, List.of(NodeRunner.DRIVER_ROLE), cluster, base);
    ActorSystem<Void> driver;
    try {
      driver = ActorSystem.create(Behaviors.empty(), "rack", config);
      MembershipLog.start(driver);
    } catch (Exception | Error e) {
      nodes.close();
      if (netns != null) {
        netns.close();
      }
      throw e;
    }
    try {
      ClusterRun run = new ClusterRun(driver, nodes, netns);
      NodeRunner.awaitUp(driver, cluster.joinTimeout(), "the driver");
      // Where an operator's process reaches this run's rack (e.g. rack switchover --seed).
      progress.printf("  seed %s:%d (this driver JVM; topology %s)%n", driverHost, driverPort, topologyArg);
      for (NodeSpec n : topology.nodes()) {
        long t0 = System.nanoTime();
        // In its own namespace a node has every port to itself; on loopback it takes a free one.
        int port = netns == null ? NodeProcesses.freePort() : NetnsPlan.NODE_PORT;
        List<String> args = new java.util.ArrayList<>(List.of("--topology", topologyArg, "--node", n.name(),
            "--port", String.valueOf(port), "--seed", driverHost + ":" + driverPort,
            "--transport", transport, "--data-dir", runDir.resolve("data").toString()));
        if (netns != null) {
          args.addAll(List.of("--host", netns.plan().node(n.name()).address()));
        }
        args.addAll(driverArgs);
        nodes.start(n.name(), "node", args, overrides, "384m", Duration.ofSeconds(90),
            netns == null ? List.of() : netns.plan().execPrefix(n.name()));
        progress.printf("  %s up (%.1f s), runs %s%n", n.name(), (System.nanoTime() - t0) / 1e9,
            topology.placedOn(n.name()).stream().map(c -> c.id()).toList());
      }
      for (EndpointSpec e : topology.endpoints()) {
        run.endpoints.put(e.id(), Asks.find(driver, ComponentKeys.endpoint(e.id()), Duration.ofSeconds(30)));
      }
      for (ActorRef<MemoryEndpoint.Command> e : run.endpoints.values()) {
        Asks.awaitLinkActive(driver, e, Duration.ofSeconds(30));
      }
      progress.println("  every endpoint's link trained to DL_ACTIVE");
      return run;
    } catch (Exception | Error e) {
      nodes.stopNodes();
      terminate(driver);
      nodes.close();
      if (netns != null) {
        netns.close();
      }
      throw e;
    }
  }

  /**
   * Starts node {@code node}'s JVM again after it was killed, with the same arguments (port, data
   * folder), and finds its endpoints anew; returns their ids. Their links train with their partners
   * as at the start; a caller that needs them waits for it.
   */
  public List<String> restart(String node, Topology topology) throws Exception {
    nodes.restart(node);
    List<String> found = new java.util.ArrayList<>();
    for (EndpointSpec e : topology.endpoints()) {
      if (e.node().equals(node)) {
        endpoints.put(e.id(), Asks.findOther(driver, ComponentKeys.endpoint(e.id()), endpoints.get(e.id()),
            Duration.ofSeconds(30)));
        found.add(e.id());
      }
    }
    return found;
  }

  /** The namespaces the node JVMs run in, or empty on loopback. */
  public java.util.Optional<Netns> netns() {
    return java.util.Optional.ofNullable(netns);
  }

  public ActorSystem<Void> driver() {
    return driver;
  }

  public NodeProcesses nodes() {
    return nodes;
  }

  public ActorRef<MemoryEndpoint.Command> endpoint(String id) {
    ActorRef<MemoryEndpoint.Command> ref = endpoints.get(id);
    if (ref == null) {
      throw new IllegalArgumentException("no endpoint '" + id + "' (endpoints: " + endpoints.keySet() + ")");
    }
    return ref;
  }

  @Override
  public void close() {
    nodes.stopNodes();
    terminate(driver);
    nodes.close(); // the shared media driver, if any, goes last
    if (netns != null) {
      netns.close(); // once no JVM is left in the namespaces
    }
    AeronDirs.sweep();
  }

  private static void terminate(ActorSystem<?> system) {
    system.terminate();
    try {
      system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
    } catch (Exception e) {
      // the JVM's own shutdown will finish it; nothing else to release here
    }
  }
}
