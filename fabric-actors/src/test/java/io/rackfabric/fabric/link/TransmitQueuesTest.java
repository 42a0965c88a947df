package io.rackfabric.fabric.link;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.fabric.credit.FcCredits;
import io.rackfabric.fabric.tlp.Bdf;
import io.rackfabric.fabric.tlp.Completion;
import io.rackfabric.fabric.tlp.CompletionStatus;
import io.rackfabric.fabric.tlp.MemRead;
import io.rackfabric.fabric.tlp.MemWrite;
import io.rackfabric.fabric.tlp.Tlp;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The transmit side's queues, credit and ordering, with the state machine brought up by hand. */
class TransmitQueuesTest {

  private static final int REQ = Bdf.of(1, 0, 0);
  private static final FcCredits ROOMY = new FcCredits(64, 4096, 64, 64, 64, 4096);
  /** No posted credit at all; the other classes roomy. */
  private static final FcCredits NO_POSTED = new FcCredits(0, 0, 64, 64, 64, 4096);

  private final LinkStateMachine machine = new LinkStateMachine(LinkTimers.defaults(), false, 1);
  private final TransmitQueues queues = new TransmitQueues(machine);

  /** Trains the machine against a partner that has our credits: DL_PROTECTED, or DL_ACTIVE. */
  private void bringUp(boolean active, FcCredits partnerLimits) {
    machine.enable(0);
    machine.onInitFc(new InitFc(ROOMY, 99, machine.training(), 0), 0);
    if (active) {
      machine.activate(0);
    }
    queues.initialise(partnerLimits);
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

  private Tlp pollTlp() {
    LinkEnd.Queued q = queues.poll();
    return q == null ? null : q.tlp();
  }

  @Test
  void shouldSendOldestFirstAcrossClassesWhenEveryClassHasCredit() {
    bringUp(true, ROOMY);
    Tlp r = read(1);
    Tlp w = write(2);
    Tlp c = completion(3);
    queues.add(r, 10, "r");
    queues.add(w, 10, "w");
    queues.add(c, 10, "c");

    assertSame(r, pollTlp());
    assertSame(w, pollTlp());
    assertSame(c, pollTlp());
    assertNull(queues.poll());
    assertEquals(0, queues.size());
  }

  @Test
  void shouldNotLetReadOrCompletionPassAnEarlierPostedWriteWhenItWaitsForCredit() {
    bringUp(true, NO_POSTED);
    queues.add(write(1), 10, "w");
    queues.add(read(2), 10, "r");
    queues.add(completion(3), 10, "c");

    assertNull(queues.poll(), "everything waits behind the posted write");
    assertEquals(3, queues.size());
  }

  @Test
  void shouldLetAPostedWritePassAReadWhenTheReadWaitsForCredit() {
    bringUp(true, new FcCredits(64, 4096, 0, 0, 64, 4096));
    Tlp w = write(2);
    queues.add(read(1), 10, "r");
    queues.add(w, 10, "w");

    assertSame(w, pollTlp());
    assertNull(queues.poll());
  }

  @Test
  void shouldStartAClassThatWaitedForCreditNoEarlierThanTheCreditArrived() {
    bringUp(true, NO_POSTED);
    Tlp w = write(1);
    queues.add(w, 100, "w");
    assertNull(queues.poll());

    queues.credit(ROOMY, 700);
    assertSame(w, pollTlp());
    assertEquals(700, queues.take(w, 100));
  }

  @Test
  void shouldStartAtItsReadyTimeWhenItNeverWaitedForCredit() {
    bringUp(true, ROOMY);
    queues.credit(ROOMY, 700);
    Tlp w = write(1);
    assertTrue(queues.mayBypass(w, 100));
    assertEquals(100, queues.take(w, 100));
  }

  @Test
  void shouldHoldTlpsStampedAtOrAfterTheHorizonAndPassEarlierOnes() {
    bringUp(true, ROOMY);
    queues.holdFrom(100);
    Tlp late = write(1);
    Tlp early = write(2);
    queues.add(late, 100, "late");
    queues.add(early, 99, "early");

    assertEquals(1, queues.sizeBeforeHorizon());
    assertFalse(queues.mayBypass(write(3), 100));
    assertSame(early, pollTlp());
    assertNull(queues.poll());

    queues.holdFrom(Long.MAX_VALUE);
    assertSame(late, pollTlp());
  }

  @Test
  void shouldPassOnlyCompletionsAndManagementWhenProtected() {
    bringUp(false, ROOMY);
    assertEquals(DataLinkState.DL_PROTECTED, machine.state());
    Tlp c = completion(2);
    queues.add(write(1), 10, "w");
    queues.add(c, 10, "c");

    assertFalse(queues.mayBypass(write(3), 10));
    assertFalse(queues.mayBypass(completion(4), 10), "something is queued: nothing bypasses");
    assertSame(c, pollTlp());
    assertNull(queues.poll(), "the memory write waits for activation");
  }

  @Test
  void shouldReturnEveryQueuedTlpAndForgetTheCreditWhenPurged() {
    bringUp(true, NO_POSTED);
    queues.add(write(1), 10, "w1");
    queues.add(read(2), 10, "r");
    queues.add(write(3), 10, "w2");
    assertNull(queues.poll());

    List<LinkEnd.Queued> purged = queues.purge();

    assertEquals(List.of("w1", "w2", "r"), purged.stream().map(LinkEnd.Queued::token).toList());
    assertEquals(0, queues.size());
    queues.add(completion(4), 10, "c");
    assertNull(queues.poll(), "no credit until the partner trains again");
  }
}
