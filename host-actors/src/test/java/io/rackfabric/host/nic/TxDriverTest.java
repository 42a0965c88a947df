package io.rackfabric.host.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TxDriverTest {

  static final long VF_BAR = 0x8_E010_0000L;
  static final long DMA = 0x8_0000_0000L;

  record Store(long address, byte[] data) {}

  record Post(long address, byte[] data, long at) {}

  final List<Store> stores = new ArrayList<>();
  final List<Post> posts = new ArrayList<>();
  final TxDriver.Host host = new TxDriver.Host() {
    @Override
    public void store(long localAddress, byte[] data) {
      stores.add(new Store(localAddress, data));
    }

    @Override
    public void post(long address, byte[] data, long at) {
      posts.add(new Post(address, data, at));
    }
  };

  static SendPlan plan(int count, int maxOutstanding) {
    return new SendPlan(0, VF_BAR, DMA, 0x10_0000L, 4, count, 1_000_000, 64, 5_000, maxOutstanding);
  }

  @Test
  void shouldProgramRingInTheNicsViewOfHostMemoryWhenSettingUp() {
    TxDriver d = new TxDriver(plan(1, 1), 16, host);
    d.setUp();
    assertEquals(0x10_0040L, d.writeBackLocal());
    assertEquals(List.of(new Access(RegisterMap.Register.TDBAL, 0, (int) (DMA + 0x10_0000L)),
            new Access(RegisterMap.Register.TDBAH, 0, 8),
            new Access(RegisterMap.Register.TDLEN, 0, 4),
            new Access(RegisterMap.Register.TDWBAL, 0, (int) (DMA + 0x10_0040L)),
            new Access(RegisterMap.Register.TDWBAH, 0, 8)),
        RegisterMapTest.MAP.decode(0xE010_0000L, posts.get(0).data()).stream()
            .map(a -> new Access(a.register(), a.vf(), a.value())).toList());
    assertEquals(VF_BAR, posts.get(0).address());
    assertEquals(5_000, posts.get(0).at());
  }

  record Access(RegisterMap.Register register, int vf, int value) {}

  @Test
  void shouldStoreFrameAndDescriptorThenRingDoorbellAtScheduledTimeWhenSending() {
    TxDriver d = new TxDriver(plan(3, 1), 16, host);
    assertEquals(1_005_000, d.send());

    long buffer = 0x10_1000L;
    assertEquals(buffer, stores.get(0).address());
    UdpFrames.Parsed p = UdpFrames.parse(stores.get(0).data());
    assertEquals(0, p.seq());
    assertEquals(1_005_000, p.sentAt());
    ByteBuffer desc = ByteBuffer.wrap(stores.get(1).data()).order(ByteOrder.LITTLE_ENDIAN);
    assertEquals(0x10_0000L, stores.get(1).address());
    assertEquals(DMA + buffer, desc.getLong(0));
    assertEquals(stores.get(0).data().length, desc.getShort(8));
    Post bell = posts.get(0);
    assertEquals(VF_BAR + RegisterMap.TDT, bell.address());
    assertEquals(1, ByteBuffer.wrap(bell.data()).order(ByteOrder.LITTLE_ENDIAN).getInt());
    assertFalse(d.maySend(), "one in flight");
  }

  @Test
  void shouldWaitForWriteBackAndKeepScheduleWhenItComesInTime() {
    TxDriver d = new TxDriver(plan(6, 1), 16, host);
    assertEquals(1_005_000, d.send());
    d.headWrittenBack(1, 1_020_000);
    assertTrue(d.maySend());
    assertEquals(2_005_000, d.send());
    d.headWrittenBack(2, 2_020_000);
    assertEquals(3_005_000, d.send());
    // A write-back later than the schedule holds the next send back in model time too.
    d.headWrittenBack(3, 4_500_000);
    assertEquals(4_500_000, d.send());
    d.headWrittenBack(0, 4_520_000);
    assertEquals(5_005_000, d.send(), "the ring wrapped: slot 0 again");
    assertEquals(0x10_1000L, stores.get(8).address());
    assertEquals(1, ByteBuffer.wrap(posts.get(4).data()).order(ByteOrder.LITTLE_ENDIAN).getInt());
    assertEquals(4, d.completed());
    assertFalse(d.finished());
  }

  @Test
  void shouldKeepSeveralInFlightWhenAllowed() {
    TxDriver d = new TxDriver(plan(3, 3), 16, host);
    d.send();
    d.send();
    d.send();
    assertFalse(d.maySend());
    d.headWrittenBack(3, 50_000);
    assertTrue(d.finished());
    assertEquals(50_000, d.lastCompletedAt());
    assertThrows(IllegalStateException.class, d::send);
  }

  @Test
  void shouldRejectBadPlansNamingTheValue() {
    assertEquals("maxOutstanding=4 not in [1,ringSize-1=3]", assertThrows(IllegalArgumentException.class,
        () -> new SendPlan(0, VF_BAR, DMA, 0, 4, 1, 1, 64, 0, 4)).getMessage());
    assertEquals("localBase=0x10 must be 4KiB aligned", assertThrows(IllegalArgumentException.class,
        () -> new SendPlan(0, VF_BAR, DMA, 0x10, 4, 1, 1, 64, 0, 1)).getMessage());
  }

  @Test
  void shouldSkipTheSlotsOfADownWindowAndGoOnAfterItWhenTheDataPlaneRestarts() {
    TxDriver d = new TxDriver(plan(4, 3), 16, host);
    d.setUp();
    assertEquals(1_005_000, d.send());
    // Down from before slot 1 (2_005_000) until before slot 3 (4_005_000): slots 1 and 2 are lost.
    d.skipWindow(1_500_000, 4_000_001);
    long at = d.send();
    assertEquals(4_005_000, at);
    assertEquals(2, d.skipped());
    List<Post> bells = posts.stream().filter(p -> p.address() == VF_BAR + RegisterMap.TDT).toList();
    assertEquals(List.of(1_005_000L, 4_005_000L), bells.stream().map(Post::at).toList());
    // The frame of the second packet carries slot 3's sequence number: 1 and 2 never left.
    byte[] frame = stores.stream().filter(s -> s.data().length > 16).toList().get(1).data();
    assertEquals(3, UdpFrames.parse(frame).seq());
    assertEquals(2, d.sent());
  }

  /** head and tail of a ring restore write (its last two dwords). */
  static int[] headAndTail(Post p) {
    ByteBuffer b = ByteBuffer.wrap(p.data()).order(ByteOrder.LITTLE_ENDIAN);
    return new int[] {b.getInt(20), b.getInt(24)};
  }

  @Test
  void shouldRestoreRingWithHeadFromLastWriteBackAndTailFromItsCopyWhenFtgmReopens() {
    TxDriver d = new TxDriver(plan(10, 2), 16, host);
    d.setUp();
    d.send();
    d.send();
    d.headWrittenBack(1, 1_100_000); // the first reached the wire; the second had not
    d.reopen(true, 900_000_000);

    Post restore = posts.get(posts.size() - 1);
    assertEquals(VF_BAR + RegisterMap.TDBAL, restore.address());
    assertEquals(900_000_000, restore.at());
    assertEquals(1, headAndTail(restore)[0]);
    assertEquals(2, headAndTail(restore)[1]);
    assertEquals(1, d.pending(), "the NIC sends the second again; its write-back completes it");
    assertEquals(0, d.dropped());
    d.headWrittenBack(2, 900_010_000);
    assertEquals(2, d.completed());
  }

  @Test
  void shouldReopenEmptyAndCountWhatWasNotWrittenBackAsDroppedWhenGmReopens() {
    TxDriver d = new TxDriver(plan(10, 2), 16, host);
    d.setUp();
    d.send();
    d.send();
    d.headWrittenBack(1, 1_100_000);
    d.reopen(false, 900_000_000);

    Post restore = posts.get(posts.size() - 1);
    assertEquals(2, headAndTail(restore)[0]);
    assertEquals(2, headAndTail(restore)[1]);
    assertEquals(1, d.dropped());
    assertEquals(0, d.pending());
    assertTrue(d.maySend());
    assertEquals(900_000_000, d.send(), "the next packet waits for the reopened port");
  }
}
