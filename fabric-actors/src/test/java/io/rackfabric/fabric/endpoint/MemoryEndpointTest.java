package io.rackfabric.fabric.endpoint;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.port.LinkPort;
import io.rackfabric.fabric.config.ConfigSpace;
import io.rackfabric.fabric.link.LinkParameters;
import io.rackfabric.fabric.settings.FabricSettings;
import io.rackfabric.fabric.stats.EndpointStats;
import io.rackfabric.fabric.testing.FabricProbes;
import io.rackfabric.fabric.tlp.Bdf;
import io.rackfabric.fabric.tlp.CompletionStatus;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Memory endpoints on a bare link: the root meRc and the endpoint meEp (bus 1, two BARs) face
 * each other with no switch between them, so every answer is the endpoint's own.
 */
class MemoryEndpointTest {

  static final ActorTestKit testKit = FabricProbes.dataPlaneTestKit();
  static final FabricSettings settings = FabricSettings.create(testKit.system().settings().config());
  static final LinkParameters gen3x4 = LinkParameters.gen3x4();
  static final int EP_BDF = Bdf.of(1, 0, 0);
  static final AddressRange BAR0 = new AddressRange(0x4000_0000L, 0x400F_FFFFL);
  static final AddressRange BAR1 = new AddressRange(0x1_0000_0000L, 0x1_0000_FFFFL);

  static ActorRef<MemoryEndpoint.Command> rc;
  static ActorRef<MemoryEndpoint.Command> ep;

  @BeforeAll
  static void buildLink() {
    rc = testKit.spawn(MemoryEndpoint.create("meRc", Bdf.of(0, 0, 0), true,
        List.of(new AddressRange(0, 0xF_FFFFL)), gen3x4, "meEp", settings), "meRc");
    ep = testKit.spawn(MemoryEndpoint.create("meEp", EP_BDF, false, List.of(BAR0, BAR1), gen3x4, "meRc", settings),
        "meEp");
    awaitActive(rc);
    awaitActive(ep);
  }

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  static void awaitActive(ActorRef<MemoryEndpoint.Command> endpoint) {
    FabricProbes.awaitActive(testKit, endpoint);
  }

  static EndpointStats stats(ActorRef<MemoryEndpoint.Command> endpoint) {
    return FabricProbes.stats(testKit, endpoint);
  }

  static MemoryEndpoint.ConfigResult config(int register, Integer value) {
    TestProbe<MemoryEndpoint.ConfigResult> probe = testKit.createTestProbe();
    rc.tell(new MemoryEndpoint.ConfigRequest(EP_BDF, 0, register, value, probe.ref()));
    return probe.receiveMessage();
  }

  @Test
  void shouldAnswerEmulatedVendorAndDeviceWhenRootReadsIdRegisterWithType0() {
    MemoryEndpoint.ConfigResult id = config(ConfigSpace.REG_ID, null);
    assertEquals(CompletionStatus.SUCCESSFUL, id.status());
    assertEquals(ConfigSpace.VENDOR_EMULATED, id.value() & 0xFFFF);
    assertEquals(ConfigSpace.DEVICE_MEMORY, id.value() >>> 16);
    assertEquals(0x050000 << 8, config(ConfigSpace.REG_CLASS, null).value(), "memory controller class");
    // 64-bit BARs: low dword with the 64-bit type bits, then the high dword.
    assertEquals(0x4000_0004, config(ConfigSpace.REG_BAR0, null).value());
    assertEquals(0, config(ConfigSpace.REG_BAR0 + 1, null).value());
    assertEquals(0x0000_0004, config(ConfigSpace.REG_BAR0 + 2, null).value());
    assertEquals(1, config(ConfigSpace.REG_BAR0 + 3, null).value());
    MemoryEndpoint.ConfigResult write = config(ConfigSpace.REG_COMMAND, 0x6);
    assertEquals(CompletionStatus.SUCCESSFUL, write.status());
    long floor = gen3x4.flightNs(12 + 4 + 8) + settings.completionLatencyNs() + gen3x4.flightNs(12 + 8);
    assertTrue(write.latencyNs() >= floor,
        "request with 4 bytes of data one way, completion without data back: " + write.latencyNs() + " ns");
  }

  @Test
  void shouldReturnSizeMaskAndDecodeNewAddressWhenRootSizesAndMovesBar() {
    int low = ConfigSpace.REG_BAR0 + 2; // BAR1: 64 KiB at 4 GiB
    config(low, 0xFFFF_FFFF);
    config(low + 1, 0xFFFF_FFFF);
    assertEquals(0xFFFF_0004, config(low, null).value());
    assertEquals(0xFFFF_FFFF, config(low + 1, null).value());
    try {
      config(low, 0x2000_0000);
      config(low + 1, 0x2);
      assertEquals(0x2000_0004, config(low, null).value());
      assertEquals(2, config(low + 1, null).value());
      byte[] data = {9, 8, 7, 6};
      rc.tell(new MemoryEndpoint.Write(0x2_2000_0010L, data));
      TestProbe<MemoryEndpoint.ReadResult> probe = testKit.createTestProbe();
      rc.tell(new MemoryEndpoint.Read(0x2_2000_0010L, 4, probe.ref()));
      MemoryEndpoint.ReadResult moved = probe.receiveMessage();
      assertEquals(CompletionStatus.SUCCESSFUL, moved.status());
      assertArrayEquals(data, moved.data());
      rc.tell(new MemoryEndpoint.Read(0x1_0000_0010L, 4, probe.ref()));
      assertEquals(CompletionStatus.UNSUPPORTED_REQUEST, probe.receiveMessage().status(), "old address");
    } finally {
      config(low, 0);
      config(low + 1, 1);
    }
    assertEquals(0x0000_0004, config(low, null).value());
  }

  @Test
  void shouldAnswerUnsupportedRequestAndCountWhenReadMissesEveryBar() {
    long outside = stats(ep).outsideBars();
    long failed = stats(rc).readsFailed();
    TestProbe<MemoryEndpoint.ReadResult> probe = testKit.createTestProbe();
    rc.tell(new MemoryEndpoint.Read(0x4010_0000L, 4, probe.ref()));
    assertEquals(CompletionStatus.UNSUPPORTED_REQUEST, probe.receiveMessage().status());
    // Straddling the end of a BAR is outside it too.
    rc.tell(new MemoryEndpoint.Read(0x400F_FFFEL, 4, probe.ref()));
    MemoryEndpoint.ReadResult straddle = probe.receiveMessage();
    assertEquals(CompletionStatus.UNSUPPORTED_REQUEST, straddle.status());
    assertNull(straddle.data());
    assertEquals(outside + 2, stats(ep).outsideBars());
    assertEquals(failed + 2, stats(rc).readsFailed());
  }

  @Test
  void shouldRefuseReadAsAndDropWriteAsWhenTheRequesterIsNoSixteenBitId() {
    long address = BAR0.base() + 0x8000;
    long sentBefore = stats(rc).writesSent();
    TestProbe<MemoryEndpoint.ReadResult> probe = testKit.createTestProbe();
    rc.tell(new MemoryEndpoint.ReadAs(0x1_0000, address, 4, probe.ref()));
    assertEquals(CompletionStatus.COMPLETER_ABORT, probe.receiveMessage().status());

    rc.tell(new MemoryEndpoint.WriteAs(-1, address, new byte[] {1, 2, 3, 4}));
    rc.tell(new MemoryEndpoint.Read(address, 4, probe.ref())); // a read passes no posted write
    assertArrayEquals(new byte[4], probe.receiveMessage().data(), "nothing was written");
    assertEquals(sentBefore, stats(rc).writesSent());
  }

  @Test
  void shouldStoreWriteInSecondBarAbove4GiBAndReadItBack() {
    byte[] data = {0x11, 0x22, 0x33, 0x44, 0x55};
    rc.tell(new MemoryEndpoint.Write(0x1_0000_0100L, data));
    TestProbe<MemoryEndpoint.ReadResult> probe = testKit.createTestProbe();
    probe.awaitAssert(() -> {
      rc.tell(new MemoryEndpoint.Read(0x1_0000_0100L, 5, probe.ref()));
      assertArrayEquals(data, probe.receiveMessage().data());
      return null;
    });
  }

  @Test
  void shouldLetAPeerReadWhatTheHostStoredWithoutTellingWatchersWhenStoredLocally() {
    TestProbe<EndpointEvent> watcher = testKit.createTestProbe();
    ep.tell(new MemoryEndpoint.Watch(new AddressRange(0x4009_0000L, 0x4009_0FFFL), watcher.ref()));
    long outside = stats(ep).outsideBars();
    byte[] data = {7, 6, 5, 4, 3, 2, 1};
    ep.tell(new MemoryEndpoint.Store(0x4009_0010L, data));
    ep.tell(new MemoryEndpoint.Store(0x7000_0000L, data)); // in no BAR: dropped and counted
    TestProbe<MemoryEndpoint.ReadResult> probe = testKit.createTestProbe();
    rc.tell(new MemoryEndpoint.Read(0x4009_0010L, data.length, probe.ref()));
    assertArrayEquals(data, probe.receiveMessage().data(), "the peer reads the stored bytes");
    assertEquals(outside + 1, stats(ep).outsideBars());
    watcher.expectNoMessage(Duration.ofMillis(200));
  }

  @Test
  void shouldReplyToAwaitWritesAtOnceWhenReachedAndOnlyOnceReachedOtherwise() {
    long start = stats(ep).uniqueWrites();
    TestProbe<MemoryEndpoint.WritesReached> first = testKit.createTestProbe();
    TestProbe<MemoryEndpoint.WritesReached> second = testKit.createTestProbe();
    ep.tell(new MemoryEndpoint.AwaitWrites(start + 1, first.ref()));
    ep.tell(new MemoryEndpoint.AwaitWrites(start + 2, second.ref()));
    stats(ep); // processed after both: a premature reply would already be in the probes
    first.expectNoMessage(Duration.ofMillis(20));
    second.expectNoMessage(Duration.ofMillis(20));

    rc.tell(new MemoryEndpoint.Write(0x4000_1000L, new byte[] {1}));
    MemoryEndpoint.WritesReached one = first.receiveMessage();
    assertEquals("meEp", one.id());
    assertEquals(start + 1, one.uniqueWrites());
    stats(ep);
    second.expectNoMessage(Duration.ofMillis(20));

    rc.tell(new MemoryEndpoint.Write(0x4000_1001L, new byte[] {2}));
    assertEquals(start + 2, second.receiveMessage().uniqueWrites());

    // Already reached: answered at once, with the count so far; exactly once.
    TestProbe<MemoryEndpoint.WritesReached> late = testKit.createTestProbe();
    ep.tell(new MemoryEndpoint.AwaitWrites(start + 1, late.ref()));
    assertEquals(start + 2, late.receiveMessage().uniqueWrites());
    rc.tell(new MemoryEndpoint.Write(0x4000_1002L, new byte[] {3}));
    ep.tell(new MemoryEndpoint.AwaitWrites(start + 3, late.ref()));
    assertEquals(start + 3, late.receiveMessage().uniqueWrites());
    late.expectNoMessage(Duration.ofMillis(20));
    first.expectNoMessage(Duration.ofMillis(1));
  }

  @Test
  void shouldRefuseSecondTrafficJobWhenOneIsRunningAndFinishTheFirst() {
    // The source's partner does not exist yet, so its first job cannot finish before the second.
    ActorRef<MemoryEndpoint.Command> src = testKit.spawn(MemoryEndpoint.create("meSrc", Bdf.of(0, 0, 0), true,
        List.of(new AddressRange(0, 0xF_FFFFL)), gen3x4, "meSink", settings), "meSrc");
    TestProbe<MemoryEndpoint.TrafficDone> firstDone = testKit.createTestProbe();
    TestProbe<MemoryEndpoint.TrafficDone> secondDone = testKit.createTestProbe();
    src.tell(new MemoryEndpoint.StartTraffic(new TrafficPlan(0x4000_0000L, 0x1000, 64, 100, 10, false, false),
        firstDone.ref()));
    src.tell(new MemoryEndpoint.StartTraffic(new TrafficPlan(0x4000_0000L, 0x1000, 64, 7, 10, false, false),
        secondDone.ref()));
    MemoryEndpoint.TrafficDone refused = secondDone.receiveMessage();
    assertEquals("meSrc", refused.id());
    assertEquals(0, refused.sent());
    assertEquals(7, refused.failed());
    firstDone.expectNoMessage(Duration.ofMillis(20));

    ActorRef<MemoryEndpoint.Command> sink = testKit.spawn(MemoryEndpoint.create("meSink", Bdf.of(1, 0, 0), false,
        List.of(BAR0), gen3x4, "meSrc", settings), "meSink");
    MemoryEndpoint.TrafficDone done = firstDone.receiveMessage(Duration.ofSeconds(10));
    assertEquals(100, done.sent());
    assertEquals(0, done.failed());
    TestProbe<MemoryEndpoint.WritesReached> reached = testKit.createTestProbe();
    sink.tell(new MemoryEndpoint.AwaitWrites(100, reached.ref()));
    assertEquals(100, reached.receiveMessage().uniqueWrites());
    secondDone.expectNoMessage(Duration.ofMillis(20));

    // With the first job over, a new one is accepted.
    src.tell(new MemoryEndpoint.StartTraffic(new TrafficPlan(0x4000_0000L, 0x1000, 64, 5, 10, false, false),
        secondDone.ref()));
    assertEquals(5, secondDone.receiveMessage().sent());
    testKit.stop(src);
    testKit.stop(sink);
  }

  @Test
  void shouldAnswerReadAndConfigRequestWithErrorWhenLinkIsDown() {
    // A partner that never appears: the link never comes up.
    ActorRef<MemoryEndpoint.Command> alone = testKit.spawn(MemoryEndpoint.create("meAlone", Bdf.of(0, 0, 0), true,
        List.of(new AddressRange(0, 0xF_FFFFL)), gen3x4, "meNobody", settings), "meAlone");
    TestProbe<MemoryEndpoint.ReadResult> read = testKit.createTestProbe();
    alone.tell(new MemoryEndpoint.Read(0x4000_0000L, 4, read.ref()));
    assertNotEquals(CompletionStatus.SUCCESSFUL, read.receiveMessage().status());
    TestProbe<MemoryEndpoint.ConfigResult> cfg = testKit.createTestProbe();
    alone.tell(new MemoryEndpoint.ConfigRequest(EP_BDF, 0, ConfigSpace.REG_ID, null, cfg.ref()));
    assertNotEquals(CompletionStatus.SUCCESSFUL, cfg.receiveMessage().status());
    // The tags were given back: far more reads than there are tags are all answered.
    for (int i = 0; i < 300; i++) {
      alone.tell(new MemoryEndpoint.Read(0x4000_0000L, 4, read.ref()));
    }
    for (int i = 0; i < 300; i++) {
      assertEquals(CompletionStatus.UNSUPPORTED_REQUEST, read.receiveMessage().status());
    }
    testKit.stop(alone);
  }

  @Test
  void shouldReportWriteIntoWatchedRangeWithItsModelArrivalTimeWhenWatched() {
    TestProbe<EndpointEvent> watcher = testKit.createTestProbe();
    AddressRange mailbox = new AddressRange(0x4008_0000L, 0x4008_0003L);
    ep.tell(new MemoryEndpoint.Watch(mailbox, watcher.ref()));
    // A write beside the mailbox is not reported; one into it is, at issue time + one link flight.
    long at = 1_000_000;
    rc.tell(new MemoryEndpoint.Write(0x4008_1000L, new byte[] {9, 9, 9, 9}, at));
    rc.tell(new MemoryEndpoint.Write(0x4008_0000L, new byte[] {1, 2, 3, 4}, at + 5_000));
    EndpointEvent.MemoryWritten w = (EndpointEvent.MemoryWritten) watcher.receiveMessage();
    assertEquals(0x4008_0000L, w.address());
    assertEquals("meEp", w.endpoint());
    assertEquals(Bdf.of(0, 0, 0), w.requester());
    assertEquals(at + 5_000 + gen3x4.flightNs(12 + 4 + 8), w.arrivedAt(),
        "issued at its model time, arrived one link flight later");
    watcher.expectNoMessage(Duration.ofMillis(200));
  }

  @Test
  void shouldReportItsOwnLinkGoingDownToErrorWatchersWhenRoot() {
    TestProbe<EndpointEvent> watcher = testKit.createTestProbe();
    rc.tell(new MemoryEndpoint.WatchErrors(watcher.ref()));
    LinkPort.of(ep).tell(new LinkPort.SetLink(false, 7_000_000, testKit.system()));
    EndpointEvent.ErrorReported e = (EndpointEvent.ErrorReported) watcher.receiveMessage(Duration.ofSeconds(5));
    assertEquals("meRc", e.endpoint());
    assertEquals("SURPRISE_DOWN", e.error().cause());
    assertTrue(e.error().modelAt() >= 7_000_000, "not before the fault: " + e.error().modelAt());
    LinkPort.of(ep).tell(new LinkPort.SetLink(true, 7_000_000, testKit.system()));
    awaitActive(rc);
    awaitActive(ep);
  }
}
