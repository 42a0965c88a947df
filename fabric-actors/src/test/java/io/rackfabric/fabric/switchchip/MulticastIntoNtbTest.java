package io.rackfabric.fabric.switchchip;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.endpoint.EndpointEvent;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.link.LinkParameters;
import io.rackfabric.fabric.ntb.NtbBar;
import io.rackfabric.fabric.ntb.NtbConfig;
import io.rackfabric.fabric.routing.BridgeRegisters;
import io.rackfabric.fabric.routing.MulticastGroup;
import io.rackfabric.fabric.routing.PortConfig;
import io.rackfabric.fabric.routing.PortRole;
import io.rackfabric.fabric.routing.RoutingTable;
import io.rackfabric.fabric.settings.FabricSettings;
import io.rackfabric.fabric.testing.FabricProbes;
import io.rackfabric.fabric.tlp.Bdf;
import io.rackfabric.fabric.tlp.Tlps;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Table 2's multicast notification (Ladon section 4.2): one posted write from the management host
 * reaches every compute host's mailbox. Two levels as in the Ladon rack: the MH mcMh on tor's
 * upstream port; tor's downstream port to-nt leads to the NTB chip nt, whose upstream port up and
 * NTB ports ch1..ch3 (to the hosts' roots mcCh1..mcCh3) form multicast group 5 for the window
 * below. Besides its BAR for its host's memory, each NTB port has an overlay link-side BAR over the
 * multicast window that translates into its host's mailbox page. The host links are of different
 * lengths, so each host's arrival time is its own chain of hops.
 */
class MulticastIntoNtbTest {

  static final ActorTestKit testKit = FabricProbes.dataPlaneTestKit();
  static final FabricSettings settings = FabricSettings.create(testKit.system().settings().config());
  static final LinkParameters gen3x4 = LinkParameters.gen3x4();
  static final AddressRange WINDOW = AddressRange.ofSize(0x1F00_0000L, 0x1000);
  static final long MAILBOX = 0x8_0000L;
  static final int HOSTS = 3;

  static final List<ActorRef<MemoryEndpoint.Command>> hosts = new ArrayList<>();
  static final List<LinkParameters> hostLinks = new ArrayList<>();
  static ActorRef<MemoryEndpoint.Command> mh;

  @BeforeAll
  static void buildRack() {
    AddressRange hostsAndWindow = new AddressRange(0x1000_0000L, WINDOW.limit());
    RoutingTable tor = new RoutingTable(List.of(
        new PortConfig("mh", 0, PortRole.UPSTREAM, 1, new BridgeRegisters(0, 1, 3, hostsAndWindow, null), null),
        new PortConfig("to-nt", 1, PortRole.DOWNSTREAM, 1, new BridgeRegisters(1, 2, 3, hostsAndWindow, null), null)),
        List.of());
    List<PortConfig> ntPorts = new ArrayList<>();
    ntPorts.add(new PortConfig("up", 0, PortRole.UPSTREAM, 1, new BridgeRegisters(2, 3, 3, hostsAndWindow, null), null));
    List<Integer> members = new ArrayList<>();
    List<SwitchChip.PortLink> ntLinks = new ArrayList<>();
    ntLinks.add(new SwitchChip.PortLink(0, gen3x4, "mcTor.to-nt"));
    for (int i = 1; i <= HOSTS; i++) {
      NtbBar memory = new NtbBar(AddressRange.ofSize(0x1000_0000L + (i - 1) * 0x100_0000L, 0x100_0000L), 0x0L);
      NtbBar overlay = new NtbBar(WINDOW, MAILBOX);
      ntPorts.add(new PortConfig("ch" + i, i, PortRole.NTB, 1, null,
          new NtbConfig(Bdf.of(1, 0, 0), List.of(memory, overlay), List.of())));
      members.add(i);
      LinkParameters cable = new LinkParameters(3, 4, 5 + 40 * i);
      hostLinks.add(cable);
      ntLinks.add(new SwitchChip.PortLink(i, cable, "mcCh" + i));
    }
    RoutingTable nt = new RoutingTable(ntPorts, List.of(new MulticastGroup(5, WINDOW, members)));
    testKit.spawn(SwitchChip.create("mcTor", tor, List.of(
        new SwitchChip.PortLink(0, gen3x4, "mcMh"), new SwitchChip.PortLink(1, gen3x4, "mcNt.up")), settings), "mcTor");
    testKit.spawn(SwitchChip.create("mcNt", nt, ntLinks, settings), "mcNt");
    mh = testKit.spawn(MemoryEndpoint.create("mcMh", Bdf.of(0, 0, 0), true,
        List.of(new AddressRange(0, 0xF_FFFFL)), gen3x4, "mcTor.mh", settings), "mcMh");
    for (int i = 1; i <= HOSTS; i++) {
      hosts.add(testKit.spawn(MemoryEndpoint.create("mcCh" + i, Bdf.of(0, 0, 0), true,
          List.of(new AddressRange(0, 0xF_FFFFL)), hostLinks.get(i - 1), "mcNt.ch" + i, settings), "mcCh" + i));
    }
    FabricProbes.awaitActive(testKit, mh);
    hosts.forEach(h -> FabricProbes.awaitActive(testKit, h));
  }

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  /** Header (3DW, 32-bit address), payload and link overhead of a posted write. */
  static int wireBytes(int payload) {
    return 12 + payload + Tlps.LINK_OVERHEAD_BYTES;
  }

  @Test
  void shouldLandInEveryHostsMailboxWhenTheRootPostsOneWriteToTheMulticastWindow() {
    TestProbe<EndpointEvent> mailboxes = testKit.createTestProbe();
    for (ActorRef<MemoryEndpoint.Command> h : hosts) {
      h.tell(new MemoryEndpoint.Watch(AddressRange.ofSize(MAILBOX, 0x1000), mailboxes.ref()));
    }
    long sentBefore = FabricProbes.stats(testKit, mh).writesSent();
    byte[] notice = {0x4C, 0x41, 0x44, 0x4E}; // one 4-byte mailbox word
    // Far ahead of any clock in the rack, so no earlier traffic delays it in model time.
    long at = 1_000_000_000L;
    mh.tell(new MemoryEndpoint.Write(WINDOW.base() + 4, notice, at));

    long[] arrivals = new long[HOSTS];
    for (int n = 0; n < HOSTS; n++) {
      EndpointEvent.MemoryWritten w = (EndpointEvent.MemoryWritten) mailboxes.receiveMessage(Duration.ofSeconds(5));
      int i = Integer.parseInt(w.endpoint().substring("mcCh".length())) - 1;
      assertEquals(MAILBOX + 4, w.address(), w.endpoint());
      assertArrayEquals(notice, w.data(), w.endpoint());
      assertEquals(Bdf.of(1, 0, 0), w.requester(), "the MH as the NTB's virtual side proxies it");
      arrivals[i] = w.arrivedAt();
    }
    mailboxes.expectNoMessage(Duration.ofMillis(100));
    assertEquals(sentBefore + 1, FabricProbes.stats(testKit, mh).writesSent(), "one write from the root");

    // Each host's arrival is the chain MH link, tor, tor-nt link, nt out through its NTB port, its
    // own cable.
    long common = gen3x4.flightNs(wireBytes(4)) + settings.switchLatencyNs() + gen3x4.flightNs(wireBytes(4))
        + settings.ntbLatencyNs();
    for (int i = 0; i < HOSTS; i++) {
      assertEquals(common + hostLinks.get(i).flightNs(wireBytes(4)), arrivals[i] - at, "mcCh" + (i + 1));
    }
    assertTrue(arrivals[0] < arrivals[1] && arrivals[1] < arrivals[2], "longer cables arrive later");
  }

  @Test
  void shouldStillReachEachHostsMemoryWhenWrittenThroughItsOwnBar() {
    byte[] data = {9, 8, 7, 6};
    for (int i = 0; i < HOSTS; i++) {
      mh.tell(new MemoryEndpoint.Write(0x1000_0000L + i * 0x100_0000L + 0x200, data));
    }
    for (ActorRef<MemoryEndpoint.Command> h : hosts) {
      FabricProbes.awaitData(testKit, h, 0x200, data);
    }
  }
}
