package io.rackfabric.fabric.link;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.fabric.credit.FcCredits;
import io.rackfabric.fabric.tlp.Bdf;
import io.rackfabric.fabric.tlp.ErrorMessage;
import io.rackfabric.fabric.tlp.MemWrite;
import io.rackfabric.fabric.tlp.Tlp;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import org.junit.jupiter.api.Test;

/**
 * A retraining after a replay rollover under the kernel, step by step: two link ends whose
 * model-time events (their timers and the model-time frames between them) the test runs one at a
 * time in model-time order, as the kernel would, with an injected wall clock that jumps ahead
 * between the steps. Link management outside the model (the physical down) is delivered before the
 * next event.
 */
class ModelTimeRetrainTest {

  private static final LinkParameters P = LinkParameters.gen3x4();
  private static final FcCredits ROOMY = new FcCredits(64, 4096, 64, 64, 64, 4096);
  /** Dilated 1000 times: 5 ms of wall time, 5 us of model time. */
  private static final LinkTimers TIMERS = new LinkTimers(Duration.ofMillis(100), Duration.ofMillis(1500),
      Duration.ofMillis(50), Duration.ofSeconds(1), Duration.ofMillis(5), 1000.0);
  private static final long RETRY_NS = 5_000;
  /** An InitFC's flight: a DLLP's. */
  private static final long INIT_FLIGHT = P.flightNs(Reception.DLLP_BYTES);
  private static final long FOREVER = Long.MAX_VALUE;

  private long wall;
  private long order;
  private final PriorityQueue<Event> events =
      new PriorityQueue<>(Comparator.comparingLong(Event::at).thenComparingLong(Event::order));
  private final ArrayDeque<Runnable> outsideTheModel = new ArrayDeque<>();

  private record Event(long at, long order, LinkEnd end, Runnable action) {}

  private final class Side implements LinkEnd.Listener {
    final LinkEnd end;
    Side partner;
    final List<Long> ups = new ArrayList<>();
    final List<ErrorMessage.Cause> downs = new ArrayList<>();
    final List<Long> downAts = new ArrayList<>();
    final List<InitFc> inits = new ArrayList<>();
    final List<Long> received = new ArrayList<>();

    Side(long seed) {
      end = new LinkEnd(P, ROOMY, TIMERS, true, seed, this, () -> wall);
    }

    @Override
    public void send(LinkFrame frame) {
      if (frame instanceof InitFc i) {
        inits.add(i);
      }
      LinkEnd to = partner.end;
      long at = to.modelArrival(frame);
      if (at < 0) {
        outsideTheModel.add(() -> to.onFrame(frame));
        return;
      }
      events.add(new Event(at, order++, to, () -> {
        long arrival = to.onFrame(frame);
        if (arrival >= 0) {
          Tlp tlp = LinkEnd.tlpOf(frame);
          partner.received.add(tlp.seq());
          to.free(tlp, arrival);
        }
      }));
    }

    @Override
    public void transmitted(Object token, Tlp tlp, long sentAt) {}

    @Override
    public void linkUp(long modelAt) {
      ups.add(modelAt);
    }

    @Override
    public void linkDown(ErrorMessage.Cause cause, long modelAt, List<LinkEnd.Queued> purged) {
      downs.add(cause);
      downAts.add(modelAt);
    }

    void underTheKernel() {
      end.useModelTimers((at, action) -> events.add(new Event(at, order++, end, action)));
    }
  }

  private final Side a = new Side(1);
  private final Side b = new Side(2);

  ModelTimeRetrainTest() {
    a.partner = b;
    b.partner = a;
  }

  private void deliverOutsideTheModel() {
    while (!outsideTheModel.isEmpty()) {
      outsideTheModel.poll().run();
    }
  }

  /** Handles the next model-time event, as its end's synchronizer would; returns its time. */
  private long step() {
    deliverOutsideTheModel();
    Event e = events.poll();
    assertNotNull(e, "a model-time event is due");
    e.end().beginEvent(e.at());
    try {
      e.action().run();
    } finally {
      e.end().endEvent();
    }
    deliverOutsideTheModel();
    return e.at();
  }

  /** Steps until {@code side} is up again; returns the last event's time. */
  private long stepUntilUp(Side side) {
    long at = -1;
    for (int guard = 0; !side.end.isUp(); guard++) {
      assertTrue(guard < 1_000, "the link comes up");
      at = step();
    }
    return at;
  }

  /** The wall clock runs far ahead and both ends look at their timers, as on a slow machine. */
  private void wallClockRunsAhead() {
    wall += Duration.ofSeconds(10).toNanos();
    a.end.tick();
    b.end.tick();
    deliverOutsideTheModel();
  }

  private static MemWrite write(long seq) {
    return new MemWrite(Bdf.of(1, 0, 0), (int) (seq & 0xFF), 0, 0x90000L + 64 * seq, 64, null, 0, seq);
  }

  /** Trains at the rack's start (outside the model), joins the kernel, and rolls over: A's down time. */
  private long rollOver() {
    a.end.enable();
    b.end.enable();
    deliverOutsideTheModel();
    assertTrue(a.end.isUp() && b.end.isUp());
    a.underTheKernel();
    b.underTheKernel();
    a.end.injectErrors(new LinkErrors(1, 0, 0, 0, 0, FOREVER, 5));
    a.end.beginEvent(100);
    assertTrue(a.end.offer(write(1), 100, "w1"));
    a.end.endEvent();
    for (int guard = 0; a.downs.isEmpty(); guard++) {
      assertTrue(guard < 1_000, "the replays roll over");
      step();
    }
    a.end.injectErrors(LinkErrors.NONE);
    return a.downAts.get(0);
  }

  @Test
  void shouldComeUpAtTheRetryIntervalPlusInitFcFlightsWhenTheReplayRollsOverUnderTheKernel() {
    long down = rollOver();
    assertEquals(List.of(ErrorMessage.Cause.REPLAY_ROLLOVER), a.downs);
    deliverOutsideTheModel();
    assertEquals(List.of(ErrorMessage.Cause.SURPRISE_DOWN), b.downs);
    assertEquals(List.of(down + P.propagationNs()), b.downAts, "the partner down when the idle arrives");
    int initsBefore = a.inits.size() + b.inits.size();

    wallClockRunsAhead();
    assertEquals(DataLinkState.DL_INACTIVE, a.end.state(), "no wall-clock retry interval");
    assertEquals(DataLinkState.DL_INACTIVE, b.end.state());
    assertEquals(initsBefore, a.inits.size() + b.inits.size(), "no InitFC on the wall clock");

    // The retry interval, in model time: A trains again and sends a timed InitFC.
    assertEquals(RETRY_NS, TIMERS.modelRetryIntervalNs());
    assertEquals(down + RETRY_NS, step());
    assertEquals(DataLinkState.DL_INIT, a.end.state());
    InitFc first = a.inits.get(a.inits.size() - 1);
    assertTrue(first.timed());
    assertEquals(down + RETRY_NS, first.sentAt());

    wallClockRunsAhead(); // no resend, no giving up on the wall clock
    assertEquals(DataLinkState.DL_INIT, a.end.state());
    assertEquals(first, a.inits.get(a.inits.size() - 1));

    // B trains on A's InitFC at its arrival and answers; A is up on the answer, B on A's reply.
    assertEquals(down + RETRY_NS + INIT_FLIGHT, step());
    assertEquals(DataLinkState.DL_INIT, b.end.state());
    assertEquals(down + RETRY_NS + INIT_FLIGHT, b.inits.get(b.inits.size() - 1).sentAt());
    assertEquals(down + RETRY_NS + 2 * INIT_FLIGHT, step());
    assertEquals(List.of(down + RETRY_NS + 2 * INIT_FLIGHT), a.ups.subList(1, a.ups.size()));
    assertEquals(DataLinkState.DL_INIT, b.end.state());
    wallClockRunsAhead(); // A's keepalive, on the wall clock, does not complete B's training
    assertEquals(DataLinkState.DL_INIT, b.end.state());
    assertEquals(down + RETRY_NS + 3 * INIT_FLIGHT, stepUntilUp(b));
    assertEquals(List.of(down + RETRY_NS + 3 * INIT_FLIGHT), b.ups.subList(1, b.ups.size()));
  }

  @Test
  void shouldRefuseOffersByModelTimeUntilTheLinkIsUpAgainWhenItRetrains() {
    long down = rollOver();
    long up = down + RETRY_NS + 2 * INIT_FLIGHT;
    wallClockRunsAhead();
    a.end.beginEvent(up - 1);
    assertFalse(a.end.offer(write(2), up - 1, "w2"), "refused while down, however long in wall time");
    a.end.endEvent();
    assertEquals(up, stepUntilUp(a));
    a.end.beginEvent(up);
    assertTrue(a.end.offer(write(3), up, "w3"));
    a.end.endEvent();
    while (!events.isEmpty()) {
      step();
    }
    assertEquals(List.of(3L), b.received, "the write offered once the link was up crossed it");
  }

  @Test
  void shouldRetrainOnTheWallClockWhenFreeRunning() {
    a.end.enable();
    b.end.enable();
    deliverOutsideTheModel();
    a.end.injectErrors(new LinkErrors(1, 0, 0, 0, 0, FOREVER, 5));
    assertTrue(a.end.offer(write(1), 100, "w1"));
    for (int guard = 0; a.downs.isEmpty(); guard++) {
      assertTrue(guard < 1_000, "the replays roll over");
      wall += TIMERS.tickInterval().toNanos();
      a.end.tick();
      b.end.tick();
      deliverOutsideTheModel();
    }
    a.end.injectErrors(LinkErrors.NONE);
    deliverOutsideTheModel();
    assertFalse(a.end.isUp() || b.end.isUp());
    wall += TIMERS.retryInterval().toNanos();
    a.end.tick();
    b.end.tick();
    deliverOutsideTheModel();
    assertTrue(a.end.isUp() && b.end.isUp(), "trained again after the wall-clock retry interval");
    assertFalse(a.inits.get(a.inits.size() - 1).timed());
    assertTrue(events.isEmpty(), "nothing in model time");
  }
}
