package io.rackfabric.fabric.endpoint;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.tlp.Completion;
import io.rackfabric.fabric.tlp.CompletionStatus;
import io.rackfabric.fabric.tlp.ConfigRead;
import io.rackfabric.fabric.tlp.ConfigWrite;
import io.rackfabric.fabric.tlp.MemRead;
import io.rackfabric.fabric.tlp.MemWrite;
import io.rackfabric.fabric.tlp.Tlp;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** The completer side of an endpoint, driven TLP by TLP with a recording outbound side. */
class EndpointTargetTest {

  private static final AddressRange BAR = AddressRange.ofSize(0x1000_0000L, 0x10000);
  private static final int MPS = 128;
  private static final long CPL_LATENCY = 40;

  private final List<Tlp> sent = new ArrayList<>();
  private final List<Long> sentAt = new ArrayList<>();
  private final List<EndpointEvent.MemoryWritten> shown = new ArrayList<>();

  private EndpointTarget target(InboundAccessCheck check) {
    return new EndpointTarget("ep", 0x0100, false, List.of(BAR), MPS, CPL_LATENCY, check,
        new EndpointTarget.Outbound() {
          @Override
          public void offer(Tlp tlp, long at) {
            sent.add(tlp);
            sentAt.add(at);
          }

          @Override
          public void written(EndpointEvent.MemoryWritten event, MemoryEndpoint.Watch watch) {
            shown.add(event);
          }
        }, LoggerFactory.getLogger(EndpointTargetTest.class));
  }

  private static byte[] bytes(int n, int seed) {
    byte[] b = new byte[n];
    for (int i = 0; i < n; i++) {
      b[i] = (byte) (seed + i);
    }
    return b;
  }

  @Test
  void shouldStoreAWriteIntoItsBarAndShowItToTheWatchersWhoseRangeItTouches() {
    EndpointTarget t = target(InboundAccessCheck.allowAll());
    t.watch(new MemoryEndpoint.Watch(AddressRange.ofSize(BAR.base() + 0x100, 4), null));
    t.watch(new MemoryEndpoint.Watch(AddressRange.ofSize(BAR.base() + 0x8000, 4), null));
    byte[] data = bytes(8, 1);
    t.memWrite(new MemWrite(0x0200, 0, 0, BAR.base() + 0xFC, 8, data, 10, 0), 500);

    assertArrayEquals(data, t.read(BAR.base() + 0xFC, 8));
    assertEquals(1, shown.size(), "only the watch over 0x100 overlaps");
    assertEquals(500, shown.get(0).arrivedAt());
    assertEquals(0x0200, shown.get(0).requester());
    assertEquals(1, t.arrivals().writes());
    assertTrue(sent.isEmpty(), "a posted write is never answered");
  }

  @Test
  void shouldCountAWriteOutsideItsBarsAndStoreNothing() {
    EndpointTarget t = target(InboundAccessCheck.allowAll());
    t.memWrite(new MemWrite(0x0200, 0, 0, BAR.base() + BAR.size() - 3, 8, bytes(8, 1), 10, 0), 500);
    assertEquals(1, t.outsideBars());
    assertEquals(0, t.arrivals().writes());
  }

  @Test
  void shouldSplitAReadsCompletionsAtMaxPayloadWhenTheReadIsLongerThanIt() {
    EndpointTarget t = target(InboundAccessCheck.allowAll());
    byte[] data = bytes(300, 7);
    t.store(BAR.base(), data);
    t.memRead(new MemRead(0x0200, 5, 0, BAR.base(), 300, 10, 99), 1_000);

    assertEquals(3, sent.size(), "128 + 128 + 44 bytes");
    ByteBuffer got = ByteBuffer.allocate(300);
    int[] byteCounts = {300, 172, 44};
    for (int i = 0; i < 3; i++) {
      Completion c = (Completion) sent.get(i);
      assertEquals(CompletionStatus.SUCCESSFUL, c.status());
      assertEquals(5, c.tag());
      assertEquals(0x0200, c.requester());
      assertEquals(byteCounts[i], c.byteCount(), "bytes left, this one included");
      assertEquals(1_000 + CPL_LATENCY, sentAt.get(i));
      got.put(c.data());
    }
    assertArrayEquals(data, got.array());
    assertEquals(1, t.readsServed());
  }

  @Test
  void shouldAnswerUnsupportedRequestAndCountTheRequesterWhenTheAccessCheckDeniesARead() {
    EndpointTarget t = target((requester, address, length, write) -> requester == 0x0300
        ? InboundAccessCheck.Decision.DENY : InboundAccessCheck.Decision.ALLOW);
    t.memRead(new MemRead(0x0300, 1, 0, BAR.base(), 4, 10, 0), 100);
    t.memWrite(new MemWrite(0x0300, 0, 0, BAR.base(), 4, bytes(4, 1), 10, 0), 100);

    assertEquals(CompletionStatus.UNSUPPORTED_REQUEST, ((Completion) sent.get(0)).status());
    assertEquals(1, sent.size(), "the denied write is dropped unanswered");
    assertEquals(2, t.denials().total());
    assertEquals(0, t.readsServed());
    assertArrayEquals(new byte[4], t.read(BAR.base(), 4), "nothing stored");
  }

  @Test
  void shouldTakeItsIdFromATypeZeroConfigWriteAndAnswerWithIt() {
    EndpointTarget t = target(InboundAccessCheck.allowAll());
    t.config(new ConfigWrite(0x0000, 3, 0x0500, 0, 0x04, 0x6, 10), 200);
    assertEquals(0x0500, t.bdf());
    Completion done = (Completion) sent.get(0);
    assertEquals(0x0500, done.completer());
    assertEquals(200 + CPL_LATENCY, sentAt.get(0));

    t.config(new ConfigRead(0x0000, 4, 0x0500, 0, 0x00, 10), 300);
    Completion read = (Completion) sent.get(1);
    assertEquals(4, read.length());
    assertFalse(ByteBuffer.wrap(read.data()).getInt() == 0xFFFF_FFFF, "a present function's vendor and device");
  }
}
