package io.rackfabric.fabric.ntb;

import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.address.Addresses;
import io.rackfabric.fabric.wire.WireMessage;

/**
 * A BAR on one side of an NTB with its memory translation register: an address inside {@code
 * window} is relayed to the other side as {@code translatedBase + (address - window.base)}.
 */
public record NtbBar(AddressRange window, long translatedBase) implements WireMessage {

  public NtbBar {
    long last = translatedBase + (window.limit() - window.base());
    if (Long.compareUnsigned(last, translatedBase) < 0) {
      throw new IllegalArgumentException(
          "translation of " + window + " to " + Addresses.hex(translatedBase) + " runs past 64 bits");
    }
  }

  public long translate(long address) {
    return translatedBase + (address - window.base());
  }

  /** The range this BAR's window lands on, on the other side. */
  public AddressRange target() {
    return new AddressRange(translatedBase, translate(window.limit()));
  }
}
