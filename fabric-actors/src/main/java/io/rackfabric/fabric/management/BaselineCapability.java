package io.rackfabric.fabric.management;

/**
 * The baseline capability's general information and port pointer table, laid out as AS-FM Fig. 6
 * draws it (the paper says its offsets may differ between devices; these are ours):
 *
 * <pre>
 * 100h  [31:20] next capability (byte offset, 0 = none)  [19:16] version  [15:0] ID (F000h, as Fig. 9 prints)
 * 104h  [31:16] max packet size, bytes  [15:8] turn bits (ceil(log2(port count)))  [3:0] device type
 * 108h  serial number [31:0]
 * 10Ch  serial number [63:32]
 * 110h  [31:16] the port this read came in through (FFFFh: read by the device itself)  [15:0] port count
 * 114h  reserved, reads 0
 * 118h  pointer to port 0's record, 138h port 8's, ...: blocks of eight, ceil(port count / 8) of them;
 *       a pointer is the record's offset with its aperture in bits [3:0]; 0 past the last port
 * </pre>
 *
 * The six registers from 100h are the "first six 32-bit blocks" of general information and each
 * pointer block is eight pointers, as AS-FM section 3.1 and Fig. 9 (Request Code 6 and 8) have
 * them. Everything here is read-only.
 */
final class BaselineCapability implements ConfigRegion {

  static final int ID = 0xF000;
  static final long OFFSET = 0x100;
  static final int GENERAL_DWORDS = 6;
  static final long POINTERS_OFFSET = OFFSET + 4L * GENERAL_DWORDS;
  static final int POINTERS_PER_BLOCK = 8;
  /** "up to 256 32-bit blocks that point to the information about each particular port". */
  static final int MAX_PORTS = 256;
  /** Where port records start and how far apart they are (Fig. 9: 10000h, 10200h, ..., 11000h for port 8). */
  static final long PORT_RECORDS = 0x10000;
  static final long PORT_RECORD_STRIDE = 0x200;

  private final GeneralInfo info;
  private final long nextCapability;

  BaselineCapability(GeneralInfo info, long nextCapability) {
    this.info = info;
    this.nextCapability = nextCapability;
  }

  /** Pointer blocks a device of {@code ports} ports has. */
  static int pointerBlocks(int ports) {
    return (ports + POINTERS_PER_BLOCK - 1) / POINTERS_PER_BLOCK;
  }

  /** Offset of pointer block {@code block}. */
  static long pointerBlockOffset(int block) {
    return POINTERS_OFFSET + 4L * POINTERS_PER_BLOCK * block;
  }

  static long portRecordOffset(int port) {
    return PORT_RECORDS + PORT_RECORD_STRIDE * port;
  }

  @Override
  public long offset() {
    return OFFSET;
  }

  @Override
  public int dwords() {
    return GENERAL_DWORDS + POINTERS_PER_BLOCK * pointerBlocks(info.portCount());
  }

  @Override
  public int read(int index, int ingressPort) {
    if (index < GENERAL_DWORDS) {
      return info.withIngressPort(ingressPort).encode(nextCapability)[index];
    }
    int port = index - GENERAL_DWORDS;
    return port < info.portCount() ? PortPointer.encode(0, portRecordOffset(port)) : 0;
  }

  @Override
  public boolean write(int index, int[] data) {
    return false;
  }

  /**
   * The general information (100h-117h), decoded.
   *
   * @param ingressPort the port the read came in through, -1 when the device read itself
   */
  record GeneralInfo(DeviceType type, int maxPayload, long serial, int portCount, int ingressPort) {

    /** Turn bits a source route needs to name one of this device's ports. */
    int turnBits() {
      return 32 - Integer.numberOfLeadingZeros(Math.max(portCount - 1, 0));
    }

    GeneralInfo withIngressPort(int port) {
      return new GeneralInfo(type, maxPayload, serial, portCount, port);
    }

    int[] encode(long nextCapability) {
      return new int[] {
        (int) (nextCapability << 20) | ID,
        (maxPayload << 16) | (turnBits() << 8) | type.code(),
        (int) serial,
        (int) (serial >>> 32),
        ((ingressPort < 0 ? 0xFFFF : ingressPort) << 16) | portCount,
        0
      };
    }

    static GeneralInfo decode(int[] d) {
      if (d.length != GENERAL_DWORDS) {
        throw new IllegalArgumentException("general information is " + GENERAL_DWORDS + " registers, got " + d.length);
      }
      if ((d[0] & 0xFFFF) != ID) {
        throw new IllegalArgumentException(String.format("capability ID=%04Xh at 100h, not the baseline's %04Xh",
            d[0] & 0xFFFF, ID));
      }
      int ingress = d[4] >>> 16;
      return new GeneralInfo(DeviceType.ofCode(d[1] & 0xF), d[1] >>> 16,
          (d[2] & 0xFFFF_FFFFL) | ((long) d[3] << 32), d[4] & 0xFFFF, ingress == 0xFFFF ? -1 : ingress);
    }

    /** The next capability's offset that {@code d} (encoded general information) names. */
    static long nextCapability(int[] d) {
      return d[0] >>> 20;
    }
  }

  /** A port pointer: the record's offset with its aperture in the low four bits. */
  record PortPointer(int aperture, long offset) {

    static int encode(int aperture, long offset) {
      if ((offset & 0xF) != 0) {
        throw new IllegalArgumentException(String.format("offset=%Xh not 16-byte aligned", offset));
      }
      return (int) offset | aperture;
    }

    /** The pointer in {@code word}, or null for 0 (no port). */
    static PortPointer decode(int word) {
      return word == 0 ? null : new PortPointer(word & 0xF, word & 0xFFFF_FFF0L);
    }
  }
}
