package io.rackfabric.fabric.ntb;

import io.rackfabric.fabric.tlp.Bdf;
import io.rackfabric.fabric.wire.WireMessage;

/**
 * One programmed entry of an NTB's requester-ID table: requests of {@code original} crossing in
 * {@code direction} carry proxy ID number {@code index} of that direction's {@link ProxyIdSpace}.
 */
public record RequesterIdEntry(NtbDirection direction, int index, int original)
    implements WireMessage {

  public RequesterIdEntry {
    if (direction == null) {
      throw new IllegalArgumentException("direction is missing (TO_VIRTUAL or TO_LINK)");
    }
    if (index < 0 || index >= ProxyIdSpace.ARI_FUNCTIONS) {
      throw new IllegalArgumentException(
          "index=" + index + " not in [0," + (ProxyIdSpace.ARI_FUNCTIONS - 1) + "]");
    }
    if (original < 0 || original > 0xFFFF) {
      throw new IllegalArgumentException(
          "original=0x" + Integer.toHexString(original) + " is not a 16-bit requester ID");
    }
  }

  @Override
  public String toString() {
    return direction + " " + Bdf.format(original) + " -> #" + index;
  }
}
