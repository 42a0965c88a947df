package io.rackfabric.fabric.switchchip;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import io.rackfabric.fabric.credit.FcCredits;
import io.rackfabric.fabric.link.InitFc;
import io.rackfabric.fabric.link.LinkEnd;
import io.rackfabric.fabric.link.LinkFrame;
import io.rackfabric.fabric.link.LinkParameters;
import io.rackfabric.fabric.link.PortMessage;
import io.rackfabric.fabric.link.TlpFrame;
import io.rackfabric.fabric.settings.FabricSettings;
import io.rackfabric.fabric.stats.PortStats;
import io.rackfabric.fabric.testing.RecordingLinkListener;
import io.rackfabric.fabric.time.PortTime;
import io.rackfabric.fabric.tlp.Bdf;
import io.rackfabric.fabric.tlp.Completion;
import io.rackfabric.fabric.tlp.CompletionStatus;
import io.rackfabric.fabric.tlp.ErrorMessage;
import io.rackfabric.fabric.tlp.MemRead;
import io.rackfabric.fabric.tlp.MemWrite;
import io.rackfabric.fabric.tlp.Tlps;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * Downstream port 1 of {@link PortConfigurationTest#TABLE}'s switch, without its actor: its link
 * end driven by hand, sibling port 2 a probe, upstream port 0 not running.
 */
class PortForwardingTest {

  private static final ActorTestKit testKit = ActorTestKit.create();
  private static final FabricSettings settings = FabricSettings.create(testKit.system().settings().config());
  private static final LinkParameters P = LinkParameters.gen3x4();
  private static final FcCredits ROOMY = new FcCredits(64, 4096, 64, 64, 64, 4096);
  private static final int EP = Bdf.of(2, 0, 0);

  private final RecordingLinkListener owner = new RecordingLinkListener();
  private final List<LinkFrame> sent = owner.sent;
  private final LinkEnd link = new LinkEnd(P, ROOMY, settings.timers(), true, 1, owner, () -> 0);
  private final TestProbe<PortMessage> self = testKit.createTestProbe();
  private final PortTime time = new PortTime("sw.a", self.ref(), link, null, event -> {});
  private final Crossbar crossbar = new Crossbar(1, settings.switchLatencyNs(),
      settings.releaseBatch(), link, time);
  private final PortConfiguration config = new PortConfiguration("sw", 1, PortConfigurationTest.TABLE, msg -> {},
      LoggerFactory.getLogger(getClass()));
  private final PortErrors errors = new PortErrors();
  private final PortForwarding forwarding = new PortForwarding(1, settings, link, config, crossbar, errors,
      new PortManagement(1, settings, link, config, crossbar, errors, null, -1, w -> {},
          LoggerFactory.getLogger(getClass())),
      LoggerFactory.getLogger(getClass()));
  private final TestProbe<SwitchPort.Command> sibling = testKit.createTestProbe();

  {
    crossbar.siblings(Map.of(2, sibling.ref()));
  }

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  /** Trains the link against a partner that answers our InitFC at once. */
  private void trainUp() {
    link.enable();
    InitFc ours = (InitFc) sent.get(0);
    link.onFrame(new InitFc(ROOMY, 99, ours.training(), 0));
    sent.clear();
  }

  private PortStats stats() {
    return errors.stats(config.name(), link, config.ntbRefused());
  }

  @Test
  void shouldHandTheTlpToTheRoutedSiblingWhenItArrivesFromTheLink() {
    trainUp();
    MemWrite write = new MemWrite(EP, 1, 0, 0x1100_0000L, 64, null, 0, 1);

    forwarding.fromLink(new TlpFrame(write, 1_000));

    SwitchPort.Forward f = sibling.expectMessageClass(SwitchPort.Forward.class);
    assertSame(write, f.tlp());
    assertEquals(1_000 + P.flightNs(Tlps.wireBytes(write)) + settings.switchLatencyNs(), f.readyAt());
    assertEquals(1, f.ingress());
    assertEquals(1, f.from());
  }

  @Test
  void shouldAnswerWithAnUnsupportedRequestWhenARequestCannotBeDelivered() {
    trainUp();
    MemRead read = new MemRead(EP, 5, 0, 0x3000_0000L, 64, 0, 1); // upstream, which is not running

    forwarding.fromLink(new TlpFrame(read, 1_000));

    Completion ur = assertInstanceOf(Completion.class, ((TlpFrame) sent.get(0)).tlp());
    assertEquals(CompletionStatus.UNSUPPORTED_REQUEST, ur.status());
    assertEquals(5, ur.tag());
    assertEquals(config.bdf(), ur.completer());
    assertEquals(1, stats().unsupported());
  }

  @Test
  void shouldDropAWriteFromASiblingAndReturnItsSpaceWhenTheLinkIsDownAfterAFailure() {
    trainUp();
    link.disable(100);
    MemWrite write = new MemWrite(EP, 1, 0, 0x1000_0000L, 64, null, 0, 1);

    forwarding.toLink(new SwitchPort.Forward(write, 200, 2, 2));

    SwitchPort.CreditsReleased r = sibling.expectMessageClass(SwitchPort.CreditsReleased.class);
    assertArrayEquals(new int[] {1, 0, 0}, r.headers());
    assertEquals(200 + settings.switchLatencyNs(), r.at());
    assertEquals(1, stats().droppedPosted());
  }

  @Test
  void shouldReturnTheSpaceOfPurgedTlpsAndReportTheLinkDownWhenTheLinkGoesDown() {
    MemWrite write = new MemWrite(EP, 1, 0, 0x1000_0000L, 64, null, 0, 1);

    forwarding.linkDown(ErrorMessage.Cause.SURPRISE_DOWN, 500, List.of(new LinkEnd.Queued(write, 10, 2, 0)));

    SwitchPort.CreditsReleased r = sibling.expectMessageClass(SwitchPort.CreditsReleased.class);
    assertArrayEquals(new int[] {1, 0, 0}, r.headers());
    assertEquals(500 + settings.switchLatencyNs(), r.at());
    PortStats s = stats();
    assertEquals(1, s.aerSent());
    assertEquals(2, s.lostOnLinkDown(), "the purged write, and the AER with no way out");
  }
}
