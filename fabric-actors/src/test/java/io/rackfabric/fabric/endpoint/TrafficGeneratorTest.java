package io.rackfabric.fabric.endpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The generator driven step by step with a fake endpoint and a hand-moved model clock. */
class TrafficGeneratorTest {

  /** A link that takes everything, and records what was issued at which stamp. */
  private static final class FakePort implements TrafficGenerator.Port {
    final boolean paced;
    long now;
    int queueRoom = Integer.MAX_VALUE;
    final List<Long> issuedAt = new ArrayList<>();
    final List<Long> addresses = new ArrayList<>();
    final List<Long> wakes = new ArrayList<>();
    /** The chosen route to destination 42 in the endpoint's table; null: none. */
    io.rackfabric.fabric.management.Route toDestination;
    MemoryEndpoint.TrafficDone done;

    FakePort(boolean paced) {
      this.paced = paced;
    }

    @Override
    public boolean canIssue(boolean reads) {
      return issuedAt.size() < queueRoom;
    }

    @Override
    public boolean write(long address, int size, byte[] data, long at) {
      issuedAt.add(at);
      addresses.add(address);
      return true;
    }

    @Override
    public boolean read(long address, int size, long at) {
      issuedAt.add(at);
      return true;
    }

    @Override
    public int readsOutstanding() {
      return 0;
    }

    @Override
    public io.rackfabric.fabric.management.Route chosenRoute(long destination) {
      return destination == 42 ? toDestination : null;
    }

    @Override
    public boolean paced() {
      return paced;
    }

    @Override
    public long now() {
      return now;
    }

    @Override
    public long linkNow() {
      return now;
    }

    @Override
    public void wakeAt(long at) {
      wakes.add(at);
    }

    @Override
    public void finished(MemoryEndpoint.TrafficDone d) {
      done = d;
    }
  }

  private static TrafficPlan writes(long count, long interval, long startAt) {
    return new TrafficPlan(0x1000, 4096, 64, count, interval, false, false, startAt);
  }

  @Test
  void shouldIssueEachRequestAtItsOwnModelTimeWhenPacedByTheKernel() {
    FakePort port = new FakePort(true);
    TrafficGenerator g = new TrafficGenerator("ep", port);
    g.start(writes(3, 500, 1_000), 0);
    assertEquals(List.of(1_000L), port.wakes, "the first request is an event of its own");
    assertEquals(List.of(), port.issuedAt);

    port.now = 1_000;
    g.due();
    assertEquals(List.of(1_000L), port.issuedAt, "nothing ahead of the clock");
    assertEquals(List.of(1_000L, 1_500L), port.wakes);
    g.pump(); // a request left the link: still nothing due
    assertEquals(List.of(1_000L, 1_500L), port.wakes, "one wake per request");

    port.now = 1_500;
    g.due();
    port.now = 2_000;
    g.due();
    assertEquals(List.of(1_000L, 1_500L, 2_000L), port.issuedAt);
    assertNotNull(port.done);
    assertEquals(3, port.done.sent());
    assertEquals(2_500, port.done.modelEnd());
    assertFalse(g.running());
  }

  @Test
  void shouldKeepRequestsQueuedAheadWhileTheLinkTakesThemWhenFreeRunning() {
    FakePort port = new FakePort(false);
    port.queueRoom = 2;
    TrafficGenerator g = new TrafficGenerator("ep", port);
    g.start(writes(4, 500, 0), 0);
    g.due();
    assertEquals(List.of(0L, 500L), port.issuedAt, "stamped ahead, as far as the queue has room");
    assertNull(port.done);
    port.queueRoom = 4;
    g.pump();
    assertEquals(List.of(0L, 500L, 1_000L, 1_500L), port.issuedAt);
    assertEquals(4, port.done.sent());
  }

  @Test
  void shouldShiftItsAddressesToThePlaneItsTableNamesWhenItFollowsRoutes() {
    FakePort port = new FakePort(true);
    TrafficGenerator g = new TrafficGenerator("ep", port);
    // through port 3 the destination's memory is at the plan's addresses, through port 4 1 TiB higher
    TrafficPlan.RouteFollowing follow = new TrafficPlan.RouteFollowing(42, new int[] {3, 4}, new long[] {0, 1L << 40});
    g.start(new TrafficPlan(0x1000, 4096, 64, 4, 500, false, false, 1_000, follow), 0);
    port.now = 1_000;
    g.due();
    port.toDestination = new io.rackfabric.fabric.management.Route(List.of(0, 3, 1, 0));
    port.now = 1_500;
    g.due();
    port.toDestination = new io.rackfabric.fabric.management.Route(List.of(0, 4, 1, 0)); // a new table
    port.now = 2_000;
    g.due();
    port.toDestination = new io.rackfabric.fabric.management.Route(List.of(0, 5, 1, 0)); // a port not named
    port.now = 2_500;
    g.due();
    assertEquals(List.of(0x1000L, 0x1040L, 0x1080L + (1L << 40), 0x10C0L), port.addresses,
        "no table, the first plane, the second plane, a port it has no shift for");
    assertEquals(1, port.done.rerouted());
  }

  @Test
  void shouldRefuseARouteFollowingThatDoesNotPairPortsAndShifts() {
    IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
        () -> new TrafficPlan.RouteFollowing(42, new int[] {3}, new long[] {0, 1}));
    org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains("ports=[3]"), e.getMessage());
  }
}
