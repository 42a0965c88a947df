package io.rackfabric.fabric.endpoint;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.link.LinkParameters;
import io.rackfabric.fabric.settings.FabricSettings;
import io.rackfabric.fabric.stats.EndpointStats;
import io.rackfabric.fabric.testing.FabricProbes;
import io.rackfabric.fabric.tlp.Bdf;
import io.rackfabric.fabric.tlp.CompletionStatus;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A root's gated BAR windows on a bare link: the root hwRc reaches the endpoint hwEp's BAR, part of
 * which is a lent device's window, closed until the device is hot-added.
 */
class GatedBarWindowsTest {

  static final ActorTestKit testKit = FabricProbes.dataPlaneTestKit();
  static final FabricSettings settings = FabricSettings.create(testKit.system().settings().config());
  static final AddressRange BAR = new AddressRange(0x4000_0000L, 0x400F_FFFFL);
  static final AddressRange WINDOW = AddressRange.ofSize(0x4000_0000L, 0x1_0000);
  static final long OUTSIDE = 0x4008_0000L;

  static ActorRef<MemoryEndpoint.Command> rc;
  static ActorRef<MemoryEndpoint.Command> ep;

  @BeforeAll
  static void buildLink() {
    LinkParameters gen3x4 = LinkParameters.gen3x4();
    rc = testKit.spawn(MemoryEndpoint.create("hwRc", Bdf.of(0, 0, 0), true,
        List.of(new AddressRange(0, 0xF_FFFFL)), gen3x4, "hwEp", settings), "hwRc");
    ep = testKit.spawn(MemoryEndpoint.create("hwEp", Bdf.of(1, 0, 0), false, List.of(BAR), gen3x4,
        "hwRc", settings, InboundAccessCheck.allowAll()), "hwEp");
    FabricProbes.awaitActive(testKit, rc);
    FabricProbes.awaitActive(testKit, ep);
  }

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  static MemoryEndpoint.BarWindowsChanged change(
      Function<akka.actor.typed.ActorRef<MemoryEndpoint.BarWindowsChanged>, MemoryEndpoint.Command> msg) {
    TestProbe<MemoryEndpoint.BarWindowsChanged> probe = testKit.createTestProbe();
    rc.tell(msg.apply(probe.ref()));
    return probe.receiveMessage();
  }

  static MemoryEndpoint.ReadResult read(long address) {
    TestProbe<MemoryEndpoint.ReadResult> probe = testKit.createTestProbe();
    rc.tell(new MemoryEndpoint.Read(address, 4, probe.ref()));
    return probe.receiveMessage();
  }

  @Test
  void shouldReachTheDeviceOnlyBetweenItsHotAddAndHotRemoveWhenItsWindowsAreGated() {
    MemoryEndpoint.BarWindowsChanged gated = change(r -> new MemoryEndpoint.GateBarWindows("gpu1", List.of(WINDOW), r));
    assertTrue(gated.accepted(), gated.detail());

    // Closed: the write never leaves the root, the read ends in a master abort.
    rc.tell(new MemoryEndpoint.Write(WINDOW.base(), new byte[] {1, 1, 1, 1}));
    assertEquals(CompletionStatus.UNSUPPORTED_REQUEST, read(WINDOW.base()).status());
    // Outside the window everything goes; writes on one link keep their order, so once this one
    // has landed the refused one would have too.
    rc.tell(new MemoryEndpoint.Write(OUTSIDE, new byte[] {9, 9, 9, 9}));
    FabricProbes.awaitData(testKit, ep, OUTSIDE, new byte[] {9, 9, 9, 9});
    assertArrayEquals(new byte[4], FabricProbes.peek(testKit, ep, WINDOW.base(), 4), "the refused write never came");

    assertTrue(change(r -> new MemoryEndpoint.HotAdd("gpu1", r)).accepted());
    rc.tell(new MemoryEndpoint.Write(WINDOW.base(), new byte[] {2, 2, 2, 2}));
    FabricProbes.awaitData(testKit, ep, WINDOW.base(), new byte[] {2, 2, 2, 2});
    MemoryEndpoint.ReadResult open = read(WINDOW.base());
    assertEquals(CompletionStatus.SUCCESSFUL, open.status());
    assertArrayEquals(new byte[] {2, 2, 2, 2}, open.data());

    assertTrue(change(r -> new MemoryEndpoint.HotRemove("gpu1", r)).accepted());
    rc.tell(new MemoryEndpoint.Write(WINDOW.base(), new byte[] {3, 3, 3, 3}));
    assertEquals(CompletionStatus.UNSUPPORTED_REQUEST, read(WINDOW.base() + 4).status());
    rc.tell(new MemoryEndpoint.Write(OUTSIDE, new byte[] {8, 8, 8, 8}));
    FabricProbes.awaitData(testKit, ep, OUTSIDE, new byte[] {8, 8, 8, 8});
    assertArrayEquals(new byte[] {2, 2, 2, 2}, FabricProbes.peek(testKit, ep, WINDOW.base(), 4));

    EndpointStats s = FabricProbes.stats(testKit, rc);
    assertEquals(new EndpointStats.BarWindowRefusal("gpu1", false, 2, 2), s.barWindow("gpu1"));
  }

  @Test
  void shouldRefuseAndNameTheDeviceWhenAHotAddNamesADeviceWithoutGatedWindows() {
    MemoryEndpoint.BarWindowsChanged refused = change(r -> new MemoryEndpoint.HotAdd("disk9", r));
    assertFalse(refused.accepted());
    assertEquals("device=disk9 has no gated BAR window here", refused.detail());
    assertEquals("hwRc", refused.endpoint());
  }
}
