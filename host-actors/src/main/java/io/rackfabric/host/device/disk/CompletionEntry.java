package io.rackfabric.host.device.disk;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * One entry the disk posts into the completion queue in host memory: 16 bytes, little-endian, laid
 * out as NVMe's:
 *
 * <pre>
 * 0x00 64  reserved (NVMe's command-specific dwords), zero
 * 0x08 16  the submission queue's head: entries up to it were fetched, the driver may reuse them
 * 0x0A 16  submission queue id, 0 (one I/O queue pair)
 * 0x0C 16  command id of the command it completes
 * 0x0E 16  bit 0 phase, bits 15:1 {@link Status}
 * </pre>
 *
 * The phase bit is 1 on the queue's first pass and flips each time the disk wraps to its start,
 * so a driver tells a new entry from an old one without the disk writing anything else.
 */
public record CompletionEntry(int sqHead, int commandId, Status status, boolean phase) {

  public static final int SIZE = 16;

  /** A completion's status, NVMe's generic status codes for what the disk checks. */
  public enum Status {
    SUCCESS(0x00), INVALID_OPCODE(0x01), INVALID_FIELD(0x02), DATA_TRANSFER_ERROR(0x04), LBA_OUT_OF_RANGE(0x80);

    private final int code;

    Status(int code) {
      this.code = code;
    }

    public int code() {
      return code;
    }

    /** The status of a code, null for one the disk never writes. */
    public static Status of(int code) {
      for (Status s : values()) {
        if (s.code == code) {
          return s;
        }
      }
      return null;
    }
  }

  public byte[] encode() {
    return ByteBuffer.allocate(SIZE).order(ByteOrder.LITTLE_ENDIAN)
        .putShort(0x08, (short) sqHead)
        .putShort(0x0C, (short) commandId)
        .putShort(0x0E, (short) (status.code() << 1 | (phase ? 1 : 0)))
        .array();
  }

  public static CompletionEntry decode(byte[] b) {
    if (b == null || b.length != SIZE) {
      throw new IllegalArgumentException("a completion entry is " + SIZE + " bytes, got "
          + (b == null ? "none" : b.length));
    }
    ByteBuffer in = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
    int last = in.getShort(0x0E) & 0xFFFF;
    Status status = Status.of(last >>> 1);
    if (status == null) {
      throw new IllegalArgumentException("status code 0x" + Integer.toHexString(last >>> 1) + " is none of the disk's");
    }
    return new CompletionEntry(in.getShort(0x08) & 0xFFFF, in.getShort(0x0C) & 0xFFFF, status, (last & 1) == 1);
  }
}
