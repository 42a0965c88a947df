package io.rackfabric.host.enumeration;

import io.rackfabric.fabric.config.ConfigSpace;

/**
 * Sizes a function's BARs the way software does: writes all ones, reads back the mask of address
 * bits the BAR ignores, and restores what was there; a 64-bit BAR takes two registers. I/O BARs
 * are reported and left alone (I/O space is not assigned).
 */
final class BarSizing {

  private final ConfigRequests requests;

  BarSizing(ConfigRequests requests) {
    this.requests = requests;
  }

  /** Sizes BAR {@code index} and those after it, up to register {@code count} of the header. */
  Runnable sizeBar(ProbedFunction f, int index, int count) {
    return () -> {
      if (index >= count) {
        return;
      }
      int reg = ConfigSpace.REG_BAR0 + index;
      requests.then(requests.read(f, reg, origLow -> requests.then(
          requests.write(f, reg, 0xFFFF_FFFF),
          requests.read(f, reg, maskLow -> sized(f, index, count, origLow, maskLow)))));
    };
  }

  private void sized(ProbedFunction f, int index, int count, int origLow, int maskLow) {
    int reg = ConfigSpace.REG_BAR0 + index;
    if (maskLow == 0) {
      requests.then(requests.write(f, reg, origLow), sizeBar(f, index + 1, count)); // no BAR here
      return;
    }
    if ((maskLow & 1) != 0) {
      requests.problem(f, "BAR" + index + " is an I/O BAR; I/O space is not assigned");
      requests.then(requests.write(f, reg, origLow), sizeBar(f, index + 1, count));
      return;
    }
    boolean is64 = ((maskLow >>> 1) & 3) == 2;
    boolean pref = (maskLow & 0x8) != 0;
    if (!is64 || index + 1 >= count) {
      f.bars.add(BarProbe.of(index, 0xFFFF_FFFF_0000_0000L | (maskLow & 0xFFFF_FFF0L), false, pref, maskLow & 0xF));
      requests.then(requests.write(f, reg, origLow), sizeBar(f, index + 1, count));
      return;
    }
    requests.then(requests.read(f, reg + 1, origHigh -> requests.then(
        requests.write(f, reg + 1, 0xFFFF_FFFF),
        requests.read(f, reg + 1, maskHigh -> {
          long mask = ((long) maskHigh << 32) | (maskLow & 0xFFFF_FFF0L);
          f.bars.add(BarProbe.of(index, mask, true, pref, maskLow & 0xF));
          requests.then(requests.write(f, reg + 1, origHigh), requests.write(f, reg, origLow),
              sizeBar(f, index + 2, count));
        }))));
  }
}
