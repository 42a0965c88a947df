package io.rackfabric.fabric.address;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class AddressRangeTest {

  private static final long TWO_TO_63 = Long.MIN_VALUE; // 0x8000_0000_0000_0000 unsigned
  private static final long MAX_U64 = -1L; // 0xFFFF_FFFF_FFFF_FFFF unsigned

  @Test
  void shouldContainBothEndsWhenLimitIsInclusive() {
    AddressRange r = new AddressRange(0x90000L, 0xEFFFFL);
    assertTrue(r.contains(0x90000L));
    assertTrue(r.contains(0xEFFFFL));
    assertTrue(r.contains(0xB0040L));
    assertFalse(r.contains(0x8FFFFL));
    assertFalse(r.contains(0xF0000L));
  }

  @Test
  void shouldAcceptSingleByteRangeWhenBaseEqualsLimit() {
    AddressRange r = new AddressRange(0x1000L, 0x1000L);
    assertTrue(r.contains(0x1000L));
    assertFalse(r.contains(0xFFFL));
    assertFalse(r.contains(0x1001L));
    assertEquals(1, r.size());
  }

  @Test
  void shouldRejectBaseAboveLimitWhenComparedUnsigned() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> new AddressRange(0x2000L, 0x1000L));
    assertTrue(e.getMessage().contains("base=0x2000"), e.getMessage());
    assertTrue(e.getMessage().contains("limit=0x1000"), e.getMessage());
  }

  @Test
  void shouldTreatAddressesAtOrAbove2To63AsLargeWhenConstructing() {
    // Signed, 2^63 is the most negative long; unsigned it is above every 63-bit address.
    AddressRange r = new AddressRange(0x7FFF_FFFF_FFFF_F000L, TWO_TO_63 + 0xFFF);
    assertTrue(r.contains(0x7FFF_FFFF_FFFF_FFFFL));
    assertTrue(r.contains(TWO_TO_63));
    assertTrue(r.contains(TWO_TO_63 + 0xFFF));
    assertFalse(r.contains(TWO_TO_63 + 0x1000));
    assertFalse(r.contains(0L));
    assertEquals(0x2000L, r.size());
    // The reverse order is base above limit once compared unsigned.
    assertThrows(
        IllegalArgumentException.class, () -> new AddressRange(TWO_TO_63, 0x7FFF_FFFF_FFFF_FFFFL));
  }

  @Test
  void shouldContainTopOfSpaceWhenLimitIs2To64Minus1() {
    AddressRange top = new AddressRange(0xFFFF_FFFF_FFFF_F000L, MAX_U64);
    assertTrue(top.contains(MAX_U64));
    assertTrue(top.contains(0xFFFF_FFFF_FFFF_F000L));
    assertFalse(top.contains(0xFFFF_FFFF_FFFF_EFFFL));
    assertFalse(top.contains(0L));
    assertFalse(top.contains(TWO_TO_63));
    assertEquals(0x1000L, top.size());
  }

  @Test
  void shouldCoverWholeSpaceAndSaturateSizeWhenRangeIsAll64Bits() {
    AddressRange all = new AddressRange(0L, MAX_U64);
    assertTrue(all.contains(0L));
    assertTrue(all.contains(TWO_TO_63));
    assertTrue(all.contains(MAX_U64));
    assertEquals(Long.MAX_VALUE, all.size());
  }

  @Test
  void shouldSaturateSizeWhenRangeSpansExactly2To63Bytes() {
    assertEquals(Long.MAX_VALUE, new AddressRange(0L, Long.MAX_VALUE).size());
    assertEquals(Long.MAX_VALUE, new AddressRange(TWO_TO_63, MAX_U64).size());
    // One byte less than 2^63 is still exact.
    assertEquals(Long.MAX_VALUE, new AddressRange(1L, Long.MAX_VALUE).size());
    assertEquals(Long.MAX_VALUE - 1, new AddressRange(2L, Long.MAX_VALUE).size());
  }

  @Test
  void shouldBuildInclusiveLimitWhenCreatedOfSize() {
    AddressRange r = AddressRange.ofSize(0x90000L, 0x60000L);
    assertEquals(0x90000L, r.base());
    assertEquals(0xEFFFFL, r.limit());
    assertEquals(0x60000L, r.size());
  }

  @Test
  void shouldReachExactlyTheTopWhenOfSizeEndsAt2To64() {
    AddressRange r = AddressRange.ofSize(0xFFFF_FFFF_FFFF_F000L, 0x1000L);
    assertEquals(MAX_U64, r.limit());
    AddressRange half = AddressRange.ofSize(TWO_TO_63, TWO_TO_63); // 2^63 bytes from 2^63
    assertEquals(MAX_U64, half.limit());
  }

  @Test
  void shouldRejectOfSizeWhenRangeRunsPast64Bits() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> AddressRange.ofSize(0xFFFF_FFFF_FFFF_F000L, 0x1001L));
    assertTrue(e.getMessage().contains("runs past 64 bits"), e.getMessage());
    assertTrue(e.getMessage().contains("0xFFFFFFFFFFFFF000"), e.getMessage());
    assertThrows(
        IllegalArgumentException.class, () -> AddressRange.ofSize(TWO_TO_63 + 1, TWO_TO_63));
    assertThrows(IllegalArgumentException.class, () -> AddressRange.ofSize(2L, MAX_U64));
  }

  @Test
  void shouldRejectOfSizeWhenSizeIsZero() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> AddressRange.ofSize(0x1000L, 0));
    assertTrue(e.getMessage().contains("size=0"), e.getMessage());
  }

  @Test
  void shouldContainAllOnlyWhenLastByteIsInside() {
    AddressRange r = new AddressRange(0x1000L, 0x1FFFL);
    assertTrue(r.containsAll(0x1000L, 0x1000));
    assertTrue(r.containsAll(0x1FF0L, 16));
    assertFalse(r.containsAll(0x1FF0L, 17));
    assertFalse(r.containsAll(0xFF0L, 16));
  }

  @Test
  void shouldNotContainAllWhenAccessWrapsPastTopOfSpace() {
    AddressRange top = new AddressRange(0xFFFF_FFFF_FFFF_F000L, MAX_U64);
    assertTrue(top.containsAll(0xFFFF_FFFF_FFFF_FFF0L, 16));
    assertFalse(top.containsAll(0xFFFF_FFFF_FFFF_FFF0L, 17));
    AddressRange all = new AddressRange(0L, MAX_U64);
    assertFalse(all.containsAll(MAX_U64, 2)); // wraps to 0: not a contiguous access
  }

  @Test
  void shouldOverlapWhenSharingOnlyTheInclusiveEndpoint() {
    AddressRange a = new AddressRange(0x1000L, 0x1FFFL);
    assertTrue(a.overlaps(new AddressRange(0x1FFFL, 0x2FFFL)));
    assertTrue(new AddressRange(0x1FFFL, 0x2FFFL).overlaps(a));
    assertFalse(a.overlaps(new AddressRange(0x2000L, 0x2FFFL)));
    assertFalse(new AddressRange(0x2000L, 0x2FFFL).overlaps(a));
    assertTrue(a.overlaps(new AddressRange(0x1800L, 0x1800L)));
  }

  @Test
  void shouldCompareUnsignedWhenOverlappingNear2To63() {
    AddressRange low = new AddressRange(0L, Long.MAX_VALUE);
    AddressRange high = new AddressRange(TWO_TO_63, MAX_U64);
    assertFalse(low.overlaps(high));
    assertFalse(high.overlaps(low));
    assertTrue(new AddressRange(Long.MAX_VALUE, TWO_TO_63).overlaps(high));
    assertTrue(new AddressRange(Long.MAX_VALUE, TWO_TO_63).overlaps(low));
  }

  @Test
  void shouldCoverOnlyWhenBothEndsAreInside() {
    AddressRange outer = new AddressRange(0x90000L, 0xEFFFFL);
    assertTrue(outer.covers(new AddressRange(0xA0000L, 0xEFFFFL)));
    assertTrue(outer.covers(outer));
    assertFalse(outer.covers(new AddressRange(0x80000L, 0xA0000L)));
    assertFalse(outer.covers(new AddressRange(0xA0000L, 0xF0000L)));
    assertFalse(new AddressRange(0xA0000L, 0xEFFFFL).covers(outer));
  }

  @Test
  void shouldPrintHexBoundsWhenFormatted() {
    assertEquals("[0x90000..0xEFFFF]", new AddressRange(0x90000L, 0xEFFFFL).toString());
    assertEquals("[0x8000000000000000..0xFFFFFFFFFFFFFFFF]",
        new AddressRange(TWO_TO_63, MAX_U64).toString());
  }
}
