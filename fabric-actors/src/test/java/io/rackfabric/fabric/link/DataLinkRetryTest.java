package io.rackfabric.fabric.link;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.fabric.tlp.Bdf;
import io.rackfabric.fabric.tlp.MemWrite;
import io.rackfabric.fabric.tlp.Tlp;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The data link retry against a recording host, with model times given by hand. */
class DataLinkRetryTest {

  private static final LinkParameters P = LinkParameters.gen3x4();
  private static final long FOREVER = Long.MAX_VALUE;

  private final List<LinkFrame> sent = new ArrayList<>();
  private final List<Long> rollovers = new ArrayList<>();
  private final LinkCounters counters = new LinkCounters();
  private long observed;
  private int rooms;
  private boolean up = true;

  private final DataLinkRetry.Host host = new DataLinkRetry.Host() {
    @Override
    public long eventFloor() {
      return Long.MIN_VALUE;
    }

    @Override
    public void send(LinkFrame frame) {
      sent.add(frame);
    }

    @Override
    public void observe(long modelAt) {
      observed = Math.max(observed, modelAt);
    }

    @Override
    public boolean isUp() {
      return up;
    }

    @Override
    public void sent() {}

    @Override
    public void room() {
      rooms++;
    }

    @Override
    public void rollover(long at) {
      rollovers.add(at);
    }
  };

  private DataLinkRetry retry(ReplayParameters params) {
    return new DataLinkRetry(P, params, new WireCalendar(), counters, host);
  }

  private static MemWrite write(long seq) {
    return new MemWrite(Bdf.of(1, 0, 0), (int) seq, 0, 0x90000L, 64, null, 0, seq);
  }

  @Test
  void shouldSendPlainFramesAndKeepNothingWhenNoErrorsWereInjected() {
    DataLinkRetry r = retry(ReplayParameters.defaults());
    Tlp w = write(1);
    r.transmit(w, 10);

    assertEquals(List.of(new TlpFrame(w, 10)), sent);
    assertFalse(r.full());
  }

  @Test
  void shouldReplayWhatTheInjectedErrorsDroppedWhenANakArrives() {
    DataLinkRetry r = retry(ReplayParameters.defaults());
    r.injectErrors(new LinkErrors(1, 0, 0, 0, 0, 100, 7)); // drops what starts before 100 ns
    Tlp w = write(1);
    r.transmit(w, 10);
    assertTrue(sent.isEmpty());
    assertEquals(1, counters.injectedDrops);

    r.onAckNak(new AckNak(true, 0, 400), 500);

    assertEquals(List.of(new SequencedTlp(w, 1, 500)), sent);
    assertEquals(1, counters.replays);
    assertEquals(1, counters.tlpsReplayed);
    assertEquals(1, counters.naksReceived);
    assertEquals(500, observed);
  }

  @Test
  void shouldGiveUpTheLinkWhenEveryReplayUpToTheLimitIsLost() {
    ReplayParameters params = ReplayParameters.defaults();
    DataLinkRetry r = retry(params);
    r.injectErrors(new LinkErrors(1, 0, 0, 0, 0, FOREVER, 7));
    r.transmit(write(1), 10);

    for (int tick = 0; tick < 100 && rollovers.isEmpty(); tick++) {
      r.tick();
    }

    assertEquals(1, rollovers.size());
    assertEquals(params.limit(), counters.replays);
    assertEquals(params.limit(), counters.replayTimeouts - 1, "the last timeout found REPLAY_NUM spent");
    assertEquals(1, counters.replayRollovers);
  }

  @Test
  void shouldDiscardAndAcknowledgeADuplicateWhenItArrivesAgain() {
    DataLinkRetry r = retry(ReplayParameters.defaults());
    int actions = r.receive(1, 100);
    assertTrue((actions & ReplayReceiver.ACCEPT) != 0);
    r.accepted(actions, 100);
    assertTrue(sent.isEmpty(), "Acks are coalesced");

    assertEquals(0, r.receive(1, 200) & ReplayReceiver.ACCEPT);

    assertEquals(List.of(new AckNak(false, 1, 200)), sent);
    assertEquals(1, counters.duplicatesDiscarded);
  }

  @Test
  void shouldNakOnceWhenTlpsArriveAfterAGap() {
    DataLinkRetry r = retry(ReplayParameters.defaults());
    r.receive(2, 100);
    r.receive(3, 110);
    r.corrupted(120);

    assertEquals(List.of(new AckNak(true, 0, 100)), sent);
    assertEquals(2, counters.outOfSequence);
    assertEquals(1, counters.badLcrc);
    assertEquals(1, counters.naksSent);
  }

  @Test
  void shouldSendTheCoalescedAckOnTheTickWhenTimersRunOnTheWallClock() {
    DataLinkRetry r = retry(ReplayParameters.defaults());
    r.accepted(r.receive(1, 100), 100);
    r.tick();

    assertEquals(List.of(new AckNak(false, 1, 100)), sent);
  }

  @Test
  void shouldAckAThirdOfTheReplayTimeoutLaterWhenTimersAreModelEvents() {
    DataLinkRetry r = retry(ReplayParameters.defaults());
    List<Long> at = new ArrayList<>();
    List<Runnable> actions = new ArrayList<>();
    r.useModelTimers((t, action) -> {
      at.add(t);
      actions.add(action);
    });
    r.accepted(r.receive(1, 100), 100);
    r.tick();
    assertTrue(sent.isEmpty(), "the wall-clock tick leaves model-time timers alone");

    actions.get(0).run();

    long ackAt = 100 + ReplayParameters.defaults().timeoutNs() / 3;
    assertEquals(List.of(ackAt), at);
    assertEquals(List.of(new AckNak(false, 1, ackAt)), sent);
  }

  @Test
  void shouldMakeRoomWhenAnAckFreesAFullReplayBuffer() {
    DataLinkRetry r = retry(new ReplayParameters(1_000, 4, 1, 2, 3));
    r.injectErrors(new LinkErrors(0, 0, 1, 50, 0, FOREVER, 7)); // everything late, nothing lost
    r.transmit(write(1), 10);
    r.transmit(write(2), 20);
    assertTrue(r.full());
    SequencedTlp delayed = assertInstanceOf(SequencedTlp.class, sent.get(0));
    assertEquals(60, delayed.sentAt());

    r.onAckNak(new AckNak(false, 2, 90), 100);

    assertFalse(r.full());
    assertEquals(1, rooms);
  }

  @Test
  void shouldIgnoreAnAckFromBeforeTheLinkWentDownWhenItArrivesAfter() {
    DataLinkRetry r = retry(ReplayParameters.defaults());
    r.injectErrors(new LinkErrors(1, 0, 0, 0, 0, FOREVER, 7));
    r.transmit(write(1), 10);
    up = false;

    r.onAckNak(new AckNak(true, 0, 90), 100);

    assertEquals(0, counters.replays);
    assertEquals(100, observed, "the end's clock still moves");
  }
}
