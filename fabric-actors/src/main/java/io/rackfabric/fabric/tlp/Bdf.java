package io.rackfabric.fabric.tlp;

/**
 * Bus/device/function IDs packed the way PCIe carries them in a 16-bit requester or completer ID:
 * bus in bits 15..8, device in 7..3, function in 2..0. Plain static helpers on an int so that the
 * per-TLP path allocates nothing.
 */
public final class Bdf {

  private Bdf() {}

  public static int of(int bus, int device, int function) {
    if (bus < 0 || bus > 255) {
      throw new IllegalArgumentException("bus=" + bus + " not in [0,255]");
    }
    if (device < 0 || device > 31) {
      throw new IllegalArgumentException("device=" + device + " not in [0,31]");
    }
    if (function < 0 || function > 7) {
      throw new IllegalArgumentException("function=" + function + " not in [0,7]");
    }
    return (bus << 8) | (device << 3) | function;
  }

  public static int bus(int bdf) {
    return (bdf >>> 8) & 0xFF;
  }

  public static int device(int bdf) {
    return (bdf >>> 3) & 0x1F;
  }

  public static int function(int bdf) {
    return bdf & 0x7;
  }

  public static String format(int bdf) {
    return String.format("%02x:%02x.%x", bus(bdf), device(bdf), function(bdf));
  }
}
