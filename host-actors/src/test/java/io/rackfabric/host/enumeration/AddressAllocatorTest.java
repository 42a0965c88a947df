package io.rackfabric.host.enumeration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.rackfabric.fabric.address.AddressRange;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The allocator BAR assignment packs apertures and slot blocks with. */
class AddressAllocatorTest {

  private static final long KIB = 1L << 10;
  private static final long MIB = 1L << 20;
  private static final AddressRange APERTURE = new AddressRange(0x8000_0000L, 0x8FFF_FFFFL);

  @Test
  void shouldAlignEachTakeToItsSizeWhenAlignmentIsNatural() {
    AddressAllocator a = AddressAllocator.natural(APERTURE, List.of());
    assertEquals(0x8000_0000L, a.take(4 * KIB, 4 * KIB));
    assertEquals(0x8001_0000L, a.take(64 * KIB, 64 * KIB));
    assertEquals(0x8002_0000L, a.take(16, 16));
  }

  @Test
  void shouldSkipAReservedBlockWhenATakeWouldOverlapIt() {
    AddressRange block = AddressRange.ofSize(0x8000_0000L + MIB, MIB);
    AddressAllocator a = AddressAllocator.natural(APERTURE, List.of(block));
    assertEquals(0x8000_0000L, a.take(512 * KIB, 512 * KIB));
    // 1MiB more would end inside the block: it goes after it.
    assertEquals(block.limit() + 1, a.take(MIB, MIB));
  }

  @Test
  void shouldCountAlignmentFromTheBlockBaseWhenRelative() {
    AddressRange block = AddressRange.ofSize(0x8000_1000L, MIB);
    AddressAllocator a = AddressAllocator.relative(block);
    assertEquals(0x8000_1000L, a.take(64 * KIB, 64 * KIB));
    assertEquals(0x8001_1000L, a.take(64 * KIB, 64 * KIB));
  }

  @Test
  void shouldGiveNothingWhenTheTakeDoesNotFit() {
    AddressAllocator a = AddressAllocator.natural(AddressRange.ofSize(0x8000_0000L, MIB), List.of());
    assertEquals(0x8000_0000L, a.take(512 * KIB, 512 * KIB));
    assertNull(a.take(MIB, MIB));
    assertEquals(0x8008_0000L, a.take(512 * KIB, 512 * KIB));
    assertNull(a.take(16, 16));
  }

  @Test
  void shouldStartAfterAWindowWhenSkippedPastAndAligned() {
    AddressAllocator a = AddressAllocator.natural(APERTURE, List.of());
    a.take(16, 16);
    a.alignUp(MIB);
    assertEquals(0x8010_0000L, a.take(16, 16));
    a.skipPast(0x803F_FFFFL);
    assertEquals(0x8040_0000L, a.take(16, 16));
    a.skipPast(0x8000_0000L); // behind the cursor: no effect
    assertEquals(0x8040_0010L, a.take(16, 16));
  }
}
