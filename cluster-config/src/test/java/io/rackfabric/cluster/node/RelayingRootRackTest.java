package io.rackfabric.cluster.node;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import com.typesafe.config.ConfigFactory;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.cluster.topology.TopologyLoader;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.settings.FabricSettings;
import io.rackfabric.fabric.stats.EndpointStats;
import io.rackfabric.fabric.tlp.CompletionStatus;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * The topology keys {@code acs-redirect} and {@code relay} reach the running data plane: the node
 * launcher gives the relaying root the windows of its upstream port, and a peer read between two
 * devices below the switch goes through the root, split into 64-byte reads.
 */
class RelayingRootRackTest {

  static final String RACK = String.join("\n",
      "rack {",
      "  name = relay",
      "  nodes = [ { name = n1, host = \"127.0.0.1\", port = 25521 } ]",
      "  switches = [ { id = sw, node = n1, ports = [",
      "    { name = up, number = 0, role = upstream, buses = [0, 1, 3], memory = [\"0x1000_0000\", \"0x11FF_FFFF\"] }",
      "    { name = a, number = 1, role = downstream, buses = [1, 2, 2], memory = [\"0x1000_0000\", \"0x10FF_FFFF\"],"
          + " acs-redirect = true }",
      "    { name = b, number = 2, role = downstream, buses = [1, 3, 3], memory = [\"0x1100_0000\", \"0x11FF_FFFF\"],"
          + " acs-redirect = true }",
      "  ] } ]",
      "  endpoints = [",
      "    { id = rc, node = n1, root = true, relay = true, bars = [ { base = \"0x0\", size = \"1MiB\" } ] }",
      "    { id = epa, node = n1, bars = [ { base = \"0x1000_0000\", size = \"16MiB\" } ] }",
      "    { id = epb, node = n1, bars = [ { base = \"0x1100_0000\", size = \"16MiB\" } ] }",
      "  ]",
      "  links = [ { a = rc, b = sw.up }, { a = sw.a, b = epa }, { a = sw.b, b = epb } ]",
      "}");

  static final ActorTestKit testKit = ActorTestKit.create(ConfigFactory.parseString(
      "akka.actor.serialize-messages = on").withFallback(ConfigFactory.load()));

  @AfterAll
  static void stop() {
    testKit.shutdownTestKit();
  }

  static ActorRef<MemoryEndpoint.Command> endpoint(String id) {
    return RackLookups.endpoint(testKit, id);
  }

  @Test
  void shouldServeAPeerReadAsFourSplitReadsWhenTheTopologyRedirectsToARelayingRoot() throws Exception {
    Topology rack = TopologyLoader.parse(RACK, "relay.conf");
    testKit.spawn(RackNode.create(rack, "n1", FabricSettings.create(testKit.system().settings().config())), "rack");
    ActorRef<MemoryEndpoint.Command> epa = endpoint("epa");
    ActorRef<MemoryEndpoint.Command> epb = endpoint("epb");
    for (String id : new String[] {"rc", "epa", "epb"}) {
      RackLookups.awaitUp(testKit, endpoint(id));
    }
    byte[] data = new byte[256];
    for (int i = 0; i < data.length; i++) {
      data[i] = (byte) (255 - i);
    }
    epb.tell(new MemoryEndpoint.Store(0x1100_0100L, data));

    TestProbe<MemoryEndpoint.ReadResult> result = testKit.createTestProbe();
    epa.tell(new MemoryEndpoint.Read(0x1100_0100L, 256, result.ref()));
    MemoryEndpoint.ReadResult read = result.receiveMessage(Duration.ofSeconds(10));

    assertEquals(CompletionStatus.SUCCESSFUL, read.status());
    assertArrayEquals(data, read.data());
    TestProbe<EndpointStats> stats = testKit.createTestProbe();
    epb.tell(new MemoryEndpoint.GetStats(stats.ref()));
    assertEquals(4, stats.receiveMessage().readsServed(), "the root's 64-byte reads, not A's one 256-byte read");
  }
}
