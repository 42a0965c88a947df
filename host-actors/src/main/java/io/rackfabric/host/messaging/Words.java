package io.rackfabric.host.messaging;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** Little-endian words, as PCIe memory and x86 hosts lay them out. */
final class Words {

  private Words() {}

  static byte[] ofLong(long value) {
    return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(value).array();
  }

  static byte[] ofInt(int value) {
    return ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(value).array();
  }

  static byte[] ofLongs(long a, long b) {
    return ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN).putLong(a).putLong(b).array();
  }

  static long getLong(byte[] data, int offset) {
    return ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN).getLong(offset);
  }

  static int getInt(byte[] data, int offset) {
    return ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN).getInt(offset);
  }
}
