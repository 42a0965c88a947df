package io.rackfabric.loadtests.harness;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The network of one namespace run, as data: a namespace per node JVM, a veth pair between every
 * two nodes and one from the root namespace (where the driver JVM runs) to every node, each
 * node's address a /32 on its own loopback with a host route per peer, and the {@code ip} and
 * {@code tc} command lines that build it, cut it, degrade it and take it down. Nothing here runs a
 * command ({@link Netns} does), so the plan is tested as plain data.
 *
 * <p>Why a full mesh of veth pairs rather than one bridge: this machine's kernel has neither packet
 * filters nor netem, so the only way to cut MMH-BMH and nothing else is to act on a link that
 * carries that pair's traffic only.
 *
 * <p>Names: namespaces are {@code rf-<pid>-<node>} (the pid of the JVM that owns them, so a later
 * run can tell a crashed run's leftovers from a live one's); inside a namespace the veth towards
 * node j is {@code to<j>} and the one towards the driver {@code todrv}; in the root namespace, where
 * names are shared by every run, the driver's end towards node i is {@code rf<pid36>n<i>} (15
 * characters at most, the kernel's limit).
 */
public final class NetnsPlan {

  /** Namespaces of rack runs: {@code rf-<pid>-<node>}. */
  public static final Pattern NAMESPACE = Pattern.compile("rf-(\\d+)-(.+)");
  /** Driver-side veths of rack runs in the root namespace: {@code rf<pid base 36>n<index>}. */
  public static final Pattern ROOT_LINK = Pattern.compile("rf([0-9a-z]+)n(\\d+)");
  /** The port every node JVM listens on: each has a network namespace, so it is free in each. */
  public static final int NODE_PORT = 25520;
  /** Kernel limit on interface names (IFNAMSIZ - 1). */
  static final int MAX_IFNAME = 15;
  /** Up to 250 nodes in a /24-sized block (.1 the driver, .2 onwards the nodes). */
  static final int MAX_NODES = 250;

  /** One node: its namespace, index and address. */
  public record NodeNet(String node, int index, String namespace, String address, String rootLink) {}

  private final long ownerPid;
  private final String subnet;
  private final Map<String, NodeNet> nodes = new LinkedHashMap<>();

  /**
   * @param ownerPid the pid of the JVM that builds and owns the network (the driver)
   * @param nodes the node names, in topology order
   */
  public NetnsPlan(long ownerPid, List<String> nodes) {
    if (ownerPid <= 0) {
      throw new IllegalArgumentException("ownerPid=" + ownerPid + " is not a process id");
    }
    if (nodes.isEmpty() || nodes.size() > MAX_NODES) {
      throw new IllegalArgumentException("nodes=" + nodes.size() + " not in [1, " + MAX_NODES + "]");
    }
    this.ownerPid = ownerPid;
    // A /24 of 10/8 per owner, so that concurrent runs (other pids) do not share addresses.
    this.subnet = "10." + (200 + (int) ((ownerPid >> 8) % 50)) + "." + (ownerPid & 0xff);
    String tag = Long.toString(ownerPid, 36);
    int i = 0;
    for (String n : nodes) {
      if (this.nodes.containsKey(n)) {
        throw new IllegalArgumentException("node=" + n + " named twice");
      }
      String link = "rf" + tag + "n" + i;
      if (link.length() > MAX_IFNAME) {
        throw new IllegalArgumentException("ownerPid=" + ownerPid + " gives interface name " + link + ", longer than "
            + MAX_IFNAME + " characters");
      }
      this.nodes.put(n, new NodeNet(n, i, "rf-" + ownerPid + "-" + n.replaceAll("[^A-Za-z0-9_.-]", "_"),
          subnet + "." + (i + 2), link));
      i++;
    }
  }

  public long ownerPid() {
    return ownerPid;
  }

  /** The first three octets of every address of this run, e.g. {@code 10.212.3} for {@code 10.212.3.7}. */
  public String subnet() {
    return subnet;
  }

  /** The driver JVM's address, in the root namespace. */
  public String driverAddress() {
    return subnet + ".1";
  }

  public List<NodeNet> nodes() {
    return List.copyOf(nodes.values());
  }

  public NodeNet node(String name) {
    NodeNet n = nodes.get(name);
    if (n == null) {
      throw new IllegalArgumentException("no node '" + name + "' in the namespace plan (nodes: " + nodes.keySet() + ")");
    }
    return n;
  }

  /** What runs a node JVM inside its namespace: put in front of {@code java ...}. */
  public List<String> execPrefix(String node) {
    return List.of("ip", "netns", "exec", node(node).namespace());
  }

  /** The veth inside {@code from}'s namespace that leads to {@code to}. */
  static String vethTo(NodeNet to) {
    return "to" + to.index();
  }

  // ------------------------------------------------------------------ building

  /** Every command that builds the network, in order; each must succeed. */
  public List<List<String>> setup() {
    List<List<String>> cmds = new ArrayList<>();
    String drv = driverAddress();
    for (NodeNet n : nodes.values()) {
      cmds.add(List.of("ip", "netns", "add", n.namespace()));
      cmds.add(List.of("ip", "-n", n.namespace(), "link", "set", "lo", "up"));
      // On loopback: the node's address stays reachable over any of its veths.
      cmds.add(List.of("ip", "-n", n.namespace(), "addr", "add", n.address() + "/32", "dev", "lo"));
    }
    for (NodeNet n : nodes.values()) {
      cmds.add(List.of("ip", "link", "add", n.rootLink(), "type", "veth", "peer", "name", "todrv", "netns",
          n.namespace()));
      cmds.add(List.of("ip", "addr", "add", drv + "/32", "dev", n.rootLink()));
      cmds.add(List.of("ip", "link", "set", n.rootLink(), "up"));
      cmds.add(List.of("ip", "route", "add", n.address() + "/32", "dev", n.rootLink(), "src", drv));
      cmds.add(List.of("ip", "-n", n.namespace(), "link", "set", "todrv", "up"));
      cmds.add(List.of("ip", "-n", n.namespace(), "route", "add", drv + "/32", "dev", "todrv", "src", n.address()));
    }
    List<NodeNet> all = List.copyOf(nodes.values());
    for (int i = 0; i < all.size(); i++) {
      for (int j = i + 1; j < all.size(); j++) {
        NodeNet a = all.get(i);
        NodeNet b = all.get(j);
        cmds.add(List.of("ip", "-n", a.namespace(), "link", "add", vethTo(b), "type", "veth", "peer", "name", vethTo(a),
            "netns", b.namespace()));
        cmds.add(List.of("ip", "-n", a.namespace(), "link", "set", vethTo(b), "up"));
        cmds.add(List.of("ip", "-n", b.namespace(), "link", "set", vethTo(a), "up"));
        cmds.add(List.of("ip", "-n", a.namespace(), "route", "add", b.address() + "/32", "dev", vethTo(b), "src",
            a.address()));
        cmds.add(List.of("ip", "-n", b.namespace(), "route", "add", a.address() + "/32", "dev", vethTo(a), "src",
            b.address()));
      }
    }
    return cmds;
  }

  /**
   * Every command that takes the network down; each may fail (already gone). The root-side veths
   * go explicitly (their peers with them); deleting a namespace frees its other veths once no
   * process is left in it.
   */
  public List<List<String>> teardown() {
    List<List<String>> cmds = new ArrayList<>();
    for (NodeNet n : nodes.values()) {
      cmds.add(List.of("ip", "link", "del", n.rootLink()));
    }
    for (NodeNet n : nodes.values()) {
      cmds.add(List.of("ip", "netns", "del", n.namespace()));
    }
    return cmds;
  }

  // ------------------------------------------------------------------ faults

  /**
   * Cuts the veth pair between {@code a} and {@code b}: both ends get a token bucket one byte
   * deep, and a token bucket drops every frame larger than its bucket, so every frame either way
   * is dropped in silence (ARP included) while the links stay up and the routes stay: to both
   * JVMs the peer simply stops answering, as behind a failed switch. Taking the veth down with
   * {@code ip link} instead would flush the routes, and the senders would get "network
   * unreachable" at once instead of silence.
   */
  public List<List<String>> cut(String a, String b) {
    NodeNet na = node(a);
    NodeNet nb = node(b);
    requireDistinct(na, nb);
    return List.of(dropAll(na.namespace(), vethTo(nb)), dropAll(nb.namespace(), vethTo(na)));
  }

  /** Undoes {@link #cut}: both ends' qdiscs go back to the default. */
  public List<List<String>> heal(String a, String b) {
    NodeNet na = node(a);
    NodeNet nb = node(b);
    requireDistinct(na, nb);
    return List.of(rootQdiscDel(na.namespace(), vethTo(nb)), rootQdiscDel(nb.namespace(), vethTo(na)));
  }

  /**
   * Degrades every link out of {@code node} (towards each other node and the driver) with netem:
   * {@code delayNs} added to each frame, {@code loss} of them dropped, and, when {@code rateBitsPerS}
   * is positive, a token-bucket rate limit (tbf, without netem).
   */
  public List<List<String>> degrade(String node, Degradation d) {
    NodeNet n = node(node);
    List<List<String>> cmds = new ArrayList<>();
    for (String dev : devicesOf(n)) {
      List<String> cmd = new ArrayList<>(List.of("ip", "netns", "exec", n.namespace(), "tc", "qdisc", "replace",
          "dev", dev, "root"));
      if (d.needsNetem()) {
        cmd.add("netem");
        if (d.delayNs() > 0) {
          cmd.addAll(List.of("delay", micros(d.delayNs())));
        }
        if (d.loss() > 0) {
          cmd.addAll(List.of("loss", percent(d.loss())));
        }
        if (d.rateBitsPerS() > 0) {
          cmd.addAll(List.of("rate", d.rateBitsPerS() + "bit"));
        }
      } else {
        cmd.addAll(tbf(d.rateBitsPerS()));
      }
      cmds.add(cmd);
    }
    return cmds;
  }

  /** Undoes {@link #degrade}. */
  public List<List<String>> restore(String node) {
    NodeNet n = node(node);
    return devicesOf(n).stream().map(dev -> rootQdiscDel(n.namespace(), dev)).toList();
  }

  /** A degradation of a node's links: any of delay, loss and rate (0: not degraded that way). */
  public record Degradation(long delayNs, double loss, long rateBitsPerS) {

    public Degradation {
      if (delayNs < 0) {
        throw new IllegalArgumentException("delay=" + delayNs + "ns is negative");
      }
      if (!(loss >= 0 && loss <= 1)) {
        throw new IllegalArgumentException("loss=" + loss + " not in [0, 1]");
      }
      if (rateBitsPerS < 0) {
        throw new IllegalArgumentException("rate=" + rateBitsPerS + "bit/s is negative");
      }
      if (delayNs == 0 && loss == 0 && rateBitsPerS == 0) {
        throw new IllegalArgumentException("delay, loss and rate are all 0: nothing to degrade");
      }
    }

    /** Delay and loss need the netem qdisc; a rate alone is a token bucket. */
    public boolean needsNetem() {
      return delayNs > 0 || loss > 0;
    }
  }

  private List<String> devicesOf(NodeNet n) {
    List<String> devs = new ArrayList<>();
    for (NodeNet other : nodes.values()) {
      if (other != n) {
        devs.add(vethTo(other));
      }
    }
    devs.add("todrv");
    return devs;
  }

  private static List<String> dropAll(String ns, String dev) {
    List<String> cmd = new ArrayList<>(List.of("ip", "netns", "exec", ns, "tc", "qdisc", "replace", "dev", dev, "root",
        "tbf", "rate", "8bit", "burst", "1", "limit", "1"));
    return cmd;
  }

  private static List<String> tbf(long rateBitsPerS) {
    // A bucket of at least one full frame (else every frame is dropped, see cut) and 50 ms of queue.
    long burst = Math.max(16 * 1024, rateBitsPerS / 8 / 100);
    return List.of("tbf", "rate", rateBitsPerS + "bit", "burst", Long.toString(burst), "latency", "50ms");
  }

  private static List<String> rootQdiscDel(String ns, String dev) {
    return List.of("ip", "netns", "exec", ns, "tc", "qdisc", "del", "dev", dev, "root");
  }

  private static void requireDistinct(NodeNet a, NodeNet b) {
    if (a == b) {
      throw new IllegalArgumentException("cannot cut node " + a.node() + " from itself");
    }
  }

  static String micros(long nanos) {
    return (nanos % 1000 == 0 ? Long.toString(nanos / 1000) : String.format(java.util.Locale.ROOT, "%.3f",
        nanos / 1000.0)) + "us";
  }

  static String percent(double fraction) {
    return String.format(java.util.Locale.ROOT, "%.4f%%", fraction * 100);
  }

  /** The owner pid of a rack namespace name, or -1 when it is not one. */
  public static long ownerOfNamespace(String name) {
    Matcher m = NAMESPACE.matcher(name);
    return m.matches() ? Long.parseLong(m.group(1)) : -1;
  }

  /** The owner pid of a rack root-side veth name, or -1 when it is not one. */
  public static long ownerOfRootLink(String name) {
    Matcher m = ROOT_LINK.matcher(name);
    if (!m.matches()) {
      return -1;
    }
    try {
      return Long.parseLong(m.group(1), 36);
    } catch (NumberFormatException e) {
      return -1;
    }
  }
}
