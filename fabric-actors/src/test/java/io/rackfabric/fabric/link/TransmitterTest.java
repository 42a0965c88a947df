package io.rackfabric.fabric.link;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.fabric.credit.FcCredits;
import io.rackfabric.fabric.tlp.Bdf;
import io.rackfabric.fabric.tlp.Completion;
import io.rackfabric.fabric.tlp.CompletionStatus;
import io.rackfabric.fabric.tlp.MemRead;
import io.rackfabric.fabric.tlp.MemWrite;
import io.rackfabric.fabric.tlp.Tlp;
import io.rackfabric.fabric.tlp.Tlps;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The transmit side's queues, credit, ordering and wire time, with the state machine brought up by
 * hand and the departures recorded.
 */
class TransmitterTest {

  private static final LinkParameters P = LinkParameters.gen3x4();
  private static final int REQ = Bdf.of(1, 0, 0);
  private static final FcCredits NONE = new FcCredits(0, 0, 0, 0, 0, 0);
  private static final FcCredits ROOMY = new FcCredits(64, 4096, 64, 64, 64, 4096);
  /** No posted credit at all; the other classes roomy. */
  private static final FcCredits NO_POSTED = new FcCredits(0, 0, 64, 64, 64, 4096);

  private record Departure(Object token, long start) {}

  private final List<Departure> departed = new ArrayList<>();
  private boolean stopped;
  private final LinkStateMachine machine = new LinkStateMachine(LinkTimers.defaults(), false, 1);
  private final Transmitter tx = new Transmitter(P, machine, new WireCalendar(), () -> stopped,
      (tlp, token, start) -> departed.add(new Departure(token, start)));

  /** Trains the machine against a partner that has our credits: DL_PROTECTED, or DL_ACTIVE. */
  private void bringUp(boolean active, FcCredits partnerLimits) {
    machine.enable(0);
    machine.onInitFc(new InitFc(ROOMY, 99, machine.training(), 0), 0);
    if (active) {
      machine.activate(0);
    }
    tx.initialise(partnerLimits);
  }

  private List<Object> tokens() {
    return departed.stream().map(Departure::token).toList();
  }

  private static MemWrite write(long seq) {
    return new MemWrite(REQ, (int) seq, 0, 0x90000L, 64, null, 0, seq);
  }

  private static MemRead read(long seq) {
    return new MemRead(REQ, (int) seq, 0, 0x90000L, 64, 0, seq);
  }

  private static Completion completion(long seq) {
    return new Completion(Bdf.of(2, 0, 0), REQ, (int) seq, 0, CompletionStatus.SUCCESSFUL,
        0, 0, 0, null, 0, seq);
  }

  @Test
  void shouldRefuseATlpWhenTheLinkIsDown() {
    assertFalse(tx.offer(write(1), 0, "w"));
    assertEquals(0, tx.size());
  }

  @Test
  void shouldSendOldestFirstAcrossClassesWhenCreditArrives() {
    bringUp(true, NONE);
    tx.offer(read(1), 10, "r");
    tx.offer(write(2), 10, "w");
    tx.offer(completion(3), 10, "c");
    assertTrue(departed.isEmpty());

    tx.credit(ROOMY, 0);

    assertEquals(List.of("r", "w", "c"), tokens());
    assertEquals(0, tx.size());
  }

  @Test
  void shouldNotLetReadOrCompletionPassAnEarlierPostedWriteWhenItWaitsForCredit() {
    bringUp(true, NO_POSTED);
    tx.offer(write(1), 10, "w");
    tx.offer(read(2), 10, "r");
    tx.offer(completion(3), 10, "c");

    assertTrue(departed.isEmpty(), "everything waits behind the posted write");
    assertEquals(3, tx.size());
  }

  @Test
  void shouldLetAPostedWritePassAReadWhenTheReadWaitsForCredit() {
    bringUp(true, new FcCredits(64, 4096, 0, 0, 64, 4096));
    tx.offer(read(1), 10, "r");
    tx.offer(write(2), 10, "w");

    assertEquals(List.of("w"), tokens());
  }

  @Test
  void shouldStartNoEarlierThanTheCreditArrivedWhenAClassWaitedForIt() {
    bringUp(true, NO_POSTED);
    tx.offer(write(1), 100, "w");

    tx.credit(ROOMY, 700);

    assertEquals(List.of(new Departure("w", 700)), departed);
  }

  @Test
  void shouldSpaceTlpsBySerializationTimeWhenTheyAreReadyTogether() {
    bringUp(true, ROOMY);
    tx.offer(write(1), 100, "w1");
    tx.offer(write(2), 100, "w2");

    long serialization = P.serializationNs(Tlps.wireBytes(write(1)));
    assertEquals(List.of(new Departure("w1", 100), new Departure("w2", 100 + serialization)), departed);
  }

  @Test
  void shouldStartNoEarlierThanTheEventWhenOfferedWhileOneIsHandled() {
    bringUp(true, ROOMY);
    tx.floorAt(500);
    tx.offer(write(1), 100, "w");
    tx.floorAt(Long.MIN_VALUE);

    assertEquals(List.of(new Departure("w", 500)), departed);
  }

  @Test
  void shouldHoldTlpsStampedAtOrAfterTheHorizonWhenOneIsSet() {
    bringUp(true, ROOMY);
    tx.holdFrom(100);
    tx.offer(write(1), 100, "late");
    tx.offer(write(2), 99, "early");

    assertEquals(List.of("early"), tokens());
    assertEquals(1, tx.size());
    assertEquals(0, tx.sizeBeforeHorizon());

    tx.holdFrom(Long.MAX_VALUE);
    assertEquals(List.of("early", "late"), tokens());
  }

  @Test
  void shouldPassOnlyCompletionsAndManagementWhenProtected() {
    bringUp(false, ROOMY);
    assertEquals(DataLinkState.DL_PROTECTED, machine.state());
    tx.offer(write(1), 10, "w");
    tx.offer(completion(2), 10, "c");

    assertEquals(List.of("c"), tokens(), "the memory write waits for activation");
  }

  @Test
  void shouldWaitWhileStoppedAndGoWhenPumpedAgain() {
    bringUp(true, ROOMY);
    stopped = true;
    tx.offer(write(1), 10, "w");
    assertTrue(departed.isEmpty());

    stopped = false;
    tx.pump();

    assertEquals(List.of("w"), tokens());
  }

  @Test
  void shouldReturnEveryQueuedTlpAndForgetTheCreditWhenPurged() {
    bringUp(true, NO_POSTED);
    tx.offer(write(1), 10, "w1");
    tx.offer(read(2), 10, "r");
    tx.offer(write(3), 10, "w2");

    List<LinkEnd.Queued> purged = tx.purge();

    assertEquals(List.of("w1", "w2", "r"), purged.stream().map(LinkEnd.Queued::token).toList());
    assertEquals(0, tx.size());
    tx.offer(completion(4), 10, "c");
    assertTrue(departed.isEmpty(), "no credit until the partner trains again");
  }

  /** Posted credit for {@code headers} writes in all (cumulative), the other classes roomy. */
  private static FcCredits postedFor(int headers) {
    return new FcCredits(headers, 4096, 64, 64, 64, 4096);
  }

  @Test
  void shouldTakeTurnsAmongIngressPortsWhenTheyWaitForCredit() {
    bringUp(true, NO_POSTED);
    tx.offer(write(1), 10, 3);
    tx.offer(write(2), 10, 3);
    tx.offer(write(3), 10, 3);
    tx.offer(write(4), 10, 5);
    tx.offer(write(5), 10, 5);
    tx.offer(write(6), 10, EgressArbiter.OWN);
    assertTrue(departed.isEmpty());

    // One write's credit at a time: each grant goes to the next port in turn that has one waiting.
    List<Object> expected = List.of(EgressArbiter.OWN, 3, 5, 3, 5, 3);
    for (int n = 1; n <= expected.size(); n++) {
      tx.credit(postedFor(n), 100L * n);
      assertEquals(expected.subList(0, n), tokens(), "after credit for " + n + " writes");
    }
    assertEquals(0, tx.size());
  }

  @Test
  void shouldServeIngressPortsInPortOrderWhateverOrderTheirTlpsArrivedIn() {
    bringUp(true, NO_POSTED);
    tx.offer(write(1), 10, 9);
    tx.offer(write(2), 10, 9);
    tx.offer(write(3), 10, 4);
    tx.offer(write(4), 10, 4);

    tx.credit(postedFor(4), 100);

    assertEquals(List.of(4, 9, 4, 9), tokens(), "port 4 first though port 9's writes came first");
  }

  @Test
  void shouldKeepPostedOrderingWithinOneIngressPortWhenAnotherPortsCompletionCanGo() {
    bringUp(true, NO_POSTED);
    tx.offer(write(1), 10, 2);
    tx.offer(completion(2), 10, 2);
    tx.offer(completion(3), 10, 6);

    assertEquals(List.of(6), tokens(), "port 2's completion waits behind port 2's write; port 6's goes");
  }
}
