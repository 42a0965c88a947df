package io.rackfabric.fabric.endpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import akka.actor.Address;
import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.port.LinkPort;
import io.rackfabric.fabric.control.ForeignRefs;
import io.rackfabric.fabric.link.DataLinkState;
import io.rackfabric.fabric.link.LinkErrors;
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
 * Fault and access-check messages from a member that is neither the run's driver nor this node
 * are dropped; the same messages from this node are applied. The foreign sender is a ref whose
 * path carries another member's address (this test kit's messages are not serialized, so it can
 * travel in them).
 */
class ControlOriginGuardTest {

  static final ActorTestKit testKit = ActorTestKit.create();
  static final FabricSettings settings = FabricSettings.create(testKit.system().settings().config());
  static final AddressRange BAR = new AddressRange(0x4000_0000L, 0x400F_FFFFL);
  static final ActorRef<Object> STRANGER =
      ForeignRefs.at(new Address("akka", "rack", "10.0.0.66", 25520), "rogue");

  static ActorRef<MemoryEndpoint.Command> rc;
  static ActorRef<MemoryEndpoint.Command> ep;

  @BeforeAll
  static void buildLink() {
    rc = testKit.spawn(MemoryEndpoint.create("goRc", Bdf.of(0, 0, 0), true,
        List.of(new AddressRange(0, 0xF_FFFFL)), LinkParameters.gen3x4(), "goEp", settings), "goRc");
    ep = testKit.spawn(MemoryEndpoint.create("goEp", Bdf.of(1, 0, 0), false, List.of(BAR),
        LinkParameters.gen3x4(), "goRc", settings), "goEp");
    awaitActive(rc);
    awaitActive(ep);
  }

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  @Test
  void shouldDropFaultsAndAccessChangesWhenTheOriginIsAForeignMember() {
    awaitActive(ep);
    long downsBefore = stats(ep).link().linkDowns();
    LinkPort.of(ep).tell(new LinkPort.SetLink(false, 0, STRANGER));
    LinkPort.of(ep).tell(new LinkPort.InjectLinkErrors(new LinkErrors(1.0, 0, 0, 0, 0, Long.MAX_VALUE, 1), STRANGER.unsafeUpcast()));
    ep.tell(new MemoryEndpoint.ChangeAccessCheck(new TestAccessChanges.AllowOnly(0x7777, BAR),
        STRANGER.unsafeUpcast()));
    // Handled in order after the three: SetLink takes a link down at once when applied.
    EndpointStats s = stats(ep);
    assertEquals(DataLinkState.DL_ACTIVE, s.link().state(), "the link stays up");
    assertEquals(downsBefore, s.link().linkDowns(), "no link-down since");
    MemoryEndpoint.ReadResult read = read(BAR.base());
    assertEquals(CompletionStatus.SUCCESSFUL, read.status(), "no access check was installed, no TLP dropped");
    awaitActive(ep);
  }

  @Test
  void shouldApplyTheFaultWhenTheOriginIsOnThisNode() {
    TestProbe<Object> local = testKit.createTestProbe();
    LinkPort.of(ep).tell(new LinkPort.SetLink(false, 0, local.ref()));
    EndpointStats s = stats(ep);
    assertNotEquals(DataLinkState.DL_ACTIVE, s.link().state(), "taken down by this node's SetLink");
    LinkPort.of(ep).tell(new LinkPort.SetLink(true, 0, local.ref()));
    awaitActive(ep);
    awaitActive(rc);
  }

  static EndpointStats stats(ActorRef<MemoryEndpoint.Command> endpoint) {
    TestProbe<EndpointStats> probe = testKit.createTestProbe();
    endpoint.tell(new MemoryEndpoint.GetStats(probe.ref()));
    return probe.receiveMessage();
  }

  static MemoryEndpoint.ReadResult read(long address) {
    TestProbe<MemoryEndpoint.ReadResult> probe = testKit.createTestProbe();
    rc.tell(new MemoryEndpoint.Read(address, 8, probe.ref()));
    return probe.receiveMessage(Duration.ofSeconds(10));
  }

  static void awaitActive(ActorRef<MemoryEndpoint.Command> endpoint) {
    TestProbe<EndpointStats> probe = testKit.createTestProbe();
    probe.awaitAssert(Duration.ofSeconds(10), () -> {
      endpoint.tell(new MemoryEndpoint.GetStats(probe.ref()));
      assertEquals(DataLinkState.DL_ACTIVE, probe.receiveMessage().link().state());
      return null;
    });
  }
}
