package io.rackfabric.loadtests.harness;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import io.rackfabric.cluster.keys.RackKeys;
import io.rackfabric.loadtests.scenario.language.Network;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.cluster.topology.TopologyLoader;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.endpoint.TrafficPlan;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A rack over tls-tcp: this JVM (the driver) and two node JVMs, all with the stores of one {@code
 * rack keys} folder, form the cluster, train their link across JVMs and carry a write; each node
 * logs the others' membership.
 */
@Tag("multi-jvm")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class MultiJvmTlsRackTest {

  @TempDir
  Path tmp;

  @Test
  void shouldRunTheRackAcrossJvmsWhenEveryMemberHoldsTheRacksKeys() throws Exception {
    Path keys = tmp.resolve("keys");
    RackKeys.create(keys, false);
    Topology topology = TopologyLoader.load("bench-pair");
    Path file = tmp.resolve("bench-pair.conf");
    try (var in = getClass().getClassLoader().getResourceAsStream("topologies/bench-pair.conf")) {
      Files.writeString(file, new String(in.readAllBytes(), StandardCharsets.UTF_8));
    }
    Path runDir = Path.of("target", "multi-jvm", "tls-" + System.currentTimeMillis());
    // start() returns once every endpoint's link is DL_ACTIVE: link training crossed the JVMs over TLS.
    try (ClusterRun run = ClusterRun.start(topology, file.toString(), "tls-tcp", false, runDir, System.out, Map.of(),
        Network.LOOPBACK, false, keys.toString())) {
      byte[] data = TrafficPlan.payload(7, 64);
      run.endpoint("ep-a").tell(new MemoryEndpoint.Write(0x8000_0000L, data));
      TestProbe<byte[]> probe = TestProbe.create(run.driver());
      probe.awaitAssert(Duration.ofSeconds(20), () -> {
        byte[] stored = Asks.ask(run.driver(), run.endpoint("ep-b"),
            (ActorRef<byte[]> r) -> new MemoryEndpoint.Peek(0x8000_0000L, 64, r), Duration.ofSeconds(5));
        assertArrayEquals(data, stored);
        return null;
      });
      // node-a hears of node-b's Up by gossip, a little after the rack works: read its log until then.
      probe.awaitAssert(Duration.ofSeconds(20), () -> {
        String nodeA = Files.readString(runDir.resolve("logs").resolve("node-a.log"));
        assertTrue(nodeA.contains("up with roles [dc-default, fabric, node-b]"), nodeA);
        assertTrue(nodeA.contains("up with roles [dc-default, driver]"), nodeA);
        return null;
      });
    }
  }
}
