package io.rackfabric.cluster.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValueFactory;
import io.rackfabric.cluster.node.ClusterSettings;
import io.rackfabric.cluster.node.NodeRunner;
import io.rackfabric.cluster.node.OperatorMember;
import io.rackfabric.cluster.node.OperatorSwitchover;
import io.rackfabric.cluster.topology.ControlPlaneSpec;
import io.rackfabric.cluster.topology.HostCheck;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.host.controlplane.SwitchoverBreakdown;
import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code rack switchover --topology F}: a managed switchover of a running rack's management-host
 * pair (Multi-peer "Redundancy": quiesce, switch, resume), asked from the command line. The process
 * joins the rack's cluster as an {@link OperatorMember} (no component, role {@value
 * OperatorMember#ROLE}), asks the master through {@link OperatorSwitchover}, prints the breakdown
 * or the refusal, and leaves. Every flag is checked before anything joins.
 */
@Command(name = "switchover", sortOptions = false,
    description = {"hand a running rack's control plane to the other management host (--topology F [--seed"
        + " host:port] [--to mmh|bmh] [--transport aeron-udp|tcp|tls-tcp] [--tls-dir KEYS] [--timeout 30s] [--json])",
        "Joins the rack's cluster as an operator (hosting nothing), asks the master for a managed switchover"
        + " (quiesce, hand-over, resume), prints its breakdown in model time, and leaves. Exit 0 switched over,"
        + " 1 refused (the reason is printed), 2 bad flags or no rack reachable within the time-out."})
public final class SwitchoverRackCommand extends PicocliRackCommand {

  /** The longest --timeout taken. */
  static final Duration MAX_TIMEOUT = Duration.ofHours(1);

  @Option(names = "--topology", paramLabel = "FILE|NAME", description = "the running rack's topology (required)")
  String topology;

  @Mixin
  RackReachOptions reach;

  @Option(names = "--to", paramLabel = "mmh|bmh", description = "the host that should be the master afterwards:"
      + " mmh (the pair's master in the topology) or bmh (its backup); default: whichever is the backup now")
  String to;

  @Option(names = "--timeout", paramLabel = "T", description = "wall time for all of it: joining, finding the"
      + " master, its answer (default: 30s; e.g. 500ms, 2m; at most 1h)")
  String timeout = "30s";

  @Option(names = "--host", paramLabel = "HOST", description = "the address this process listens on, which the"
      + " rack's nodes must reach (default: the local address that routes to the seed)")
  String host;

  @Option(names = "--port", paramLabel = "P", description = "the port it listens on, 0..65535 (default: 0, any"
      + " free one)")
  int port;

  @Option(names = "--json", description = "print the outcome as one JSON document instead of text")
  boolean json;

  /** What the flags ask for, checked. */
  record Request(Topology topology, ControlPlaneSpec pair, String to, NodeRunner.Address address, Duration timeout,
      ClusterSettings cluster, Config base) {}

  @Override
  public Integer call() throws Exception {
    Request r = request();
    long deadline = System.nanoTime() + r.timeout().toNanos();
    OperatorMember member;
    try {
      member = OperatorMember.join(r.address(), r.cluster(), r.base(), r.timeout());
    } catch (IllegalStateException e) {
      err.println("rack switchover: " + e.getMessage());
      return 2;
    }
    OperatorSwitchover.Outcome outcome;
    try (member) {
      outcome = OperatorSwitchover.run(member.system(), r.pair(), r.to(), deadline);
    }
    print(outcome);
    return outcome.ok() ? 0 : 1;
  }

  /** The flags, checked, with the topology loaded; throws {@link UsageException} naming the value. */
  Request request() throws UsageException {
    if (topology == null) {
      throw new UsageException("--topology is required");
    }
    // Without --seed the topology's seed is joined: its host is looked up now, refused with its line.
    Topology t = TopologyArgs.load(topology, new HostCheck(false, !reach.seedGiven(), null));
    ControlPlaneSpec pair = t.controlPlane();
    if (pair == null) {
      throw new UsageException("topology " + t.source() + " has no control-plane section: no management-host pair"
          + " to switch over");
    }
    if (t.node(OperatorMember.ROLE).isPresent()) {
      throw new UsageException("topology " + t.source() + " has a node named " + OperatorMember.ROLE
          + ", the role this command joins with: rename the node");
    }
    String target = target(pair, to);
    Duration wait = timeout(timeout);
    Config base = ConfigFactory.load();
    ClusterSettings cluster = reach.cluster(base);
    SeedArg join = reach.join(t);
    if (port < 0 || port > 65535) {
      throw new UsageException("--port=" + port + " not in [0,65535]");
    }
    if (host != null && !HostCheck.resolves(host)) {
      throw new UsageException("--host=" + host + ": host \"" + host + "\" does not resolve to an address");
    }
    String bind = host != null ? host : towards(join.host(), join.port());
    return new Request(t, pair, target, new NodeRunner.Address(bind, port, join.host(), join.port()), wait, cluster,
        base);
  }

  /** {@code --to}: mmh or bmh (or the pair's own ids), as the pair's host id; null when not given. */
  static String target(ControlPlaneSpec pair, String to) throws UsageException {
    if (to == null) {
      return null;
    }
    if (to.equals("mmh") || to.equals(pair.master())) {
      return pair.master();
    }
    if (to.equals("bmh") || to.equals(pair.backup())) {
      return pair.backup();
    }
    String ids = pair.master().equals("mmh") && pair.backup().equals("bmh") ? ""
        : " (here " + pair.master() + " and " + pair.backup() + ")";
    throw new UsageException("--to=" + to + " not in {mmh, bmh}" + ids);
  }

  /** {@code --timeout} as a duration ("30s", "2m"), positive and at most {@link #MAX_TIMEOUT}. */
  static Duration timeout(String value) throws UsageException {
    Duration d;
    try {
      d = ConfigFactory.empty().withValue("t", ConfigValueFactory.fromAnyRef(value)).getDuration("t");
    } catch (ConfigException e) {
      throw new UsageException("--timeout=" + value + " is not a duration (e.g. 30s, 500ms, 2m)");
    }
    if (d.isNegative() || d.isZero() || d.compareTo(MAX_TIMEOUT) > 0) {
      throw new UsageException("--timeout=" + value + " not in (0,1h]");
    }
    return d;
  }

  /** The local address the operating system would send from to reach the seed (no packet is sent). */
  private static String towards(String seedHost, int seedPort) throws UsageException {
    try (DatagramSocket probe = new DatagramSocket()) {
      probe.connect(new InetSocketAddress(seedHost, seedPort));
      return probe.getLocalAddress().getHostAddress();
    } catch (IOException | RuntimeException e) {
      throw new UsageException("--seed=" + seedHost + ":" + seedPort + ": no local address routes there (" + e.getMessage()
          + "); give --host");
    }
  }

  private void print(OperatorSwitchover.Outcome o) throws JsonProcessingException {
    if (json) {
      out.println(new ObjectMapper().writeValueAsString(toJson(o)));
      return;
    }
    if (!o.ok()) {
      out.println("switchover refused" + (o.from().isEmpty() ? "" : " by " + o.from()) + ": " + o.detail());
      String roles = o.rolesAfter().isEmpty() ? o.rolesBefore() : o.rolesAfter();
      if (!roles.isEmpty()) {
        out.println("  roles: " + roles);
      }
      return;
    }
    out.println("switchover " + o.from() + " -> " + o.to() + ": " + o.detail());
    out.println("  before: " + o.rolesBefore());
    SwitchoverBreakdown b = o.breakdown();
    if (b == null) {
      out.println("  (" + o.from() + " did not answer for the switchover's steps)");
    } else {
      out.printf("  %-20s %,12d ns  model%n", "quiesce", b.quiesceNs());
      out.printf("  %-20s %,12d ns  model%n", "hand_over", b.handOverNs());
      out.printf("  %-20s %,12d ns  model%n", "control_plane_pause", b.controlPlanePauseNs());
      out.printf("  %-20s %,12d ns  model%n", "total", b.totalNs());
      out.println("  handed over at seqNr " + b.lastSeqNr() + ", " + b.requestsHeld() + " requests held meanwhile");
    }
    out.println("  now: " + o.rolesAfter());
  }

  static Map<String, Object> toJson(OperatorSwitchover.Outcome o) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("ok", o.ok());
    m.put("from", o.from());
    m.put("to", o.to());
    m.put("detail", o.detail());
    m.put("roles_before", o.rolesBefore());
    m.put("roles_after", o.rolesAfter());
    SwitchoverBreakdown b = o.breakdown();
    if (b != null) {
      Map<String, Object> f = new LinkedHashMap<>();
      f.put("quiesce_ns", b.quiesceNs());
      f.put("hand_over_ns", b.handOverNs());
      f.put("control_plane_pause_ns", b.controlPlanePauseNs());
      f.put("total_ns", b.totalNs());
      f.put("seq_nr", b.lastSeqNr());
      f.put("requests_held", b.requestsHeld());
      m.put("breakdown", f);
    }
    return m;
  }
}
