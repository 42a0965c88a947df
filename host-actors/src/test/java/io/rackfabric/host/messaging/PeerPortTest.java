package io.rackfabric.host.messaging;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.host.memory.GlobalMemoryLayout;
import io.rackfabric.host.memory.Plane;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PeerPortTest {

  private record Written(long address, byte[] data, long at) {}

  private record Pending(long address, int length, long at, HostFabric.ReadDone done) {}

  /** Records what the port asks of the fabric; answers nothing by itself. */
  private static final class Recorder implements HostFabric {
    final List<Written> writes = new ArrayList<>();
    final List<Pending> reads = new ArrayList<>();

    @Override
    public void write(long address, byte[] data, long at) {
      writes.add(new Written(address, data, at));
    }

    @Override
    public void read(long address, int length, long at, ReadDone done) {
      reads.add(new Pending(address, length, at, done));
    }

    @Override
    public void store(long address, byte[] data) {
      throw new AssertionError("a port never stores");
    }
  }

  /** What a read's callback was told. */
  private static final class Outcome implements MemoryPort.ReadCallback {
    final List<String> seen = new ArrayList<>();

    @Override
    public void completed(byte[] data) {
      seen.add("data " + data.length);
    }

    @Override
    public void failed(String reason) {
      seen.add("failed: " + reason);
    }
  }

  private static final GlobalMemoryLayout PAPER = GlobalMemoryLayout.paper(2);
  private static final long REGION = 1L << 30;
  private final MessagingLayout layout = new MessagingLayout(PAPER, 1, REGION, 8);
  private final Recorder fabric = new Recorder();
  private final EventClock clock = new EventClock(() -> 0, 1.0);
  private final PeerPort port = new PeerPort(layout, 2, fabric, clock, 256, 50_000);

  @Test
  void shouldSplitAWriteAtMaxPayloadAndAtPageBoundariesThroughTheCurrentPlane() {
    clock.advanceTo(7_000);
    byte[] data = new byte[700];
    for (int i = 0; i < data.length; i++) {
      data[i] = (byte) i;
    }
    long local = REGION + 4096 - 100; // 100 bytes before a page boundary
    port.write(local, data);
    long global = layout.reach(2, local, Plane.PRIMARY);
    assertEquals(List.of(100, 256, 256, 88), fabric.writes.stream().map(w -> w.data().length).toList());
    ByteArrayOutputStream joined = new ByteArrayOutputStream();
    long next = global;
    for (Written w : fabric.writes) {
      assertEquals(next, w.address(), "contiguous");
      assertEquals(7_000, w.at(), "issued at the clock");
      assertTrue((w.address() & 4095) + w.data().length <= 4096, "inside one page");
      joined.writeBytes(w.data());
      next += w.data().length;
    }
    assertArrayEquals(data, joined.toByteArray());
    assertEquals(4, port.tlps());
    assertEquals(1, port.writes());
  }

  @Test
  void shouldAddressThePeerThroughTheNewPlaneOnceSwitched() {
    assertTrue(port.usePlane(Plane.SECONDARY));
    assertFalse(port.usePlane(Plane.SECONDARY), "already there");
    port.write(REGION, new byte[8]);
    assertEquals(layout.reach(2, REGION, Plane.SECONDARY), fabric.writes.get(0).address());
    assertEquals(1, port.planeChanges());
  }

  @Test
  void shouldFailAReadWithoutCompletionOnceAtTheCompletionTimeoutAndIgnoreItsLateAnswer() {
    Outcome outcome = new Outcome();
    port.read(REGION, 64, outcome);
    Pending p = fabric.reads.get(0);
    clock.advanceTo(49_999);
    assertTrue(outcome.seen.isEmpty());
    clock.advanceTo(50_000);
    assertEquals(1, outcome.seen.size());
    assertTrue(outcome.seen.get(0).startsWith("failed: completion timeout"), outcome.seen.toString());
    p.done().completed(new byte[64], 60_000);
    assertEquals(1, outcome.seen.size(), "answered once");
    assertEquals(1, port.readTimeouts());
  }

  @Test
  void shouldTimeOutARealAnswerThatArrivesPastTheDeadlineInModelTime() {
    Outcome outcome = new Outcome();
    port.read(REGION, 64, outcome);
    fabric.reads.get(0).done().completed(new byte[64], 80_000); // came back too late
    assertEquals(List.of("failed: completion timeout after 50000 ns"), outcome.seen);
    assertEquals(80_000, clock.now());
  }

  @Test
  void shouldHandAnswerOnAtItsArrivalTimeWhenInTime() {
    Outcome outcome = new Outcome();
    port.read(REGION, 64, outcome);
    fabric.reads.get(0).done().completed(new byte[64], 3_000);
    assertEquals(List.of("data 64"), outcome.seen);
    assertEquals(3_000, clock.now());
    clock.advanceTo(100_000);
    assertEquals(List.of("data 64"), outcome.seen, "no timeout after the answer");
  }

  @Test
  void shouldFailReadsInFlightAtOnceWhenThePlaneChanges() {
    Outcome outcome = new Outcome();
    port.read(REGION, 64, outcome);
    port.usePlane(Plane.SECONDARY);
    assertEquals(1, outcome.seen.size());
    assertTrue(outcome.seen.get(0).contains("changed to the secondary plane"), outcome.seen.toString());
    fabric.reads.get(0).done().completed(new byte[64], 1_000);
    clock.advanceTo(100_000);
    assertEquals(1, outcome.seen.size(), "neither the late answer nor the timeout counts");
  }
}
