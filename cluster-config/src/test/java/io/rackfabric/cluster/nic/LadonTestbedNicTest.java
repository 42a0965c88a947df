package io.rackfabric.cluster.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import akka.actor.typed.receptionist.Receptionist;
import akka.actor.typed.receptionist.ServiceKey;
import com.typesafe.config.ConfigFactory;
import io.rackfabric.cluster.node.ComponentKeys;
import io.rackfabric.cluster.node.RackNode;
import io.rackfabric.cluster.topology.EndpointSpec;
import io.rackfabric.cluster.topology.NodeSpec;
import io.rackfabric.cluster.topology.RouteExplainer;
import io.rackfabric.cluster.topology.RouteExplanation;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.cluster.topology.TopologyLoader;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.link.DataLinkState;
import io.rackfabric.fabric.link.LinkParameters;
import io.rackfabric.fabric.settings.FabricSettings;
import io.rackfabric.fabric.stats.EndpointStats;
import io.rackfabric.fabric.tlp.Tlps;
import io.rackfabric.host.memory.GlobalMemoryLayout;
import io.rackfabric.host.memory.Plane;
import io.rackfabric.host.nic.EthernetLink;
import io.rackfabric.host.nic.ExternalReceiver;
import io.rackfabric.host.nic.NicSettings;
import io.rackfabric.host.nic.NicStats;
import io.rackfabric.host.nic.ReceiverReport;
import io.rackfabric.host.nic.StreamSummary;
import io.rackfabric.host.nic.RegisterMap;
import io.rackfabric.host.nic.RequesterMatch;
import io.rackfabric.host.nic.SendPlan;
import io.rackfabric.host.nic.SriovNic;
import io.rackfabric.host.nic.UdpFrames;
import io.rackfabric.host.nic.UdpSender;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Section 5.2 of Ladon on the bundled ladon-testbed rack, every node's components in one JVM:
 * the MMH assigns VF 0 of the NIC on the switch's TB port to CH1, CH1 sends 64-byte UDP packets
 * every millisecond of model time through it (doorbells through its primary NTB, descriptor and
 * packet reads back through the same NTB into its memory), and the fifth server receives them.
 * The NIC's device logic and the fifth server are the ones the node running the NIC starts.
 */
class LadonTestbedNicTest {

  static final ActorTestKit testKit = ActorTestKit.create(ConfigFactory.parseString(
      "akka.actor.serialize-messages = on").withFallback(ConfigFactory.load()));
  static final FabricSettings FABRIC = FabricSettings.create(testKit.system().settings().config());
  static final NicSettings NIC = NicSettings.create(testKit.system().settings().config());
  static final int COUNT = 20;
  /** Where CH1's driver keeps its ring and buffers, in its own memory. */
  static final long CH1_AREA = 0x20_0000L;

  static Topology topology;
  static GlobalMemoryLayout layout;
  static RegisterMap map;
  static ActorRef<SriovNic.Command> nic;
  static ActorRef<ExternalReceiver.Command> receiver;

  @BeforeAll
  static void startRack() throws Exception {
    topology = TopologyLoader.load("ladon-testbed");
    layout = topology.globalMemory().orElseThrow();
    for (NodeSpec node : topology.nodes()) {
      testKit.spawn(RackNode.create(topology, node.name(), FABRIC), "rack-" + node.name());
    }
    EndpointSpec nicSpec = topology.endpoint("nic").orElseThrow();
    map = RegisterMap.of(nicSpec.bars(), NIC);
    // The node that runs the NIC's endpoint runs its device logic and the server behind its wire.
    receiver = find(ComponentKeys.nicReceiver("nic"));
    nic = find(ComponentKeys.nic("nic"));
    for (String id : List.of("mmh", "nic", "ch1", "ch2")) {
      awaitUp(endpoint(id));
    }
  }

  @AfterAll
  static void stop() {
    testKit.shutdownTestKit();
  }

  static ActorRef<MemoryEndpoint.Command> endpoint(String id) {
    return find(ComponentKeys.endpoint(id));
  }

  static <T> ActorRef<T> find(ServiceKey<T> key) {
    TestProbe<Receptionist.Listing> probe = testKit.createTestProbe();
    return probe.awaitAssert(Duration.ofSeconds(10), () -> {
      testKit.system().receptionist().tell(Receptionist.find(key, probe.ref()));
      var refs = probe.receiveMessage().getServiceInstances(key);
      assertEquals(1, refs.size(), key.id() + " registered");
      return refs.iterator().next();
    });
  }

  static void awaitUp(ActorRef<MemoryEndpoint.Command> ep) {
    TestProbe<EndpointStats> probe = testKit.createTestProbe();
    probe.awaitAssert(Duration.ofSeconds(10), () -> {
      ep.tell(new MemoryEndpoint.GetStats(probe.ref()));
      assertEquals(DataLinkState.DL_ACTIVE, probe.receiveMessage().link().state());
      return null;
    });
  }

  static NicStats awaitNic(java.util.function.Consumer<NicStats> check) {
    TestProbe<NicStats> probe = testKit.createTestProbe();
    return probe.awaitAssert(Duration.ofSeconds(10), () -> {
      nic.tell(new SriovNic.GetStats(probe.ref()));
      NicStats s = probe.receiveMessage();
      check.accept(s);
      return s;
    });
  }

  /** VF k's tail doorbell as compute host {@code ch} addresses it: through its primary NTB. */
  static long doorbellFrom(int ch, int vf) {
    return layout.chAddress(ch, 0, map.vfBar(vf) + RegisterMap.TDT, Plane.PRIMARY);
  }

  @Test
  void shouldCarryEveryPacketOnceInOrderOneMillisecondApartWhenCh1SendsThroughItsVf() {
    // The requester ID CH1's writes arrive under at the NIC: its primary NTB port's proxy ID.
    RouteExplainer routes = new RouteExplainer(topology);
    RouteExplanation bell = routes.explain("ch1", doorbellFrom(1, 0), false);
    assertEquals("nic", bell.outcome().component(), bell.toText());
    int ch1AtNic = bell.hops().get(bell.hops().size() - 1).requester();
    // Where the NIC reaches CH1's memory: CH1's range in the MMH's PMS1.
    long dmaOffset = layout.mhAddress(1, 0, Plane.PRIMARY);
    RouteExplanation dma = routes.explain("nic", dmaOffset + CH1_AREA, true);
    assertEquals("ch1", dma.outcome().component(), dma.toText());
    assertEquals(CH1_AREA, dma.outcome().address());

    // The MMH's PF driver assigns VF 0 to CH1: one posted write into the PF registers.
    RegisterMap.Poke assign = map.assignVf(0, RequesterMatch.throughNtb(ch1AtNic), RequesterMatch.NONE);
    endpoint("mmh").tell(new MemoryEndpoint.Write(assign.address(), assign.data()));
    NicStats assigned = awaitNic(s -> assertTrue(s.vf(0).enabled(), "VF 0 enabled"));
    long start = assigned.vf(0).assignedAt();
    assertTrue(start > 0, "assigned at a model time after the write crossed the fabric");

    ActorRef<UdpSender.Command> sender = testKit.spawn(
        UdpSender.create("ch1-udp", endpoint("ch1"), NIC, FABRIC.tdf()), "ch1-udp");
    TestProbe<UdpSender.SendDone> done = testKit.createTestProbe();
    sender.tell(new UdpSender.Start(
        SendPlan.of(NIC, 0, layout.chAddress(1, 0, map.vfBar(0), Plane.PRIMARY), dmaOffset, CH1_AREA, COUNT, start),
        done.ref()));
    UdpSender.SendDone sent = done.receiveMessage(Duration.ofSeconds(60));
    assertEquals("", sent.error());
    assertEquals(COUNT, sent.completed());

    TestProbe<ExternalReceiver.FramesReached> reached = testKit.createTestProbe();
    receiver.tell(new ExternalReceiver.AwaitFrames(COUNT, reached.ref()));
    reached.receiveMessage(Duration.ofSeconds(10));
    TestProbe<ReceiverReport> reportProbe = testKit.createTestProbe();
    receiver.tell(new ExternalReceiver.GetReport(reportProbe.ref()));
    ReceiverReport report = reportProbe.receiveMessage();

    TestProbe<StreamSummary> streamProbe = testKit.createTestProbe();
    receiver.tell(new ExternalReceiver.GetStream(0, COUNT, streamProbe.ref()));
    StreamSummary stream = streamProbe.receiveMessage();

    // All arrive, once, in order, from VF 0.
    assertEquals(COUNT, report.frames());
    assertEquals(0, report.duplicates());
    assertEquals(0, report.outOfOrder());
    assertEquals(List.of(0), report.sources());
    assertEquals(COUNT, stream.uniqueBelowDue());
    // Inter-arrival times are the sender's interval: the rack adds the same delay to every packet.
    assertEquals(COUNT - 1, stream.model().gapCount());
    assertEquals(NIC.senderIntervalNs(), stream.model().gapMin());
    assertEquals(NIC.senderIntervalNs(), stream.model().gapMax());

    // One-way latency: the doorbell's path, two read round trips from the NIC to CH1's memory,
    // the firmware's service times and the 10 GbE wire, each from its own parameter. Link flights
    // lie between bare propagation and the largest TLP's serialization on every link.
    int switches = (int) bell.hops().stream().filter(h -> h.in() != null).count();
    int ntbs = bell.hops().stream().mapToInt(h -> h.translations().size()).sum();
    int links = switches + 1;
    // A chip crossed through an NTB port takes the NTB's latency instead of the switch's.
    long oneWay = (switches - ntbs) * FABRIC.switchLatencyNs() + ntbs * FABRIC.ntbLatencyNs();
    long fixed = 5 * oneWay + 2 * FABRIC.completionLatencyNs()
        + NIC.doorbellProcessingNs() + NIC.descriptorProcessingNs() + NIC.txLatencyNs()
        + new EthernetLink(NIC.linkRateBitsPerSecond(), NIC.propagationNs())
            .transmit(UdpFrames.HEADERS + NIC.senderPayload(), 0).arrivesAt();
    LinkParameters link = LinkParameters.gen3x4(); // every link of the testbed
    int largestTlp = 16 + UdpFrames.HEADERS + NIC.senderPayload() + Tlps.LINK_OVERHEAD_BYTES;
    long low = fixed + 5L * links * link.propagationNs();
    long high = fixed + 5L * links * link.flightNs(largestTlp);
    assertTrue(stream.latencyMin() > low && stream.latencyMax() <= high,
        "latency " + stream.latencyMin() + " to " + stream.latencyMax() + " ns not in (" + low + ", " + high + "]");
    assertEquals(stream.latencyMin(), stream.latencyMax(), "one latency for every packet");

    NicStats s = awaitNic(x -> assertEquals(COUNT, x.frames()));
    assertEquals(COUNT, s.vf(0).doorbells());
    assertEquals(0, s.vf(0).foreignDoorbells());

    // CH2 rings CH1's VF: it reaches the NIC, which ignores and counts it.
    endpoint("ch2").tell(new MemoryEndpoint.Write(doorbellFrom(2, 0), RegisterMap.tail(1)));
    NicStats after = awaitNic(x -> assertEquals(1, x.vf(0).foreignDoorbells()));
    assertEquals(COUNT, after.vf(0).doorbells());
    assertEquals(COUNT, after.frames());
    receiver.tell(new ExternalReceiver.GetReport(reportProbe.ref()));
    assertEquals(COUNT, reportProbe.receiveMessage().frames());
  }
}
