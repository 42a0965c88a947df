package io.rackfabric.host.device.disk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

/** The submission and completion entries as bytes in host memory. */
class DiskEntriesTest {

  @Test
  void shouldPutEachFieldWhereNvmeKeepsItWhenASubmissionEntryIsEncoded() {
    byte[] b = SubmissionEntry.read(0xBEEF, 0x1234_5678_9000L, 0x77_0000_0001L, 8).encode();
    assertEquals(SubmissionEntry.SIZE, b.length);
    ByteBuffer in = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
    assertEquals(0x02, in.get(0));
    assertEquals((short) 0xBEEF, in.getShort(2));
    assertEquals(0x1234_5678_9000L, in.getLong(0x18));
    assertEquals(0x77_0000_0001L, in.getLong(0x28));
    assertEquals(8, in.getShort(0x30));
  }

  @Test
  void shouldGiveTheSameEntryBackWhenEncodedAndDecoded() {
    SubmissionEntry e = new SubmissionEntry(0x99, 65_535, -4096, 123, 65_535);
    assertEquals(e, SubmissionEntry.decode(e.encode()));
    CompletionEntry c = new CompletionEntry(65_535, 40_000, CompletionEntry.Status.LBA_OUT_OF_RANGE, true);
    assertEquals(c, CompletionEntry.decode(c.encode()));
  }

  @Test
  void shouldKeepThePhaseInBitZeroAndTheStatusAboveWhenACompletionIsEncoded() {
    byte[] b = new CompletionEntry(3, 0x42, CompletionEntry.Status.DATA_TRANSFER_ERROR, true).encode();
    ByteBuffer in = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
    assertEquals(CompletionEntry.SIZE, b.length);
    assertEquals(3, in.getShort(8));
    assertEquals(0x42, in.getShort(12));
    assertEquals(0x04 << 1 | 1, in.getShort(14));
  }

  @Test
  void shouldRefuseNamingTheLengthWhenAnEntryHasTheWrongSize() {
    String m = assertThrows(IllegalArgumentException.class, () -> SubmissionEntry.decode(new byte[63])).getMessage();
    assertTrue(m.contains("got 63"), m);
  }

  @Test
  void shouldDeriveANeverWrittenBlockFromItsLbaWhenRead() {
    DiskBlocks blocks = new DiskBlocks(100);
    byte[] two = blocks.read(41, 2);
    assertEquals(2 * DiskBlocks.BLOCK, two.length);
    assertEquals(41, ByteBuffer.wrap(two).order(ByteOrder.LITTLE_ENDIAN).getLong(0));
    assertEquals(42, ByteBuffer.wrap(two).order(ByteOrder.LITTLE_ENDIAN).getLong(DiskBlocks.BLOCK));
    assertTrue(blocks.holds(98, 2));
    assertTrue(!blocks.holds(99, 2) && !blocks.holds(-1, 1));
  }
}
