package io.rackfabric.fabric.address;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class AddressesTest {

  @Test
  void shouldParseHexWhenPrefixedWith0x() {
    assertEquals(0x90000L, Addresses.parse("0x90000"));
    assertEquals(0xB0040L, Addresses.parse("0XB0040"));
    assertEquals(0xabcdefL, Addresses.parse("0xabcdef"));
  }

  @Test
  void shouldParseDecimalWhenNoPrefixOrUnit() {
    assertEquals(589824L, Addresses.parse("589824"));
    assertEquals(0L, Addresses.parse("0"));
  }

  @Test
  void shouldParseBinaryUnitsWhenSuffixed() {
    assertEquals(32L << 30, Addresses.parse("32GiB"));
    assertEquals(1L << 40, Addresses.parse("1TiB"));
    assertEquals(4096L, Addresses.parse("4KiB"));
    assertEquals(3L << 20, Addresses.parse("3 MiB"));
    assertEquals(16L, Addresses.parse("16B"));
  }

  @Test
  void shouldIgnoreUnderscoresAndSurroundingSpaceWhenParsing() {
    assertEquals(0x1_0000_0000L, Addresses.parse(" 0x1_0000_0000 "));
  }

  @Test
  void shouldParseAll64BitsWhenValueIs2To64Minus1() {
    assertEquals(-1L, Addresses.parse("0xFFFFFFFFFFFFFFFF"));
    assertEquals(Long.MIN_VALUE, Addresses.parse("0x8000000000000000"));
    assertEquals(-1L, Addresses.parse("18446744073709551615"));
  }

  @Test
  void shouldRejectAndNameTheTextWhenValueIsOutside64Bits() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> Addresses.parse("0x1_0000_0000_0000_0000"));
    assertTrue(e.getMessage().contains("0x1_0000_0000_0000_0000"), e.getMessage());
    assertTrue(e.getMessage().contains("outside 64 bits"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> Addresses.parse("18446744073709551616"));
    // 2^24 TiB = 2^64: one past the top
    assertThrows(IllegalArgumentException.class, () -> Addresses.parse("16777216TiB"));
  }

  @Test
  void shouldRejectAndNameTheTextWhenNotANumber() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Addresses.parse("abc"));
    assertTrue(e.getMessage().contains("'abc'"), e.getMessage());
    assertTrue(e.getMessage().contains("not an address or size"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> Addresses.parse(""));
    assertThrows(IllegalArgumentException.class, () -> Addresses.parse("0x"));
    assertThrows(IllegalArgumentException.class, () -> Addresses.parse("0xZZ"));
    assertThrows(IllegalArgumentException.class, () -> Addresses.parse("-5"));
  }

  @Test
  void shouldRejectAndNameTheUnitWhenUnitIsUnknown() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Addresses.parse("32GiX"));
    assertTrue(e.getMessage().contains("'32GiX'"), e.getMessage());
    assertTrue(e.getMessage().contains("'GiX'"), e.getMessage());
  }

  @Test
  void shouldPrintUpperCaseHexWhenFormatting() {
    assertEquals("0x90000", Addresses.hex(0x90000L));
    assertEquals("0xB0040", Addresses.hex(0xB0040L));
    assertEquals("0xFFFFFFFFFFFFFFFF", Addresses.hex(-1L));
    assertEquals("0x0", Addresses.hex(0L));
  }

  @Test
  void shouldRoundTripWhenParsingPrintedHex() {
    long[] values = {0L, 1L, 0x90000L, Long.MAX_VALUE, Long.MIN_VALUE, -1L, 0xDEAD_BEEF_0000L};
    for (long v : values) {
      assertEquals(v, Addresses.parse(Addresses.hex(v)), Addresses.hex(v));
    }
  }
}
