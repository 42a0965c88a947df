package io.rackfabric.fabric.time;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import io.rackfabric.fabric.credit.FcCredits;
import io.rackfabric.fabric.link.DataLinkState;
import io.rackfabric.fabric.link.LinkEnd;
import io.rackfabric.fabric.link.LinkFrame;
import io.rackfabric.fabric.link.LinkParameters;
import io.rackfabric.fabric.link.LinkTimers;
import io.rackfabric.fabric.testing.RecordingLinkListener;
import io.rackfabric.fabric.tlp.Bdf;
import io.rackfabric.fabric.tlp.MemWrite;
import io.rackfabric.fabric.tlp.Tlp;
import io.rackfabric.fabric.tlp.Tlps;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Whether a TLP that waits in a link end's transmitter (for the partner's credit, or behind others
 * on the wire) is covered by the keeper's rounds, though no pending event of its end stands for
 * it: the promise a link end makes ({@code next}, its earliest pending event) does not count it.
 *
 * <p>Two {@link LinkEnd}s, each in a {@link Synchronizer} with the handler {@link PortTime} gives a
 * port (the end floored at each event's time), and the keeper's books ({@link SyncBook}), driven
 * round by round by hand; the keeper is a probe whose reports are read into the books, the wall
 * clock (link training) a field. Frames sent during a round reach their receiver only after every
 * grant of the round was handled: the adversarial order, in which a partner runs as far as its
 * grant lets it before anything sent to it arrives. The receiver has an event of its own every
 * 10 ns, so it would run past any TLP the grants did not foresee, and count it as a straggler.
 *
 * <p>It holds: a TLP waiting for credit leaves only when the UpdateFC that frees it is handled,
 * an event of its end at the UpdateFC's arrival, stamped no earlier (the end's event floor); that
 * UpdateFC was sent in an event of the partner, so it is in the books (in flight, then pending)
 * until then. A TLP behind others on the wire is sent at once, stamped with its future slot, and
 * counted in flight. Neither needs its own place in the promise.
 */
class WaitingTlpPromiseTest {

  static final ActorTestKit testKit = ActorTestKit.create();

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  private static final LinkParameters P = LinkParameters.gen3x4();
  private static final LinkTimers TIMERS = LinkTimers.defaults();
  private static final int DLLP_BYTES = 8;
  private static final int REQ = Bdf.of(1, 0, 0);
  /** One posted header: a second write waits for the partner's UpdateFC. */
  private static final FcCredits ONE_WRITE = new FcCredits(1, 64, 64, 64, 64, 4096);
  private static final FcCredits ROOMY = new FcCredits(64, 4096, 64, 64, 64, 4096);
  /** The receiver's own events, every 10 ns up to here. */
  private static final long BUSY_UNTIL = 4_000;

  private long wall;
  private final ArrayDeque<InFlight> wire = new ArrayDeque<>();
  private final SyncBook book = new SyncBook();
  private final TestProbe<TimeKeeper.Command> keeper = testKit.createTestProbe();
  private final TestProbe<TimeKeeper.Confirmed> confirmed = testKit.createTestProbe();
  private End a;
  private End b;

  private record InFlight(End to, LinkFrame frame) {}

  /** One port: its link end, its synchronizer, and what it received and handled. */
  private final class End extends RecordingLinkListener {
    final LinkEnd link;
    final Synchronizer<Object> sync;
    final TestProbe<TimeKeeper.Grant> self = testKit.createTestProbe();
    final int channel;
    End partner;
    /** Received TLPs are kept in the receive buffer until a drain event frees them. */
    boolean holdReceived;
    final List<Tlp> buffered = new ArrayList<>();
    final List<Long> arrivals = new ArrayList<>();
    final List<Long> handled = new ArrayList<>();

    End(String name, String partnerName, FcCredits buffers, long seed) {
      link = new LinkEnd(P, buffers, TIMERS, true, seed, this, () -> wall);
      sync = new Synchronizer<>(name, this::handle, () -> { });
      channel = sync.declare(partnerName, link.lookaheadNs());
    }

    /** As {@link PortTime}'s handler: the link end floored at the event's time. */
    private void handle(Object event, long time) {
      handled.add(time);
      link.beginEvent(time);
      try {
        if (event instanceof LinkFrame f) {
          long at = link.onFrame(f);
          if (at >= 0) {
            Tlp tlp = LinkEnd.tlpOf(f);
            arrivals.add(at);
            if (holdReceived) {
              buffered.add(tlp);
            } else {
              link.free(tlp, at);
            }
          }
        } else {
          ((Runnable) event).run();
        }
      } finally {
        link.endEvent();
      }
    }

    /** Frees every TLP held in the receive buffer, at model {@code at}. */
    void drain(long at) {
      for (Tlp t : buffered) {
        link.free(t, at);
      }
      buffered.clear();
    }

    @Override
    public void send(LinkFrame frame) {
      wire.add(new InFlight(partner, frame));
      if (link.modelArrival(frame) >= 0) {
        sync.sent(channel); // as PortTime.sentOnLink
      }
    }
  }

  /** Trains a link between a (sender) and b (receiver) in wall time, then both join the books. */
  private void wireUp(FcCredits buffersOfB) {
    a = new End("a", "b", ROOMY, 1);
    b = new End("b", "a", buffersOfB, 2);
    a.partner = b;
    b.partner = a;
    a.link.enable();
    b.link.enable();
    deliverAll();
    assertEquals(DataLinkState.DL_ACTIVE, a.link.state());
    assertEquals(DataLinkState.DL_ACTIVE, b.link.state());
    for (End e : List.of(a, b)) {
      e.link.useModelTimers((at, action) -> e.sync.schedule(at, action));
      e.sync.join(keeper.ref(), e.self.ref());
      TimeKeeper.Register r = keeper.expectMessageClass(TimeKeeper.Register.class);
      assertEquals(null, book.register(r.member(), r.ref(), r.channels(), r.sentTo(), r.received(), r.next(),
          r.nextBusy(), r.stragglers(), r.now()));
    }
    for (long t = 0; t <= BUSY_UNTIL; t += 10) {
      b.sync.schedule(t, (Runnable) () -> { });
    }
  }

  /** Every frame on the wire reaches its receiver: link management at once, the rest queued. */
  private void deliverAll() {
    InFlight f;
    while ((f = wire.poll()) != null) {
      long at = f.to().link.modelArrival(f.frame());
      if (at < 0) {
        f.to().link.onFrame(f.frame());
      } else {
        f.to().sync.receive(at, 0, f.frame());
      }
    }
  }

  private void readReport() {
    TimeKeeper.Report r = keeper.expectMessageClass(TimeKeeper.Report.class);
    book.report(r.member(), r.round(), r.sentTo(), r.received(), r.next(), r.nextBusy(), r.stragglers(), r.now());
  }

  /** Rounds until the books are idle: grants handled one by one, frames delivered after them. */
  private void runRounds() {
    for (int round = 0; ; round++) {
      assertTrue(round < 100_000, "the rounds never end");
      deliverAll();
      for (End e : List.of(a, b)) {
        e.sync.confirm(new TimeKeeper.Confirm(confirmed.ref()));
        readReport();
      }
      List<SyncBook.Granted> grants = book.nextRound();
      if (grants.isEmpty()) {
        assertTrue(book.idle(), "no round, yet not idle: waiting for " + book.waiting());
        return;
      }
      for (SyncBook.Granted g : grants) {
        End e = g.ref().equals(a.self.ref()) ? a : b;
        e.sync.onGrant(new TimeKeeper.Grant(g.round(), g.until(), g.backgroundUntil(), g.since()));
        readReport();
      }
    }
  }

  private static MemWrite write(long seq, int length) {
    return new MemWrite(REQ, (int) (seq & 0xFF), 0, 0x90000L + 256 * seq, length, null, 0, seq);
  }

  private static void assertInModelOrder(List<Long> times) {
    for (int i = 1; i < times.size(); i++) {
      assertTrue(times.get(i) >= times.get(i - 1), "handled " + times.get(i) + " ns after " + times.get(i - 1) + " ns");
    }
  }

  @Test
  void shouldDeliverNoStragglerWhenATlpWaitsForCreditAnUpdateFcLaterReleases() {
    wireUp(ONE_WRITE);
    b.holdReceived = true;
    // b's consumer frees its buffer at 1000 and 2000: each time one UpdateFC, one more write.
    b.sync.schedule(1_000, (Runnable) () -> b.drain(1_000));
    b.sync.schedule(2_000, (Runnable) () -> b.drain(2_000));
    a.sync.schedule(0, (Runnable) () -> {
      for (int i = 0; i < 3; i++) {
        assertTrue(a.link.offer(write(i, 64), 0, "w" + i));
      }
    });

    runRounds();

    long tlpFlight = P.flightNs(Tlps.wireBytes(write(0, 64)));
    long dllpFlight = P.flightNs(DLLP_BYTES);
    // The first at once; each other one when the UpdateFC from b's drain arrives at a, not earlier.
    assertEquals(List.of(tlpFlight, 1_000 + dllpFlight + tlpFlight, 2_000 + dllpFlight + tlpFlight), b.arrivals);
    assertEquals(0, b.sync.stragglers(), "b handled an event later than a TLP still to come");
    assertEquals(0, a.sync.stragglers());
    assertInModelOrder(b.handled);
    assertInModelOrder(a.handled);
    assertEquals(0, a.link.queued());
  }

  @Test
  void shouldDeliverNoStragglerWhenTlpsWaitBehindEachOtherOnTheWire() {
    wireUp(ROOMY);
    int writes = 12;
    a.sync.schedule(100, (Runnable) () -> {
      for (int i = 0; i < writes; i++) {
        assertTrue(a.link.offer(write(i, 256), 100, "w" + i));
      }
    });

    runRounds();

    long serialization = P.serializationNs(Tlps.wireBytes(write(0, 256)));
    long flight = P.flightNs(Tlps.wireBytes(write(0, 256)));
    List<Long> expected = new ArrayList<>();
    for (int i = 0; i < writes; i++) {
      expected.add(100 + i * serialization + flight); // back to back on the wire
    }
    assertEquals(expected, b.arrivals);
    assertEquals(0, b.sync.stragglers(), "b handled an event later than a TLP still to come");
    assertEquals(0, a.sync.stragglers());
    assertInModelOrder(b.handled);
  }
}
