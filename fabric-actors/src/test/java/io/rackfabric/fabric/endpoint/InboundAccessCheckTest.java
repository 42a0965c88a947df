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
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The inbound access check of a memory endpoint: the root acRc faces the endpoint acEp on a bare
 * link and issues requests as three of its functions, A, B and C.
 */
class InboundAccessCheckTest {

  static final ActorTestKit testKit = FabricProbes.dataPlaneTestKit();
  static final FabricSettings settings = FabricSettings.create(testKit.system().settings().config());
  static final AddressRange BAR = new AddressRange(0x4000_0000L, 0x400F_FFFFL);
  static final AddressRange PAGE = AddressRange.ofSize(0x4000_2000L, 0x1000);
  static final int A = Bdf.of(0, 1, 0);
  static final int B = Bdf.of(0, 1, 1);
  static final int C = Bdf.of(0, 2, 0);

  static ActorRef<MemoryEndpoint.Command> rc;
  static ActorRef<MemoryEndpoint.Command> ep;

  @BeforeAll
  static void buildLink() {
    LinkParameters gen3x4 = LinkParameters.gen3x4();
    rc = testKit.spawn(MemoryEndpoint.create("acRc", Bdf.of(0, 0, 0), true,
        List.of(new AddressRange(0, 0xF_FFFFL)), gen3x4, "acEp", settings), "acRc");
    ep = testKit.spawn(MemoryEndpoint.create("acEp", Bdf.of(1, 0, 0), false, List.of(BAR), gen3x4,
        "acRc", settings, InboundAccessCheck.allowAll()), "acEp");
    FabricProbes.awaitActive(testKit, rc);
    FabricProbes.awaitActive(testKit, ep);
  }

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  static MemoryEndpoint.ReadResult readAs(int requester, long address) {
    TestProbe<MemoryEndpoint.ReadResult> probe = testKit.createTestProbe();
    rc.tell(new MemoryEndpoint.ReadAs(requester, address, 4, probe.ref()));
    return probe.receiveMessage();
  }

  static MemoryEndpoint.AccessCheckResult change(AccessCheckChange change) {
    TestProbe<MemoryEndpoint.AccessCheckResult> probe = testKit.createTestProbe();
    ep.tell(new MemoryEndpoint.ChangeAccessCheck(change, probe.ref()));
    return probe.receiveMessage();
  }

  @Test
  void shouldAbortReadsAndDropWritesOfEveryoneButTheAllowedRequesterWhenAPageIsOpenToOne() {
    byte[] before = {1, 1, 1, 1};
    rc.tell(new MemoryEndpoint.WriteAs(C, PAGE.base(), before));
    FabricProbes.awaitData(testKit, ep, PAGE.base(), before); // allow-all until changed
    assertEquals(0, FabricProbes.stats(testKit, ep).accessDeniedTotal());

    MemoryEndpoint.AccessCheckResult ok = change(new TestAccessChanges.AllowOnly(A, PAGE));
    assertTrue(ok.accepted(), ok.detail());
    assertEquals("acEp", ok.endpoint());

    TestProbe<EndpointEvent> watcher = testKit.createTestProbe();
    ep.tell(new MemoryEndpoint.Watch(PAGE, watcher.ref()));
    rc.tell(new MemoryEndpoint.WriteAs(B, PAGE.base(), new byte[] {6, 6, 6, 6}));
    rc.tell(new MemoryEndpoint.WriteAs(C, PAGE.base(), new byte[] {7, 7, 7, 7}));
    rc.tell(new MemoryEndpoint.WriteAs(A, PAGE.base() + 4, new byte[] {2, 2, 2, 2}));
    rc.tell(new MemoryEndpoint.WriteAs(A, PAGE.base() + 0x1000, new byte[] {3, 3, 3, 3})); // next page
    // Writes on one link arrive in order: once A's lands, B's and C's have been dealt with.
    EndpointEvent.MemoryWritten landed = (EndpointEvent.MemoryWritten) watcher.receiveMessage();
    assertEquals(A, landed.requester());
    assertEquals(PAGE.base() + 4, landed.address());
    watcher.expectNoMessage(Duration.ofMillis(100));
    assertArrayEquals(before, FabricProbes.peek(testKit, ep, PAGE.base(), 4), "denied writes dropped");

    MemoryEndpoint.ReadResult allowed = readAs(A, PAGE.base() + 4);
    assertEquals(CompletionStatus.SUCCESSFUL, allowed.status());
    assertArrayEquals(new byte[] {2, 2, 2, 2}, allowed.data());
    assertEquals(CompletionStatus.UNSUPPORTED_REQUEST, readAs(B, PAGE.base()).status());
    assertEquals(CompletionStatus.UNSUPPORTED_REQUEST, readAs(C, PAGE.base() + 4).status());
    assertEquals(CompletionStatus.UNSUPPORTED_REQUEST, readAs(A, PAGE.base() + 0x1000).status());

    EndpointStats s = FabricProbes.stats(testKit, ep);
    assertEquals(new EndpointStats.AccessDenial(A, 1, 1), s.accessDenied(A));
    assertEquals(new EndpointStats.AccessDenial(B, 1, 1), s.accessDenied(B));
    assertEquals(new EndpointStats.AccessDenial(C, 1, 1), s.accessDenied(C));
    assertEquals(6, s.accessDeniedTotal());
    assertEquals(List.of(A, B, C), s.accessDenied().stream().map(EndpointStats.AccessDenial::requester).toList());
  }

  @Test
  void shouldKeepTheCheckAndSayWhyWhenAChangeIsRefused() {
    change(new TestAccessChanges.AllowOnly(A, BAR));
    MemoryEndpoint.AccessCheckResult refused = change(new TestAccessChanges.AllowOnly(B, null));
    assertFalse(refused.accepted());
    assertEquals("range is missing", refused.detail());
    assertEquals(CompletionStatus.SUCCESSFUL, readAs(A, BAR.base()).status(), "A's check still holds");
    assertEquals(CompletionStatus.UNSUPPORTED_REQUEST, readAs(B, BAR.base()).status());
    assertFalse(change(null).accepted());
  }
}
