package io.rackfabric.cluster.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.cluster.topology.LeastLatency;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.cluster.topology.TopologyLoader;
import io.rackfabric.fabric.endpoint.GuestPeer;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class GuestChannelPlanTest {

  static final long PAIR_NS = 500;
  static final long SWITCH_NS = 150;

  static Optional<GuestPeer> channel(GuestChannelPlan plan, String from, String to) {
    return plan.of(from).stream().filter(p -> p.peer().equals(to)).findFirst();
  }

  @Test
  void shouldJoinTheManagementHostToTheNicAndEveryComputeHostBothWaysWithTheFabricsLeastLatency()
      throws Exception {
    Topology t = TopologyLoader.load("ladon-testbed");
    GuestChannelPlan plan = GuestChannelPlan.of(t, PAIR_NS, SWITCH_NS);
    String mh = t.globalMemorySpec().managementHost();
    for (String peer : new String[] {NicNode.NIC_ID, "ch1", "ch2"}) {
      long least = LeastLatency.between(t, mh, peer, SWITCH_NS).orElseThrow();
      assertEquals(Optional.of(new GuestPeer(peer, least)), channel(plan, mh, peer), mh + " -> " + peer);
      assertEquals(Optional.of(new GuestPeer(mh, least)), channel(plan, peer, mh), peer + " -> " + mh);
    }
    assertTrue(channel(plan, "ch1", "ch2").isEmpty(), "the compute hosts' senders do not talk to each other");
  }

  @Test
  void shouldKeepThePairsChannelWithItsLinkLatencyBesideTheNicsChannels() throws Exception {
    Topology t = TopologyLoader.load("ladon-testbed");
    GuestChannelPlan plan = GuestChannelPlan.of(t, PAIR_NS, SWITCH_NS);
    String master = t.controlPlane().master();
    String backup = t.controlPlane().backup();
    assertEquals(Optional.of(new GuestPeer(backup, PAIR_NS)), channel(plan, master, backup));
    assertEquals(Optional.of(new GuestPeer(master, PAIR_NS)), channel(plan, backup, master));
  }

  @Test
  void shouldDeclareNoChannelWhenTheRackHasNoNic() throws Exception {
    Topology t = TopologyLoader.load("fig1");
    GuestChannelPlan plan = GuestChannelPlan.of(t, PAIR_NS, SWITCH_NS);
    for (String id : t.componentIds()) {
      assertEquals(0, plan.of(id).size(), id);
    }
  }
}
