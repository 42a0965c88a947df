package io.rackfabric.host.messaging;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.zip.CRC32;

/**
 * The 16 bytes in front of every datagram in its buffer: sequence number (u64), payload length
 * (u32) and a CRC-32 over a constant tag, the sequence number, the length and the payload. The
 * receiver delivers a buffer only if the CRC matches and the sequence number is the one the PostQ
 * entry promised, so a lost, torn or stale data write is never delivered. The constant tag keeps an
 * all-zero (never written) buffer from checking out as datagram 0 of length 0.
 */
final class DatagramHeader {

  static final int SIZE = 16;
  private static final byte[] TAG = {'R', 'F', 'D', 'G'};

  private DatagramHeader() {}

  /** Header and payload, ready to be written into a buffer in one write. */
  static byte[] encode(long sequence, byte[] payload) {
    ByteBuffer b = ByteBuffer.allocate(SIZE + payload.length).order(ByteOrder.LITTLE_ENDIAN);
    b.putLong(sequence).putInt(payload.length).putInt(crc(sequence, payload, 0, payload.length));
    b.put(payload);
    return b.array();
  }

  /**
   * The payload if {@code buffer} holds an intact datagram {@code sequence}, else null.
   *
   * @param buffer the whole buffer as read from memory
   */
  static byte[] decode(byte[] buffer, long sequence) {
    ByteBuffer b = ByteBuffer.wrap(buffer).order(ByteOrder.LITTLE_ENDIAN);
    long seq = b.getLong(0);
    int length = b.getInt(8);
    int crc = b.getInt(12);
    if (seq != sequence || length < 0 || length > buffer.length - SIZE) {
      return null;
    }
    if (crc(seq, buffer, SIZE, length) != crc) {
      return null;
    }
    return Arrays.copyOfRange(buffer, SIZE, SIZE + length);
  }

  /** The sequence number field, whatever the rest holds. */
  static long sequenceOf(byte[] buffer) {
    return Words.getLong(buffer, 0);
  }

  private static int crc(long sequence, byte[] data, int offset, int length) {
    CRC32 crc = new CRC32();
    crc.update(TAG);
    crc.update(ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN)
        .putLong(sequence).putInt(length).array());
    crc.update(data, offset, length);
    return (int) crc.getValue();
  }
}
