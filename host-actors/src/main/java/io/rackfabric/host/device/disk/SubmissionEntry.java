package io.rackfabric.host.device.disk;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * One command in the submission queue in host memory: 64 bytes, little-endian, laid out where an
 * NVMe I/O command keeps the same fields (the rest is reserved, zero):
 *
 * <pre>
 * 0x00  8  opcode: 0x01 WRITE (host buffer to disk), 0x02 READ (disk to host buffer), as NVMe's
 * 0x02 16  command id, echoed in the completion
 * 0x18 64  the host buffer's bus address (NVMe's PRP1): one contiguous buffer, no PRP lists
 * 0x28 64  starting LBA
 * 0x30 16  number of 512-byte blocks; unlike NVMe not zero-based, so 0 is a command to refuse
 * </pre>
 *
 * @param opcode the raw byte, so an unknown one reaches the disk and is answered there
 * @param commandId 0..65535
 */
public record SubmissionEntry(int opcode, int commandId, long buffer, long lba, int blocks) {

  public static final int SIZE = 64;
  public static final int WRITE = 0x01;
  public static final int READ = 0x02;

  static final int OPCODE = 0x00;
  static final int COMMAND_ID = 0x02;
  static final int BUFFER = 0x18;
  static final int LBA = 0x28;
  static final int BLOCKS = 0x30;

  public static SubmissionEntry read(int commandId, long buffer, long lba, int blocks) {
    return new SubmissionEntry(READ, commandId, buffer, lba, blocks);
  }

  public static SubmissionEntry write(int commandId, long buffer, long lba, int blocks) {
    return new SubmissionEntry(WRITE, commandId, buffer, lba, blocks);
  }

  /** The 64 bytes a driver stores into its submission queue. */
  public byte[] encode() {
    return ByteBuffer.allocate(SIZE).order(ByteOrder.LITTLE_ENDIAN)
        .put(OPCODE, (byte) opcode)
        .putShort(COMMAND_ID, (short) commandId)
        .putLong(BUFFER, buffer)
        .putLong(LBA, lba)
        .putShort(BLOCKS, (short) blocks)
        .array();
  }

  /** The entry in {@code b}, 64 bytes as the disk fetched them. */
  public static SubmissionEntry decode(byte[] b) {
    if (b == null || b.length != SIZE) {
      throw new IllegalArgumentException("a submission entry is " + SIZE + " bytes, got "
          + (b == null ? "none" : b.length));
    }
    ByteBuffer in = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
    return new SubmissionEntry(in.get(OPCODE) & 0xFF, in.getShort(COMMAND_ID) & 0xFFFF, in.getLong(BUFFER),
        in.getLong(LBA), in.getShort(BLOCKS) & 0xFFFF);
  }

  /** Bytes the command moves. */
  public int bytes() {
    return blocks * DiskBlocks.BLOCK;
  }
}
