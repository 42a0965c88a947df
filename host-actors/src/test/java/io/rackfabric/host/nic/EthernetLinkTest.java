package io.rackfabric.host.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class EthernetLinkTest {

  static final long TEN_GBPS = 10_000_000_000L;

  @Test
  void shouldPadShortFramesAndAddPreambleFcsAndGapWhenCountingWireBytes() {
    // 60 bytes + FCS = the 64-byte minimum; a 106-byte UDP frame (64-byte payload) is not padded.
    assertEquals(8 + 64 + 12, EthernetLink.wireBytes(20));
    assertEquals(8 + 64 + 12, EthernetLink.wireBytes(60));
    assertEquals(8 + 106 + 4 + 12, EthernetLink.wireBytes(106));
    assertEquals(8 + 1518 + 12, EthernetLink.wireBytes(1514));
  }

  @Test
  void shouldArriveAfterSerializationAndPropagationWhenWireIsIdle() {
    EthernetLink link = new EthernetLink(TEN_GBPS, 500);
    EthernetLink.Transmission tx = link.transmit(106, 1_000);
    // Preamble, frame and FCS: 118 bytes = 944 bits = 94.4 ns at 10 Gb/s.
    assertEquals(1_000, tx.startAt());
    assertEquals(1_095, tx.lastBitAt());
    assertEquals(1_595, tx.arrivesAt());
    assertEquals(130, tx.wireBytes());
    // The gap keeps the wire busy after the last bit: 130 bytes = 104 ns.
    assertEquals(1_104, link.busyUntil());
  }

  @Test
  void shouldQueueBackToBackFramesOneWireTimeApartWhenReadyTogether() {
    EthernetLink link = new EthernetLink(TEN_GBPS, 0);
    long previous = -1;
    for (int i = 0; i < 1000; i++) {
      EthernetLink.Transmission tx = link.transmit(60, 0);
      if (i > 0) {
        // 84 bytes a frame = 67.2 ns: whole ns per frame would drift, picoseconds do not.
        long expectedStartPs = i * 67_200L;
        assertEquals((expectedStartPs + 999) / 1000, tx.startAt(), "frame " + i);
        assertTrue(tx.startAt() > previous);
      }
      previous = tx.startAt();
    }
    assertEquals(1000, link.frames());
    assertEquals(1000 * 84, link.wireBytesSent());
    assertEquals(67_200, link.busyUntil());
  }

  @Test
  void shouldStartAtReadyTimeWhenWireFreedEarlier() {
    EthernetLink link = new EthernetLink(TEN_GBPS, 50);
    link.transmit(106, 0);
    EthernetLink.Transmission later = link.transmit(106, 1_000_000);
    assertEquals(1_000_000, later.startAt());
    assertEquals(1_000_000 + 95 + 50, later.arrivesAt());
  }

  @Test
  void shouldFollowTheLineRateWhenItChanges() {
    EthernetLink oneGig = new EthernetLink(1_000_000_000L, 0);
    assertEquals(944, oneGig.transmit(106, 0).lastBitAt());
  }

  @Test
  void shouldRejectNonsenseNamingTheValue() {
    assertEquals("bitsPerSecond=0 must be positive",
        assertThrows(IllegalArgumentException.class, () -> new EthernetLink(0, 0)).getMessage());
    EthernetLink link = new EthernetLink(TEN_GBPS, 0);
    assertEquals("frameBytes=0 must be positive",
        assertThrows(IllegalArgumentException.class, () -> link.transmit(0, 0)).getMessage());
  }
}
