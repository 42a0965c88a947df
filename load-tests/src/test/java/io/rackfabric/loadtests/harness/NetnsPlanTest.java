package io.rackfabric.loadtests.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class NetnsPlanTest {

  private static final List<String> NODES = List.of("node-switch", "node-mmh", "node-bmh");
  private static final long PID = 70_000;

  private static String line(List<String> cmd) {
    return String.join(" ", cmd);
  }

  @Test
  void shouldGiveEveryNodeItsNamespaceAndAnAddressInTheOwnersSubnetWhenPlanned() {
    NetnsPlan plan = new NetnsPlan(PID, NODES);
    // 70,000 = 0x11170: (70,000 >> 8) % 50 = 273 % 50 = 23, 70,000 & 0xff = 112.
    assertEquals("10.223.112", plan.subnet());
    assertEquals("10.223.112.1", plan.driverAddress());
    NetnsPlan.NodeNet mmh = plan.node("node-mmh");
    assertEquals("rf-70000-node-mmh", mmh.namespace());
    assertEquals("10.223.112.3", mmh.address());
    assertEquals("rf" + Long.toString(PID, 36) + "n1", mmh.rootLink());
    assertEquals(List.of("ip", "netns", "exec", "rf-70000-node-mmh"), plan.execPrefix("node-mmh"));
    assertEquals(PID, NetnsPlan.ownerOfNamespace(mmh.namespace()));
    assertEquals(PID, NetnsPlan.ownerOfRootLink(mmh.rootLink()));
    assertEquals(-1, NetnsPlan.ownerOfNamespace("blue"));
    assertEquals(-1, NetnsPlan.ownerOfRootLink("eth0"));
  }

  @Test
  void shouldKeepEveryRootLinkNameWithinTheKernelLimitWhenThePidIsLarge() {
    NetnsPlan plan = new NetnsPlan(4_194_304, List.of("a", "b"));
    for (NetnsPlan.NodeNet n : plan.nodes()) {
      assertTrue(n.rootLink().length() <= 15, n.rootLink());
      assertEquals(4_194_304, NetnsPlan.ownerOfRootLink(n.rootLink()));
    }
  }

  @Test
  void shouldReplaceCharactersANamespaceNameCannotHoldWhenANodeNameHasThem() {
    assertEquals("rf-70000-a_b", new NetnsPlan(PID, List.of("a/b")).node("a/b").namespace());
  }

  @Test
  void shouldJoinEveryPairOfNodesAndTheDriverToEachWhenBuilding() {
    NetnsPlan plan = new NetnsPlan(PID, NODES);
    List<String> setup = plan.setup().stream().map(NetnsPlanTest::line).toList();
    String link = plan.node("node-bmh").rootLink();
    assertTrue(setup.contains("ip netns add rf-70000-node-bmh"));
    assertTrue(setup.contains("ip -n rf-70000-node-bmh addr add 10.223.112.4/32 dev lo"));
    assertTrue(setup.contains("ip link add " + link + " type veth peer name todrv netns rf-70000-node-bmh"));
    assertTrue(setup.contains("ip route add 10.223.112.4/32 dev " + link + " src 10.223.112.1"));
    assertTrue(setup.contains("ip -n rf-70000-node-bmh route add 10.223.112.1/32 dev todrv src 10.223.112.4"));
    // mmh (index 1) and bmh (index 2): one veth pair, a host route each way.
    assertTrue(setup.contains(
        "ip -n rf-70000-node-mmh link add to2 type veth peer name to1 netns rf-70000-node-bmh"));
    assertTrue(setup.contains("ip -n rf-70000-node-mmh route add 10.223.112.4/32 dev to2 src 10.223.112.3"));
    assertTrue(setup.contains("ip -n rf-70000-node-bmh route add 10.223.112.3/32 dev to1 src 10.223.112.4"));
    long pairs = setup.stream().filter(c -> c.contains("type veth") && !c.contains("todrv")).count();
    assertEquals(3, pairs, "three nodes: three pairs");
    // Namespaces come before anything is put into them.
    assertTrue(setup.indexOf("ip netns add rf-70000-node-bmh")
        < setup.indexOf("ip link add " + link + " type veth peer name todrv netns rf-70000-node-bmh"));
  }

  @Test
  void shouldTakeDownEveryRootLinkAndNamespaceItBuiltWhenTornDown() {
    NetnsPlan plan = new NetnsPlan(PID, NODES);
    Set<String> down = new HashSet<>(plan.teardown().stream().map(NetnsPlanTest::line).toList());
    for (NetnsPlan.NodeNet n : plan.nodes()) {
      assertTrue(down.contains("ip netns del " + n.namespace()), n.namespace());
      assertTrue(down.contains("ip link del " + n.rootLink()), n.rootLink());
    }
    assertEquals(6, down.size());
  }

  @Test
  void shouldDropEverythingOnBothEndsOfOnePairOnlyWhenCut() {
    NetnsPlan plan = new NetnsPlan(PID, NODES);
    assertEquals(List.of(
        "ip netns exec rf-70000-node-mmh tc qdisc replace dev to2 root tbf rate 8bit burst 1 limit 1",
        "ip netns exec rf-70000-node-bmh tc qdisc replace dev to1 root tbf rate 8bit burst 1 limit 1"),
        plan.cut("node-mmh", "node-bmh").stream().map(NetnsPlanTest::line).toList());
    assertEquals(List.of(
        "ip netns exec rf-70000-node-mmh tc qdisc del dev to2 root",
        "ip netns exec rf-70000-node-bmh tc qdisc del dev to1 root"),
        plan.heal("node-mmh", "node-bmh").stream().map(NetnsPlanTest::line).toList());
    IllegalArgumentException self = assertThrows(IllegalArgumentException.class,
        () -> plan.cut("node-mmh", "node-mmh"));
    assertTrue(self.getMessage().contains("node-mmh"), self.getMessage());
    IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
        () -> plan.cut("node-mmh", "node-x"));
    assertTrue(unknown.getMessage().contains("node-x"), unknown.getMessage());
  }

  @Test
  void shouldDegradeEveryLinkOutOfTheNodeWithNetemWhenDelayOrLossIsAsked() {
    NetnsPlan plan = new NetnsPlan(PID, NODES);
    List<String> cmds = plan.degrade("node-switch", new NetnsPlan.Degradation(5_000_000, 0.01, 0)).stream()
        .map(NetnsPlanTest::line).toList();
    assertEquals(List.of(
        "ip netns exec rf-70000-node-switch tc qdisc replace dev to1 root netem delay 5000us loss 1.0000%",
        "ip netns exec rf-70000-node-switch tc qdisc replace dev to2 root netem delay 5000us loss 1.0000%",
        "ip netns exec rf-70000-node-switch tc qdisc replace dev todrv root netem delay 5000us loss 1.0000%"), cmds);
    assertEquals(3, plan.restore("node-switch").size());
    assertEquals("ip netns exec rf-70000-node-switch tc qdisc del dev todrv root", line(plan.restore("node-switch")
        .get(2)));
  }

  @Test
  void shouldPaceWithATokenBucketAndNoNetemWhenOnlyARateIsAsked() {
    NetnsPlan.Degradation rate = new NetnsPlan.Degradation(0, 0, 10_000_000);
    assertFalse(rate.needsNetem());
    List<String> cmds = new NetnsPlan(PID, NODES).degrade("node-mmh", rate).stream().map(NetnsPlanTest::line)
        .toList();
    assertEquals("ip netns exec rf-70000-node-mmh tc qdisc replace dev to0 root tbf rate 10000000bit burst 16384"
        + " latency 50ms", cmds.get(0));
  }

  @Test
  void shouldRejectADegradationWithABadValueNamingTheValue() {
    assertTrue(assertThrows(IllegalArgumentException.class, () -> new NetnsPlan.Degradation(0, 1.5, 0))
        .getMessage().contains("loss=1.5"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> new NetnsPlan.Degradation(-1, 0, 0))
        .getMessage().contains("delay=-1"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> new NetnsPlan.Degradation(0, 0, 0))
        .getMessage().contains("nothing to degrade"));
  }

  @Test
  void shouldRejectAPlanWithoutNodesOrWithANodeTwice() {
    assertThrows(IllegalArgumentException.class, () -> new NetnsPlan(PID, List.of()));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> new NetnsPlan(PID, List.of("a", "a")))
        .getMessage().contains("node=a"));
  }
}
