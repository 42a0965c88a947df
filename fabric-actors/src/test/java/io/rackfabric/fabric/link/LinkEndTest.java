package io.rackfabric.fabric.link;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.fabric.credit.FcCredits;
import io.rackfabric.fabric.tlp.Bdf;
import io.rackfabric.fabric.tlp.Completion;
import io.rackfabric.fabric.tlp.CompletionStatus;
import io.rackfabric.fabric.tlp.ConfigRead;
import io.rackfabric.fabric.tlp.ErrorMessage;
import io.rackfabric.fabric.tlp.MemRead;
import io.rackfabric.fabric.tlp.MemWrite;
import io.rackfabric.fabric.tlp.Tlp;
import io.rackfabric.fabric.tlp.TlpClass;
import io.rackfabric.fabric.tlp.Tlps;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Two {@link LinkEnd}s wired back to back through an in-test wire: a FIFO of frames the test
 * delivers by hand, so ordering and loss are under control. The wall clock is a mutable field.
 */
class LinkEndTest {

  private static final long MS = 1_000_000L;
  private static final LinkParameters P = LinkParameters.gen3x4(); // 5 ns propagation
  private static final LinkTimers TIMERS = LinkTimers.defaults();
  /** Credit DLLPs are 8 bytes on the wire (6 + framing). */
  private static final int DLLP_BYTES = 8;
  private static final FcCredits ROOMY = new FcCredits(64, 4096, 64, 64, 64, 4096);
  private static final int REQ = Bdf.of(1, 0, 0);

  private long wall;
  private final ArrayDeque<InFlight> wire = new ArrayDeque<>();

  private record InFlight(Side from, LinkFrame frame) {}

  private record Down(ErrorMessage.Cause cause, long at, List<LinkEnd.Queued> purged) {}

  private final class Side implements LinkEnd.Listener {
    final LinkEnd end;
    Side partner;
    final List<Object> tokens = new ArrayList<>();
    final List<Tlp> received = new ArrayList<>();
    final List<Long> arrivals = new ArrayList<>();
    final List<TlpFrame> tlpFrames = new ArrayList<>();
    final List<UpdateFc> updates = new ArrayList<>();
    final List<Long> ups = new ArrayList<>();
    final List<Long> trained = new ArrayList<>();
    final List<Down> downs = new ArrayList<>();
    boolean autoFree;
    int freed;

    Side(FcCredits buffers, boolean autoActivate, long seed) {
      end = new LinkEnd(P, buffers, TIMERS, autoActivate, seed, this, () -> wall);
    }

    @Override
    public void send(LinkFrame frame) {
      wire.add(new InFlight(this, frame));
      if (frame instanceof TlpFrame t) {
        tlpFrames.add(t);
      } else if (frame instanceof UpdateFc u) {
        updates.add(u);
      }
    }

    @Override
    public void transmitted(Object token, Tlp tlp, long sentAt) {
      tokens.add(token);
    }

    @Override
    public void linkUp(long modelAt) {
      ups.add(modelAt);
    }

    @Override
    public void linkTrained(long modelAt) {
      trained.add(modelAt);
    }

    @Override
    public void linkDown(ErrorMessage.Cause cause, long modelAt, List<LinkEnd.Queued> purged) {
      downs.add(new Down(cause, modelAt, List.copyOf(purged)));
    }

    List<Long> receivedSeqs() {
      List<Long> seqs = new ArrayList<>();
      for (Tlp t : received) {
        seqs.add(t.seq());
      }
      return seqs;
    }

    /** Frees the oldest received TLP not yet freed. */
    void freeNext(long modelAt) {
      end.free(received.get(freed++), modelAt);
    }

    void freeAll(long modelAt) {
      while (freed < received.size()) {
        freeNext(modelAt);
      }
    }
  }

  private Side a;
  private Side b;

  private void wire(FcCredits buffersA, FcCredits buffersB, boolean autoActivate) {
    a = new Side(buffersA, autoActivate, 1);
    b = new Side(buffersB, autoActivate, 2);
    a.partner = b;
    b.partner = a;
  }

  /** Delivers the oldest frame on the wire; returns what onFrame returned. */
  private long deliverOne() {
    InFlight f = wire.poll();
    Side to = f.from().partner;
    long arrival = to.end.onFrame(f.frame());
    if (arrival >= 0) {
      Tlp tlp = LinkEnd.tlpOf(f.frame());
      to.received.add(tlp);
      to.arrivals.add(arrival);
      if (to.autoFree) {
        to.freeNext(arrival);
      }
    }
    return arrival;
  }

  private void deliverAll() {
    for (int guard = 0; !wire.isEmpty(); guard++) {
      assertTrue(guard < 100_000, "the wire never drains");
      deliverOne();
    }
  }

  private void trainUp(FcCredits buffersA, FcCredits buffersB) {
    wire(buffersA, buffersB, true);
    a.end.enable();
    b.end.enable();
    deliverAll();
    assertEquals(DataLinkState.DL_ACTIVE, a.end.state());
    assertEquals(DataLinkState.DL_ACTIVE, b.end.state());
  }

  private static MemWrite write(long seq, int length) {
    return new MemWrite(REQ, (int) (seq & 0xFF), 0, 0x90000L + 64 * seq, length, null, 0, seq);
  }

  private static MemRead read(long seq) {
    return new MemRead(REQ, (int) (seq & 0xFF), 0, 0x90000L, 64, 0, seq);
  }

  private static Completion completion(long seq, int length) {
    return new Completion(Bdf.of(2, 0, 0), REQ, (int) (seq & 0xFF), 0, CompletionStatus.SUCCESSFUL,
        length, 0, length, null, 0, seq);
  }

  private static ConfigRead configRead(int tag) {
    return new ConfigRead(REQ, tag, Bdf.of(2, 0, 0), 0, 0, 0);
  }

  private static ErrorMessage error() {
    return new ErrorMessage(REQ, ErrorMessage.Severity.FATAL, ErrorMessage.Cause.SURPRISE_DOWN, 0);
  }

  // ---------------------------------------------------------------- training

  @Test
  void shouldTrainAndComeUpWhenWiredBackToBack() {
    wire(ROOMY, ROOMY, true);
    assertEquals(DataLinkState.DL_INACTIVE, a.end.state());
    a.end.enable();
    assertEquals(DataLinkState.DL_INIT, a.end.state());
    b.end.enable();
    deliverAll();
    assertTrue(a.end.isUp());
    assertTrue(b.end.isUp());
    assertEquals(1, a.ups.size());
    assertEquals(1, b.ups.size());
    assertEquals(1, a.end.counters().linkUps);
    assertTrue(a.end.counters().dllpsSent >= 2);
    assertTrue(b.end.counters().dllpsReceived >= 2);
    assertTrue(a.downs.isEmpty());
  }

  @Test
  void shouldHoldTlpsAndSendThemOnceUpWhenOfferedBeforeLinkIsUp() {
    wire(ROOMY, ROOMY, true);
    assertFalse(a.end.offer(write(0, 64), 0, "early"), "not enabled: refused");
    a.end.enable();
    assertTrue(a.end.offer(write(1, 64), 0, "t1"));
    assertTrue(a.end.offer(read(2), 0, "t2"));
    assertEquals(2, a.end.queued());
    assertTrue(a.tlpFrames.isEmpty());
    assertTrue(a.tokens.isEmpty());

    b.end.enable();
    deliverAll();
    assertEquals(List.of(1L, 2L), b.receivedSeqs());
    assertEquals(List.of("t1", "t2"), a.tokens);
    assertEquals(0, a.end.queued());
  }

  @Test
  void shouldAcceptTlpAndComeUpWhenItArrivesInPlaceOfALostFinalInitFc() {
    wire(ROOMY, ROOMY, true);
    a.end.enable();
    b.end.enable();
    // Both first InitFCs cross; then both answers; a's answer is lost.
    deliverOne(); // a -> b
    deliverOne(); // b -> a
    InFlight first = wire.poll();
    InFlight second = wire.poll();
    InFlight fromB = first.from() == b ? first : second;
    wire.add(fromB);
    deliverAll();
    assertEquals(DataLinkState.DL_ACTIVE, a.end.state());
    assertEquals(DataLinkState.DL_INIT, b.end.state());

    // a is up and sends at once; its TLP proves to b that a has b's credits.
    assertTrue(a.end.offer(write(7, 64), 0, "w"));
    assertTrue(deliverOne() >= 0, "TLP dropped by a partner that was only waiting for an InitFC");
    assertEquals(DataLinkState.DL_ACTIVE, b.end.state());
    assertEquals(0, b.end.counters().droppedLinkDown);
    assertEquals(List.of(7L), b.receivedSeqs());
  }

  // ---------------------------------------------------------------- DL_PROTECTED

  @Test
  void shouldHoldMemoryTlpsButPassConfigCompletionsAndMessagesWhenProtected() {
    wire(ROOMY, ROOMY, false);
    a.end.enable();
    b.end.enable();
    deliverAll();
    assertEquals(DataLinkState.DL_PROTECTED, a.end.state());
    assertTrue(a.ups.isEmpty(), "protected is not up for the owner");

    a.end.offer(write(1, 64), 0, "w");
    a.end.offer(read(2), 0, "r");
    a.end.offer(configRead(3), 0, "cfg");
    a.end.offer(completion(4, 16), 0, "cpl");
    a.end.offer(error(), 0, "err");
    deliverAll();
    assertEquals(List.of("cfg", "cpl", "err"), a.tokens);
    assertEquals(2, a.end.queued());
    assertTrue(b.received.get(0) instanceof ConfigRead);
    assertTrue(b.received.get(1) instanceof Completion);
    assertTrue(b.received.get(2) instanceof ErrorMessage);

    a.end.activate();
    assertEquals(DataLinkState.DL_ACTIVE, a.end.state());
    assertEquals(1, a.ups.size());
    deliverAll();
    assertEquals(List.of("cfg", "cpl", "err", "w", "r"), a.tokens);
    assertEquals(0, a.end.queued());
    assertEquals(5, b.received.size()); // b, still protected, receives everything
  }

  @Test
  void shouldRecordTrainingAndActivationInModelTimeAndHoldMemoryTlpsAgainWhenDeactivated() {
    wire(ROOMY, ROOMY, false);
    a.end.enable();
    b.end.enable();
    deliverAll();
    assertEquals(1, a.trained.size(), "the owner hears the link trained to DL_Protected");
    assertTrue(a.ups.isEmpty());
    a.end.setActive(true, 5_000);
    assertEquals(DataLinkState.DL_ACTIVE, a.end.state());
    assertEquals(5_000, a.end.counters().activatedAtNs);
    assertEquals(a.trained.get(0).longValue(), a.end.counters().trainedAtNs);
    assertEquals(1, a.end.counters().activations);
    assertTrue(a.end.modelNow() >= 5_000, "the end's clock is at the activation");

    a.end.setActive(false, 6_000);
    assertEquals(DataLinkState.DL_PROTECTED, a.end.state());
    assertEquals(1, a.end.counters().deactivations);
    a.end.offer(write(1, 64), 6_000, "w");
    deliverAll();
    assertTrue(a.tokens.isEmpty(), "a memory write waits while the port is protected");
    assertEquals(1, a.end.queued());
    a.end.setActive(true, 7_000);
    deliverAll();
    assertEquals(List.of("w"), a.tokens);
    assertEquals(2, a.end.counters().activations);
  }

  // ---------------------------------------------------------------- credits and ordering

  @Test
  void shouldHoldTlpsWhenCreditsAreExhaustedAndReleaseThemOnUpdateFc() {
    trainUp(ROOMY, new FcCredits(2, 4096, 64, 64, 64, 4096));
    for (int i = 0; i < 5; i++) {
      a.end.offer(write(i, 64), 0, "w" + i);
    }
    deliverAll();
    assertEquals(List.of(0L, 1L), b.receivedSeqs());
    assertEquals(3, a.end.queued());
    assertEquals(2, a.end.counters().tlpsSent);

    b.freeNext(100); // two headers: a quarter is one, so this returns credit
    assertEquals(1, b.updates.size());
    deliverAll();
    assertEquals(List.of(0L, 1L, 2L), b.receivedSeqs());
    assertEquals(2, a.end.queued());

    b.autoFree = true;
    b.freeAll(200);
    deliverAll();
    assertEquals(List.of(0L, 1L, 2L, 3L, 4L), b.receivedSeqs());
    assertEquals(0, a.end.queued());
    assertEquals(0, b.end.counters().receiverOverflows);
  }

  @Test
  void shouldHoldTlpWhenDataCreditsRunOutThoughHeadersRemain() {
    trainUp(ROOMY, new FcCredits(64, 8, 64, 64, 64, 4096)); // 8 data credits = 128 bytes
    a.end.offer(write(0, 100), 0, "a"); // 7 credits
    a.end.offer(write(1, 32), 0, "b"); // 2 more: 9 > 8
    deliverAll();
    assertEquals(List.of(0L), b.receivedSeqs());
    assertEquals(1, a.end.queued());
    b.freeNext(0);
    deliverAll();
    assertEquals(List.of(0L, 1L), b.receivedSeqs());
  }

  @Test
  void shouldKeepEachClassInOrderWhenCreditsTrickle() {
    trainUp(ROOMY, new FcCredits(3, 40, 2, 4, 3, 40));
    b.autoFree = true;
    Random rnd = new Random(7);
    List<Long> posted = new ArrayList<>();
    List<Long> nonPosted = new ArrayList<>();
    List<Long> completions = new ArrayList<>();
    for (long seq = 0; seq < 300; seq++) {
      switch (rnd.nextInt(3)) {
        case 0 -> {
          a.end.offer(write(seq, 1 + rnd.nextInt(256)), seq, seq);
          posted.add(seq);
        }
        case 1 -> {
          a.end.offer(read(seq), seq, seq);
          nonPosted.add(seq);
        }
        default -> {
          a.end.offer(completion(seq, rnd.nextInt(257)), seq, seq);
          completions.add(seq);
        }
      }
      for (int k = rnd.nextInt(3); k > 0 && !wire.isEmpty(); k--) {
        deliverOne();
      }
    }
    // Keepalives return whatever the batching left unadvertised.
    for (int i = 0; i < 100 && (a.end.queued() > 0 || !wire.isEmpty()); i++) {
      deliverAll();
      wall += TIMERS.keepalive().toNanos();
      b.end.tick();
      a.end.tick();
    }
    deliverAll();
    assertEquals(0, a.end.queued());
    List<Long> gotPosted = new ArrayList<>();
    List<Long> gotNonPosted = new ArrayList<>();
    List<Long> gotCompletions = new ArrayList<>();
    for (Tlp t : b.received) {
      (t.tlpClass() == TlpClass.POSTED ? gotPosted
          : t.tlpClass() == TlpClass.NON_POSTED ? gotNonPosted : gotCompletions).add(t.seq());
    }
    assertEquals(posted, gotPosted);
    assertEquals(nonPosted, gotNonPosted);
    assertEquals(completions, gotCompletions);
    assertEquals(0, b.end.counters().receiverOverflows);
    assertEquals(0, b.end.counters().droppedLinkDown);
  }

  @Test
  void shouldLetPostedWritePassWhenNonPostedRequestIsBlockedOnCredit() {
    trainUp(ROOMY, new FcCredits(64, 4096, 1, 64, 64, 4096));
    a.end.offer(read(1), 0, "r1");
    a.end.offer(read(2), 0, "r2"); // no NP credit left
    a.end.offer(write(3, 64), 0, "w3");
    deliverAll();
    assertEquals(List.of(1L, 3L), b.receivedSeqs());
    assertEquals(1, a.end.queued());
    b.freeNext(0);
    deliverAll();
    assertEquals(List.of(1L, 3L, 2L), b.receivedSeqs());
  }

  @Test
  void shouldNotLetReadOrCompletionPassWhenEarlierPostedWriteIsBlockedOnCredit() {
    // PCIe ordering: a read or a completion must not pass an earlier posted write.
    trainUp(ROOMY, new FcCredits(1, 4096, 64, 64, 64, 4096));
    a.end.offer(write(1, 64), 0, "w1");
    a.end.offer(write(2, 64), 0, "w2"); // no posted credit left
    a.end.offer(read(3), 0, "r3");
    a.end.offer(completion(4, 64), 0, "c4");
    deliverAll();
    assertEquals(List.of(1L), b.receivedSeqs());
    assertEquals(3, a.end.queued());
    b.freeNext(0);
    deliverAll();
    assertEquals(List.of(1L, 2L, 3L, 4L), b.receivedSeqs());
  }

  @Test
  void shouldLetCompletionPassWhenNonPostedRequestIsBlockedOnCredit() {
    trainUp(ROOMY, new FcCredits(64, 4096, 1, 64, 64, 4096));
    a.end.offer(read(1), 0, "r1");
    a.end.offer(read(2), 0, "r2");
    a.end.offer(completion(3, 64), 0, "c3");
    deliverAll();
    assertEquals(List.of(1L, 3L), b.receivedSeqs());
  }

  @Test
  void shouldFlagOverrunWhenPartnerSendsBeyondAdvertisedCredits() {
    trainUp(ROOMY, new FcCredits(1, 4096, 64, 64, 64, 4096));
    // A misbehaving sender bypasses its ledger and writes frames straight at b.
    assertTrue(b.end.onFrame(new TlpFrame(write(1, 64), 0)) >= 0);
    assertEquals(-1, b.end.onFrame(new TlpFrame(write(2, 64), 0)));
    assertEquals(1, b.end.counters().receiverOverflows);
    assertEquals(1, b.end.counters().tlpsReceived);
  }

  // ---------------------------------------------------------------- model time

  @Test
  void shouldArriveAtSentAtPlusSerializationPlusPropagationWhenTlpCrossesLink() {
    trainUp(ROOMY, ROOMY);
    MemWrite w = write(1, 64); // 12 + 64 + 8 = 84 bytes on the wire: 22 ns at Gen3 x4
    a.end.offer(w, 1000, "w");
    TlpFrame f = a.tlpFrames.get(0);
    assertEquals(1000, f.sentAt());
    long arrival = deliverOne();
    assertEquals(1000 + 22 + 5, arrival);
    assertEquals(f.sentAt() + P.serializationNs(Tlps.wireBytes(w)) + P.propagationNs(), arrival);
    assertTrue(b.end.modelNow() >= arrival);

    MemRead far = new MemRead(REQ, 1, 0, 0x1_0000_0000L, 64, 0, 2); // 4DW: 24 bytes, 7 ns
    a.end.offer(far, 5000, "far");
    assertEquals(5000 + 7 + 5, deliverOne());
  }

  @Test
  void shouldSpaceTlpsBySerializationTimeWhenSentBackToBack() {
    trainUp(ROOMY, ROOMY);
    MemWrite big = write(1, 4096); // 12 + 4096 + 8 = 4116 bytes: 1046 ns at Gen3 x4
    MemWrite small = write(2, 64); // 84 bytes: 22 ns
    a.end.offer(big, 1000, "big");
    a.end.offer(small, 1000, "small");
    a.end.offer(write(3, 64), 1000, "third");
    long serBig = P.serializationNs(Tlps.wireBytes(big));
    long serSmall = P.serializationNs(Tlps.wireBytes(small));
    assertEquals(1046, serBig);
    assertEquals(1000, a.tlpFrames.get(0).sentAt());
    assertEquals(1000 + serBig, a.tlpFrames.get(1).sentAt());
    assertEquals(1000 + serBig + serSmall, a.tlpFrames.get(2).sentAt());
    deliverAll();
    assertEquals(List.of(1000 + serBig + 5, 1000 + serBig + serSmall + 5,
        1000 + serBig + 2 * serSmall + 5), b.arrivals);

    // An idle egress starts a later TLP when it is ready, not when the last one ended.
    a.end.offer(write(4, 64), 100_000, "later");
    assertEquals(100_000, a.tlpFrames.get(3).sentAt());
  }

  @Test
  void shouldNotStartBeforeUpdateFcArrivesWhenTlpWasBlockedForCredits() {
    trainUp(ROOMY, new FcCredits(1, 4096, 64, 64, 64, 4096));
    a.end.offer(write(1, 64), 0, "w1");
    a.end.offer(write(2, 64), 0, "w2"); // blocked: one posted header
    deliverAll();
    assertEquals(1, a.tlpFrames.size());

    b.freeNext(10_000); // b frees it at model time 10 us
    UpdateFc u = b.updates.get(b.updates.size() - 1);
    assertEquals(10_000, u.sentAt());
    deliverAll();
    assertEquals(2, a.tlpFrames.size());
    long updateArrival = u.sentAt() + P.flightNs(DLLP_BYTES);
    assertEquals(updateArrival, a.tlpFrames.get(1).sentAt());
    assertEquals(updateArrival + P.flightNs(Tlps.wireBytes(write(2, 64))), b.arrivals.get(1));
  }

  @Test
  void shouldStartAtReadyTimeWhenCreditReturnedEarlier() {
    trainUp(ROOMY, new FcCredits(1, 4096, 64, 64, 64, 4096));
    a.end.offer(write(1, 64), 0, "w1");
    a.end.offer(write(2, 64), 50_000, "w2"); // ready only at 50 us
    deliverAll();
    b.freeNext(10_000);
    deliverAll();
    assertEquals(50_000, a.tlpFrames.get(1).sentAt());
  }

  @Test
  void shouldSendAnEarlierStampInAGapBeforeALaterOneWhenOfferedAfterIt() {
    trainUp(ROOMY, ROOMY);
    a.end.offer(write(1, 64), 45_000, "late"); // host software ran ahead
    a.end.offer(write(2, 64), 30_000, "early"); // a generator's write, offered after it
    assertEquals(45_000, a.tlpFrames.get(0).sentAt());
    assertEquals(30_000, a.tlpFrames.get(1).sentAt(), "it does not wait behind the later stamp");
  }

  // ---------------------------------------------------------------- fault horizon

  @Test
  void shouldHoldTlpsStampedAtOrAfterTheHorizonAndLetEarlierOnesPassWhenAFaultIsDue() {
    trainUp(ROOMY, ROOMY);
    a.end.holdFrom(40_000);
    a.end.offer(write(1, 64), 45_000, "after");
    a.end.offer(write(2, 64), 39_000, "before"); // passes the held write: it is stamped earlier
    a.end.offer(read(3), 40_000, "at"); // stamped at the horizon: held too
    assertEquals(1, a.tlpFrames.size(), "only the write stamped before the horizon leaves");
    assertEquals(2L, a.tlpFrames.get(0).tlp().seq());
    assertEquals(2, a.end.queued());
    assertEquals(0, a.end.queuedBeforeHorizon());

    a.end.holdFrom(Long.MAX_VALUE); // the fault is applied: what was held moves on
    assertEquals(3, a.tlpFrames.size());
    assertEquals(List.of(1L, 3L), List.of(a.tlpFrames.get(1).tlp().seq(), a.tlpFrames.get(2).tlp().seq()),
        "in the order offered");
    assertEquals(0, a.end.queued());
  }

  @Test
  void shouldLoseHeldTlpsAtThisEndWhenTheLinkGoesDownAtTheHorizon() {
    trainUp(ROOMY, ROOMY);
    a.end.holdFrom(40_000);
    a.end.offer(write(1, 64), 39_500, "crossed");
    a.end.offer(write(2, 64), 40_100, "in-flight-at-the-fault");
    a.end.disable(40_000);
    assertEquals(1, a.downs.size());
    assertEquals(40_000, a.downs.get(0).at(), "the down is stamped with the fault, not a held TLP");
    assertEquals(List.of("in-flight-at-the-fault"), a.downs.get(0).purged().stream().map(LinkEnd.Queued::token).toList());
    assertEquals(1, a.end.counters().purged);
    deliverAll();
    assertEquals(List.of(1L), b.receivedSeqs());
  }

  // ---------------------------------------------------------------- going down

  @Test
  void shouldPurgeQueueAndReportTokensWhenLinkGoesDown() {
    trainUp(ROOMY, new FcCredits(1, 4096, 64, 64, 64, 4096));
    MemWrite w2 = write(2, 64);
    MemRead r3 = read(3);
    a.end.offer(write(1, 64), 0, "t1");
    a.end.offer(w2, 0, "t2"); // held: no credit
    a.end.offer(r3, 0, "t3"); // held: must not pass w2
    assertEquals(2, a.end.queued());

    a.end.disable(500);
    assertEquals(DataLinkState.DL_INACTIVE, a.end.state());
    assertEquals(1, a.downs.size());
    Down down = a.downs.get(0);
    assertEquals(ErrorMessage.Cause.SURPRISE_DOWN, down.cause());
    assertTrue(down.at() >= 500);
    assertEquals(2, down.purged().size());
    List<Object> purgedTokens = new ArrayList<>();
    for (LinkEnd.Queued q : down.purged()) {
      purgedTokens.add(q.token());
    }
    assertTrue(purgedTokens.containsAll(List.of("t2", "t3")), purgedTokens.toString());
    for (LinkEnd.Queued q : down.purged()) {
      assertSame(q.token().equals("t2") ? w2 : r3, q.tlp());
    }
    assertEquals(0, a.end.queued());
    assertEquals(2, a.end.counters().purged);
    assertEquals(1, a.end.counters().linkDowns);
    assertEquals(List.of("t1"), a.tokens);
    assertFalse(a.end.offer(write(9, 64), 600, "refused"));

    deliverAll(); // t1, sent before the PhysicalDown, still arrives; then b goes down
    assertEquals(List.of(1L), b.receivedSeqs());
    assertEquals(DataLinkState.DL_INACTIVE, b.end.state());
    assertEquals(ErrorMessage.Cause.SURPRISE_DOWN, b.downs.get(0).cause());
  }

  @Test
  void shouldDropTlpsWhenTheyArriveAfterPartnerWentDown() {
    trainUp(ROOMY, ROOMY);
    a.end.offer(write(1, 64), 0, "w1"); // on the wire, not yet delivered
    a.end.offer(write(2, 64), 0, "w2");
    b.end.disable(100);
    assertEquals(1, b.downs.size());
    assertEquals(-1, deliverOne());
    assertEquals(-1, deliverOne());
    assertEquals(2, b.end.counters().droppedLinkDown);
    assertTrue(b.received.isEmpty());
    deliverOne(); // b's PhysicalDown reaches a
    assertEquals(DataLinkState.DL_INACTIVE, a.end.state());
    assertEquals(ErrorMessage.Cause.SURPRISE_DOWN, a.downs.get(0).cause());
  }

  @Test
  void shouldStampTheLinkDownWithTheFaultTimeWhenLaterTlpsCrossedFirst() {
    trainUp(ROOMY, ROOMY);
    // Both ends have already carried a TLP stamped long after the fault (it got there first in wall time).
    a.end.offer(write(1, 64), 50_000, "late");
    deliverAll();
    assertTrue(a.end.modelNow() >= 50_000 && b.end.modelNow() >= 50_000);
    a.end.disable(1_000);
    assertEquals(1_000, a.downs.get(0).at(), "this end's AER is at the fault");
    deliverAll(); // the PhysicalDown
    assertEquals(1_000 + P.propagationNs(), b.downs.get(0).at(),
        "the partner is down when the electrical idle reaches it, not at the latest time it saw");
  }

  @Test
  void shouldRefuseOffersWhenLinkIsDown() {
    wire(ROOMY, ROOMY, true);
    assertFalse(a.end.offer(write(1, 64), 0, "x")); // never enabled
    a.end.enable();
    b.end.enable();
    deliverAll();
    assertTrue(a.end.offer(write(2, 64), 0, "y"));
    a.end.disable(0);
    assertFalse(a.end.offer(write(3, 64), 0, "z"));
    wall += 10_000 * MS;
    a.end.tick();
    assertFalse(a.end.offer(write(4, 64), 0, "z")); // disabled: no retraining
    assertEquals(DataLinkState.DL_INACTIVE, a.end.state());
    a.end.enable();
    assertTrue(a.end.offer(write(5, 64), 0, "held")); // training again: held until up
  }

  @Test
  void shouldTimeOutAndPurgeWhenPartnerFallsSilent() {
    trainUp(ROOMY, new FcCredits(1, 4096, 64, 64, 64, 4096));
    a.end.offer(write(1, 64), 0, "sent");
    a.end.offer(write(2, 64), 0, "held");
    wire.clear(); // b vanished: nothing comes back
    wall += TIMERS.dllpTimeout().toNanos() + 1;
    a.end.tick();
    assertEquals(DataLinkState.DL_INACTIVE, a.end.state());
    assertEquals(ErrorMessage.Cause.DLLP_TIMEOUT, a.downs.get(0).cause());
    assertEquals("held", a.downs.get(0).purged().get(0).token());
    assertFalse(a.end.offer(write(3, 64), 0, "x"));
  }

  @Test
  void shouldSendKeepaliveWhenIdleAndKeepPartnerUp() {
    trainUp(ROOMY, ROOMY);
    for (int i = 1; i <= 20; i++) {
      wall += TIMERS.keepalive().toNanos();
      a.end.tick();
      b.end.tick();
      deliverAll();
    }
    assertTrue(a.updates.size() >= 20, "keepalives sent: " + a.updates.size());
    assertEquals(DataLinkState.DL_ACTIVE, a.end.state());
    assertEquals(DataLinkState.DL_ACTIVE, b.end.state());
    assertTrue(a.downs.isEmpty());
  }

  @Test
  void shouldReturnNoCreditWhenFreeingAfterLinkWentDown() {
    trainUp(ROOMY, new FcCredits(1, 4096, 64, 64, 64, 4096));
    a.end.offer(write(1, 64), 0, "w1");
    deliverAll();
    b.end.disable(0);
    int before = b.updates.size();
    b.freeNext(10);
    assertEquals(before, b.updates.size());
  }

  @Test
  void shouldRetrainWithFreshCreditsWhenPartnerRestarts() {
    trainUp(ROOMY, new FcCredits(2, 4096, 64, 64, 64, 4096));
    a.end.offer(write(1, 64), 0, "w1");
    a.end.offer(write(2, 64), 0, "w2");
    a.end.offer(write(3, 64), 0, "w3"); // held: b's two headers are taken
    deliverAll();
    wire.clear();

    // b's port restarts: a new LinkEnd with a new incarnation seed and the same buffers.
    Side b2 = new Side(new FcCredits(2, 4096, 64, 64, 64, 4096), true, 3);
    b2.partner = a;
    a.partner = b2;
    b2.end.enable();
    deliverAll();
    assertEquals(1, a.downs.size());
    assertEquals(List.of("w3"), tokensOf(a.downs.get(0).purged()));
    assertEquals(DataLinkState.DL_ACTIVE, a.end.state());
    assertEquals(2, a.ups.size());

    // The old training's consumption is forgotten: two more go through at once.
    a.end.offer(write(4, 64), 0, "w4");
    a.end.offer(write(5, 64), 0, "w5");
    deliverAll();
    assertEquals(List.of(4L, 5L), b2.receivedSeqs());
  }

  @Test
  void shouldComeUpThroughRetryTimerWhenFinalInitFcIsLostAndNothingElseFlows() {
    wire(ROOMY, ROOMY, true);
    a.end.enable();
    b.end.enable();
    deliverOne();
    deliverOne();
    InFlight first = wire.poll();
    InFlight second = wire.poll();
    wire.add(first.from() == b ? first : second); // a's answer is lost
    deliverAll();
    assertEquals(DataLinkState.DL_INIT, b.end.state());
    wall += TIMERS.initRetry().toNanos();
    b.end.tick(); // resends its InitFC
    deliverAll(); // a answers with an UpdateFC, which brings b up
    assertEquals(DataLinkState.DL_ACTIVE, b.end.state());
    assertEquals(DataLinkState.DL_ACTIVE, a.end.state());
    assertTrue(a.downs.isEmpty());
    assertTrue(b.downs.isEmpty());
  }

  @Test
  void shouldDeliverEverythingInOrderWithoutOverlapWhenTrafficFlowsBothWays() {
    FcCredits small = new FcCredits(4, 300, 2, 2, 4, 300);
    trainUp(small, small);
    Random rnd = new Random(2024);
    List<List<Long>> offered = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      offered.add(new ArrayList<>());
    }
    long modelNow = 0;
    for (long seq = 0; seq < 2000; seq++) {
      Side from = rnd.nextBoolean() ? a : b;
      int side = from == a ? 0 : 3;
      modelNow += rnd.nextInt(40);
      Tlp tlp;
      switch (rnd.nextInt(3)) {
        case 0 -> tlp = write(seq, 1 + rnd.nextInt(4096));
        case 1 -> tlp = read(seq);
        default -> tlp = completion(seq, rnd.nextInt(4097));
      }
      offered.get(side + tlp.tlpClass().ordinal()).add(seq);
      assertTrue(from.end.offer(tlp, modelNow, seq));
      for (int k = rnd.nextInt(4); k > 0 && !wire.isEmpty(); k--) {
        deliverOne();
      }
      for (Side s : List.of(a, b)) {
        while (s.freed < s.received.size() && rnd.nextInt(3) > 0) {
          s.freeNext(modelNow + rnd.nextInt(500));
        }
      }
    }
    for (int i = 0; i < 1000 && (a.end.queued() + b.end.queued() > 0 || !wire.isEmpty()); i++) {
      deliverAll();
      a.freeAll(modelNow);
      b.freeAll(modelNow);
      wall += TIMERS.keepalive().toNanos(); // keepalives return what batching left behind
      a.end.tick();
      b.end.tick();
    }
    assertEquals(0, a.end.queued() + b.end.queued());
    for (Side s : List.of(a, b)) {
      int side = s == a ? 3 : 0; // what s received was offered at the other end
      List<List<Long>> got = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
      for (Tlp t : s.received) {
        got.get(t.tlpClass().ordinal()).add(t.seq());
      }
      for (int c = 0; c < 3; c++) {
        assertEquals(offered.get(side + c), got.get(c), "class " + c);
      }
      assertEquals(0, s.end.counters().receiverOverflows);
      assertEquals(0, s.end.counters().droppedLinkDown);
      // The wire carries one frame at a time: in model time no two frames overlap.
      List<TlpFrame> byStart = new ArrayList<>(s.tlpFrames);
      byStart.sort(java.util.Comparator.comparingLong(TlpFrame::sentAt));
      for (int i = 1; i < byStart.size(); i++) {
        TlpFrame prev = byStart.get(i - 1);
        long prevEnd = prev.sentAt() + P.serializationNs(Tlps.wireBytes(prev.tlp()));
        assertTrue(byStart.get(i).sentAt() >= prevEnd, "overlap at frame " + i);
      }
      // Arrival = sent + serialization + propagation, frame by frame.
      Side to = s.partner;
      for (int i = 0; i < s.tlpFrames.size(); i++) {
        TlpFrame f = s.tlpFrames.get(i);
        assertSame(f.tlp(), to.received.get(i));
        assertEquals(f.sentAt() + P.flightNs(Tlps.wireBytes(f.tlp())), to.arrivals.get(i));
      }
    }
  }

  private static List<Object> tokensOf(List<LinkEnd.Queued> queued) {
    List<Object> tokens = new ArrayList<>();
    for (LinkEnd.Queued q : queued) {
      tokens.add(q.token());
    }
    return tokens;
  }

  // ---------------------------------------------------------------- frees across a retrain

  @Test
  void shouldAbsorbFreesOfTlpsHeldAcrossALinkFlapWhenTheLinkRetrains() {
    FcCredits small = new FcCredits(8, 512, 8, 64, 8, 512);
    trainUp(small, small);
    b.autoFree = false;
    for (long s = 0; s < 6; s++) {
      assertTrue(a.end.offer(write(s, 64), 0, "old" + s));
    }
    deliverAll();
    assertEquals(6, b.received.size());
    // The link flaps while b still holds the six TLPs (forwarded inside a switch, say).
    b.end.disable(0);
    deliverAll();
    b.end.enable();
    a.end.enable();
    deliverAll();
    assertTrue(a.end.isUp() && b.end.isUp());
    // Freeing the old TLPs now must neither throw nor hand the new training credit it never used.
    b.freeAll(0);
    deliverAll();
    b.autoFree = true;
    for (long s = 0; s < 8; s++) {
      assertTrue(a.end.offer(write(100 + s, 64), 0, "new" + s));
    }
    deliverAll();
    assertEquals(0, b.end.counters().receiverOverflows);
    assertEquals(14, b.received.size());
  }

  // ---------------------------------------------------------------- data link retry

  private void tickBoth() {
    wall += TIMERS.tickInterval().toNanos();
    a.end.tick();
    b.end.tick();
    deliverAll();
  }

  private static final long FOREVER = Long.MAX_VALUE;

  @Test
  void shouldDeliverEverythingInOrderThroughReplaysWhenTlpsAreCorrupted() {
    trainUp(ROOMY, ROOMY);
    b.autoFree = true;
    a.end.injectErrors(new LinkErrors(0, 0.2, 0, 0, 0, FOREVER, 11));
    List<Long> sent = new ArrayList<>();
    for (long seq = 1; seq <= 300; seq++) { // more than the 64 posted headers: credits must come back
      a.end.offer(write(seq, 64), seq * 10, "w" + seq);
      sent.add(seq);
      if (seq % 20 == 0) {
        deliverAll();
      }
    }
    deliverAll();
    // A corrupted replay of the TLP a Nak asked for gets no second Nak (NAK_SCHEDULED): the
    // replay timer recovers it, on the ticks.
    for (int i = 0; i < 400 && b.received.size() < sent.size(); i++) {
      tickBoth();
    }
    assertEquals(sent, b.receivedSeqs(), "every TLP, once, in order");
    LinkCounters ca = a.end.counters();
    LinkCounters cb = b.end.counters();
    assertTrue(ca.injectedCorrupt > 0);
    assertEquals(ca.injectedCorrupt, cb.badLcrc);
    assertTrue(ca.replays > 0 && ca.tlpsReplayed > 0);
    assertTrue(cb.naksSent > 0 && cb.naksSent <= cb.badLcrc);
    assertEquals(300, ca.tlpsSent, "a replay is not a new transmission");
    assertTrue(a.downs.isEmpty() && b.downs.isEmpty());
    assertEquals(0, ca.replayRollovers);
  }

  @Test
  void shouldReplayOnTheTimerWhenTheLastTlpIsDropped() {
    trainUp(ROOMY, ROOMY);
    b.autoFree = true;
    a.end.injectErrors(new LinkErrors(1, 0, 0, 0, 0, 100, 5)); // only what starts before 100ns
    a.end.offer(write(1, 64), 50, "lost");
    deliverAll();
    assertTrue(b.received.isEmpty());
    tickBoth();
    tickBoth();
    tickBoth(); // the replay timer is looked at after 3 idle ticks
    assertEquals(List.of(1L), b.receivedSeqs());
    assertEquals(1, a.end.counters().replayTimeouts);
    // The replay left when the timer ran out in model time: 1us after the drop.
    long replayStart = 50 + ReplayParameters.defaults().timeoutNs();
    assertEquals(replayStart + P.flightNs(Tlps.wireBytes(write(1, 64))), (long) b.arrivals.get(0));
    tickBoth(); // b's Ack
    a.end.offer(write(2, 64), 2_000, "plain");
    assertTrue(a.tlpFrames.size() > 0, "all acknowledged and the window over: plain TLP frames again");
    assertEquals(2, a.tlpFrames.get(a.tlpFrames.size() - 1).tlp().seq());
  }

  @Test
  void shouldTakeTheLinkDownWhenReplaysPastTheLimitAreAllDropped() {
    trainUp(ROOMY, ROOMY);
    a.end.injectErrors(new LinkErrors(1, 0, 0, 0, 0, FOREVER, 5));
    for (long seq = 1; seq <= 3; seq++) {
      a.end.offer(write(seq, 64), 100, "w" + seq);
    }
    for (int i = 0; i < 3 * 5 && a.downs.isEmpty(); i++) {
      tickBoth();
    }
    assertEquals(1, a.downs.size());
    assertEquals(ErrorMessage.Cause.REPLAY_ROLLOVER, a.downs.get(0).cause());
    assertEquals(4, a.end.counters().replays, "REPLAY_NUM: four replays, then the link goes down");
    assertEquals(1, a.end.counters().replayRollovers);
    assertEquals(3, a.end.counters().unackedOnDown);
    assertTrue(a.downs.get(0).at() > 100 + 5 * ReplayParameters.defaults().timeoutNs(),
        "down in model time after five replay timeouts");
    assertEquals(ErrorMessage.Cause.SURPRISE_DOWN, b.downs.get(0).cause(), "the partner sees the link go");
    assertTrue(b.received.isEmpty());
    // The link retrains as PCIe does; with the errors stopped, TLPs flow again.
    a.end.injectErrors(LinkErrors.NONE);
    wall += TIMERS.retryInterval().toNanos();
    tickBoth();
    assertTrue(a.end.isUp() && b.end.isUp());
    b.autoFree = true;
    a.end.offer(write(9, 64), 20_000, "after");
    deliverAll();
    assertEquals(List.of(9L), b.receivedSeqs());
  }

  @Test
  void shouldAddTheDelayToTheArrivalWhenATlpIsDelayed() {
    trainUp(ROOMY, ROOMY);
    a.end.injectErrors(new LinkErrors(0, 0, 1, 500, 0, FOREVER, 3));
    a.end.offer(write(1, 64), 1_000, "late");
    deliverAll();
    assertEquals(1_000 + 500 + P.flightNs(Tlps.wireBytes(write(1, 64))), (long) b.arrivals.get(0));
    assertEquals(1, a.end.counters().injectedDelays);
  }

  @Test
  void shouldSendPlainFramesAndNoAcksWhenNoErrorsWereInjected() {
    trainUp(ROOMY, ROOMY);
    b.autoFree = true;
    for (long seq = 1; seq <= 40; seq++) {
      a.end.offer(write(seq, 64), seq, "w");
    }
    assertEquals(40, a.tlpFrames.size());
    deliverAll();
    tickBoth();
    assertEquals(0, b.end.counters().acksSent);
    assertEquals(40, b.received.size());
  }

  @Test
  void shouldGoDownBySurpriseAndTellNobodyWhenThePartnerIsLost() {
    trainUp(ROOMY, ROOMY);
    int onWire = wire.size();
    a.end.partnerLost(); // its actor died unannounced (see PartnerLink.gone)
    assertEquals(DataLinkState.DL_INACTIVE, a.end.state());
    assertEquals(1, a.downs.size());
    assertEquals(ErrorMessage.Cause.SURPRISE_DOWN, a.downs.get(0).cause());
    assertEquals(1, a.end.counters().linkDowns);
    assertEquals(onWire, wire.size(), "nothing sent: there is nobody to tell");
    assertFalse(a.end.offer(write(1, 64), 0, "refused"), "a down link takes nothing");
  }
}
