package io.rackfabric.fabric.tlp;

/** Shared TLP arithmetic: sizes on the wire, flow-control credits, validation. */
public final class Tlps {

  /** PCIe's largest payload (Max_Payload_Size 4096) also bounds read request length here. */
  public static final int MAX_LENGTH = 4096;

  /** One data credit covers 4 DW = 16 bytes. */
  public static final int BYTES_PER_DATA_CREDIT = 16;

  /** Sequence number (2), LCRC (4) and framing (2) around every TLP on the link. */
  public static final int LINK_OVERHEAD_BYTES = 8;

  private Tlps() {}

  static void checkLength(int length) {
    if (length <= 0 || length > MAX_LENGTH) {
      throw new IllegalArgumentException("length=" + length + " not in [1," + MAX_LENGTH + "]");
    }
  }

  static void checkConfig(int type, int register) {
    if (type != 0 && type != 1) {
      throw new IllegalArgumentException("config type=" + type + " not in {0,1}");
    }
    if (register < 0 || register > 1023) {
      throw new IllegalArgumentException("register=" + register + " not in [0,1023] (dwords)");
    }
  }

  static int memHeaderBytes(long address) {
    return (address >>> 32) == 0 ? 12 : 16;
  }

  public static int wireBytes(Tlp tlp) {
    return tlp.headerBytes() + tlp.payloadBytes() + LINK_OVERHEAD_BYTES;
  }

  public static int dataCredits(Tlp tlp) {
    return (tlp.payloadBytes() + BYTES_PER_DATA_CREDIT - 1) / BYTES_PER_DATA_CREDIT;
  }
}
