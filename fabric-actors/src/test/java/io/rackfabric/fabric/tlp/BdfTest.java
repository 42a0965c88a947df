package io.rackfabric.fabric.tlp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class BdfTest {

  @Test
  void shouldPackBusDeviceFunctionWhenBuilt() {
    assertEquals(0x0325, Bdf.of(3, 4, 5)); // bus 15..8, device 7..3, function 2..0
    assertEquals(0x0000, Bdf.of(0, 0, 0));
    assertEquals(0xFFFF, Bdf.of(255, 31, 7));
    assertEquals(0x0100, Bdf.of(1, 0, 0));
    assertEquals(0x0008, Bdf.of(0, 1, 0));
    assertEquals(0x0001, Bdf.of(0, 0, 1));
  }

  @Test
  void shouldUnpackEachFieldWhenPacked() {
    for (int bus : new int[] {0, 1, 4, 128, 255}) {
      for (int dev = 0; dev <= 31; dev++) {
        for (int fn = 0; fn <= 7; fn++) {
          int bdf = Bdf.of(bus, dev, fn);
          assertEquals(bus, Bdf.bus(bdf));
          assertEquals(dev, Bdf.device(bdf));
          assertEquals(fn, Bdf.function(bdf));
        }
      }
    }
  }

  @Test
  void shouldFormatAsLspciWhenPrinted() {
    assertEquals("03:04.5", Bdf.format(Bdf.of(3, 4, 5)));
    assertEquals("ff:1f.7", Bdf.format(Bdf.of(255, 31, 7)));
    assertEquals("00:00.0", Bdf.format(0));
    assertEquals("0a:10.2", Bdf.format(Bdf.of(10, 16, 2)));
  }

  @Test
  void shouldRejectAndNameTheFieldWhenOutOfRange() {
    IllegalArgumentException bus =
        assertThrows(IllegalArgumentException.class, () -> Bdf.of(256, 0, 0));
    assertTrue(bus.getMessage().contains("bus=256"), bus.getMessage());
    IllegalArgumentException dev =
        assertThrows(IllegalArgumentException.class, () -> Bdf.of(0, 32, 0));
    assertTrue(dev.getMessage().contains("device=32"), dev.getMessage());
    IllegalArgumentException fn =
        assertThrows(IllegalArgumentException.class, () -> Bdf.of(0, 0, 8));
    assertTrue(fn.getMessage().contains("function=8"), fn.getMessage());
    assertThrows(IllegalArgumentException.class, () -> Bdf.of(-1, 0, 0));
    assertThrows(IllegalArgumentException.class, () -> Bdf.of(0, -1, 0));
    assertThrows(IllegalArgumentException.class, () -> Bdf.of(0, 0, -1));
  }
}
