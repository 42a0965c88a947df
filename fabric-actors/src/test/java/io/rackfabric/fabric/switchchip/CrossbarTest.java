package io.rackfabric.fabric.switchchip;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import io.rackfabric.fabric.credit.FcCredits;
import io.rackfabric.fabric.link.LinkEnd;
import io.rackfabric.fabric.link.LinkParameters;
import io.rackfabric.fabric.link.LinkTimers;
import io.rackfabric.fabric.link.PhysicalDown;
import io.rackfabric.fabric.link.PortMessage;
import io.rackfabric.fabric.testing.RecordingLinkListener;
import io.rackfabric.fabric.time.PortTime;
import io.rackfabric.fabric.tlp.Bdf;
import io.rackfabric.fabric.tlp.MemWrite;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Port 1's side of the crossbar, with sibling port 3 a probe; a switch latency of 100 ns and
 * batches of two TLPs.
 */
class CrossbarTest {

  private static final ActorTestKit testKit = ActorTestKit.create();
  private static final long LATENCY = 100;
  /** A 64-byte write: one header and four data credits. */
  private static final MemWrite WRITE = new MemWrite(Bdf.of(2, 0, 0), 1, 0, 0x5000L, 64, null, 0, 1);

  private final LinkEnd link = new LinkEnd(LinkParameters.gen3x4(), new FcCredits(8, 64, 8, 0, 8, 64),
      LinkTimers.defaults(), true, 1, new RecordingLinkListener(), () -> 0);
  private final TestProbe<PortMessage> self = testKit.createTestProbe();
  private final PortTime time = new PortTime("sw.a", self.ref(), link, null, event -> {});
  private final Crossbar crossbar = new Crossbar(1, LATENCY, 2, link, time);
  private final TestProbe<SwitchPort.Command> ingress = testKit.createTestProbe();

  {
    crossbar.siblings(Map.of(3, ingress.ref()));
  }

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  private SwitchPort.CreditsReleased release() {
    return ingress.expectMessageClass(SwitchPort.CreditsReleased.class);
  }

  @Test
  void shouldReturnSpaceASwitchLatencyLaterWhenATlpIsConsumed() {
    crossbar.consumed(3, WRITE, 500);

    SwitchPort.CreditsReleased r = release();
    assertEquals(500 + LATENCY, r.at());
    assertEquals(1, r.from());
    assertArrayEquals(new int[] {1, 0, 0}, r.headers());
    assertArrayEquals(new int[] {4, 0, 0}, r.data());
  }

  @Test
  void shouldReturnSpaceNoEarlierThanThePortsModelTimeWhenItWasFreedBefore() {
    time.receive(900, 0, new PhysicalDown(900)); // free-running: handled at once, the port's clock at 900

    crossbar.consumed(3, WRITE, 500);

    assertEquals(900 + LATENCY, release().at());
  }

  @Test
  void shouldReturnSpaceInBatchesWhenQueuedTlpsLeave() {
    crossbar.queued(3);
    crossbar.queued(3);
    crossbar.queued(3);
    crossbar.transmitted(3, WRITE, 10);
    crossbar.transmitted(3, WRITE, 20);

    SwitchPort.CreditsReleased r = release();
    assertArrayEquals(new int[] {2, 0, 0}, r.headers(), "the first alone was not returned");
    assertEquals(20 + LATENCY, r.at());
  }

  @Test
  void shouldReturnWhatWasOwedForPurgedTlpsWhenFlushed() {
    crossbar.queued(3);
    crossbar.purged(3, WRITE, 50);
    crossbar.flushAll();

    SwitchPort.CreditsReleased r = release();
    assertArrayEquals(new int[] {1, 0, 0}, r.headers());
    assertEquals(50 + LATENCY, r.at());
  }

  @Test
  void shouldFreeTheLinkOnlyWhenTheLastCopyOfAMulticastTlpIsReleased() {
    crossbar.replicated(WRITE, 3);
    crossbar.released(new int[] {1, 0, 0}, new int[] {4, 0, 0}, 700);
    crossbar.released(new int[] {1, 0, 0}, new int[] {4, 0, 0}, 800);
    assertEquals(0, link.modelNow(), "two releases absorbed: nothing freed on the link");

    crossbar.released(new int[] {1, 0, 0}, new int[] {4, 0, 0}, 900);

    assertEquals(900, link.modelNow());
  }
}
