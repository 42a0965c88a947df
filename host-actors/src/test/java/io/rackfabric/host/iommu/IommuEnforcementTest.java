package io.rackfabric.host.iommu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import com.typesafe.config.ConfigFactory;
import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.endpoint.AccessCheckChange;
import io.rackfabric.fabric.endpoint.EndpointEvent;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.link.DataLinkState;
import io.rackfabric.fabric.link.LinkParameters;
import io.rackfabric.fabric.settings.FabricSettings;
import io.rackfabric.fabric.stats.EndpointStats;
import io.rackfabric.fabric.tlp.Bdf;
import io.rackfabric.fabric.tlp.CompletionStatus;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A host's IOMMU enforced by its root endpoint. The requester side ioSrc faces the host ioCh on a
 * bare link and issues requests under three IDs, as three remote hosts' accesses arrive after NTB
 * proxying. Every message goes through the wire (serialize-messages), IOMMU changes included.
 */
class IommuEnforcementTest {

  static final ActorTestKit testKit = ActorTestKit.create(ConfigFactory.parseString(
      "akka.actor.serialize-messages = on\n"
          + "rackfabric.fabric.link-timers { keepalive = 50ms, dllp-timeout = 400ms, retry-interval = 100ms }")
      .withFallback(ConfigFactory.load()));
  static final FabricSettings settings = FabricSettings.create(testKit.system().settings().config());
  static final List<AddressRange> MEMORY = List.of(AddressRange.ofSize(0, 1L << 20));
  static final long PAGE = 0x3000;
  static final int A = (1 << 8) | 1;
  static final int B = (1 << 8) | 2;
  static final int C = (1 << 8) | 40;

  static ActorRef<MemoryEndpoint.Command> src;
  static ActorRef<MemoryEndpoint.Command> host;

  @BeforeAll
  static void build() {
    LinkParameters gen3x4 = LinkParameters.gen3x4();
    src = testKit.spawn(MemoryEndpoint.create("ioSrc", Bdf.of(0, 0, 0), true,
        List.of(AddressRange.ofSize(0x8000_0000L, 1L << 20)), gen3x4, "ioCh", settings), "ioSrc");
    host = testKit.spawn(MemoryEndpoint.create("ioCh", Bdf.of(1, 0, 0), true, MEMORY, gen3x4, "ioSrc",
        settings, new IommuAccessCheck(new IommuTable("ioCh", MEMORY))), "ioCh");
    awaitActive(src);
    awaitActive(host);
  }

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  static void awaitActive(ActorRef<MemoryEndpoint.Command> ep) {
    TestProbe<EndpointStats> probe = testKit.createTestProbe();
    probe.awaitAssert(Duration.ofSeconds(10), () -> {
      ep.tell(new MemoryEndpoint.GetStats(probe.ref()));
      assertEquals(DataLinkState.DL_ACTIVE, probe.receiveMessage().link().state());
      return null;
    });
  }

  static MemoryEndpoint.AccessCheckResult change(AccessCheckChange change) {
    TestProbe<MemoryEndpoint.AccessCheckResult> probe = testKit.createTestProbe();
    host.tell(new MemoryEndpoint.ChangeAccessCheck(change, probe.ref()));
    return probe.receiveMessage();
  }

  static MemoryEndpoint.ReadResult readAs(int requester, long address) {
    TestProbe<MemoryEndpoint.ReadResult> probe = testKit.createTestProbe();
    src.tell(new MemoryEndpoint.ReadAs(requester, address, 4, probe.ref()));
    return probe.receiveMessage();
  }

  static EndpointStats stats() {
    TestProbe<EndpointStats> probe = testKit.createTestProbe();
    host.tell(new MemoryEndpoint.GetStats(probe.ref()));
    return probe.receiveMessage();
  }

  @Test
  void shouldServeOnlyTheRequesterAPageIsOpenToAndCountTheOthersWhenChecking() {
    EndpointStats before = stats();
    MemoryEndpoint.AccessCheckResult opened = change(new OpenIommuPages(A, PAGE, 1, Permission.READ_WRITE));
    assertTrue(opened.accepted(), opened.detail());

    TestProbe<EndpointEvent> watcher = testKit.createTestProbe();
    host.tell(new MemoryEndpoint.Watch(AddressRange.ofSize(PAGE, 0x1000), watcher.ref()));
    src.tell(new MemoryEndpoint.WriteAs(B, PAGE, new byte[] {6, 6, 6, 6}));
    src.tell(new MemoryEndpoint.WriteAs(C, PAGE + 8, new byte[] {7, 7, 7, 7}));
    src.tell(new MemoryEndpoint.WriteAs(A, PAGE + 4, new byte[] {1, 2, 3, 4}));
    EndpointEvent.MemoryWritten landed = (EndpointEvent.MemoryWritten) watcher.receiveMessage();
    assertEquals(A, landed.requester(), "only A's write lands");
    watcher.expectNoMessage(Duration.ofMillis(100));

    MemoryEndpoint.ReadResult a = readAs(A, PAGE + 4);
    assertEquals(CompletionStatus.SUCCESSFUL, a.status());
    assertArrayEquals(new byte[] {1, 2, 3, 4}, a.data());
    assertEquals(CompletionStatus.UNSUPPORTED_REQUEST, readAs(B, PAGE + 4).status());
    assertEquals(CompletionStatus.UNSUPPORTED_REQUEST, readAs(C, PAGE + 4).status());
    assertArrayEquals(new byte[4], peek(PAGE, 4), "B's write never reached memory");
    assertArrayEquals(new byte[4], peek(PAGE + 8, 4), "nor C's");

    EndpointStats after = stats();
    assertEquals(before.accessDenied(A), after.accessDenied(A), "A was never denied");
    assertEquals(before.accessDenied(B).reads() + 1, after.accessDenied(B).reads());
    assertEquals(before.accessDenied(B).writes() + 1, after.accessDenied(B).writes());
    assertEquals(before.accessDenied(C).reads() + 1, after.accessDenied(C).reads());
    assertEquals(before.accessDenied(C).writes() + 1, after.accessDenied(C).writes());

    // Closing the page shuts A out as well.
    assertTrue(change(new CloseIommuPages(A, PAGE, 1)).accepted());
    assertEquals(CompletionStatus.UNSUPPORTED_REQUEST, readAs(A, PAGE + 4).status());
    assertEquals(before.accessDenied(A).reads() + 1, stats().accessDenied(A).reads());
  }

  @Test
  void shouldAnswerWithTheReasonAndChangeNothingWhenAnIommuRequestIsBad() {
    MemoryEndpoint.AccessCheckResult bad = change(new CloseIommuPages(B, 0x7000, 1));
    assertFalse(bad.accepted());
    assertEquals("ioCh", bad.endpoint());
    assertTrue(bad.detail().contains("is not open to"), bad.detail());
    MemoryEndpoint.AccessCheckResult outside = change(new OpenIommuPages(B, 1L << 20, 1, Permission.READ));
    assertFalse(outside.accepted());
    assertEquals(CompletionStatus.UNSUPPORTED_REQUEST, readAs(B, 0x7000).status());
  }

  static byte[] peek(long address, int length) {
    TestProbe<byte[]> probe = testKit.createTestProbe();
    host.tell(new MemoryEndpoint.Peek(address, length, probe.ref()));
    return probe.receiveMessage();
  }
}
