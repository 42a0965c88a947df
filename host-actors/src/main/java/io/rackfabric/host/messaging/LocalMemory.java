package io.rackfabric.host.messaging;

/**
 * A host's own memory, which it reads and writes directly (no fabric, nothing lost). Addresses are
 * the same global addresses its peers use through their {@link MemoryPort}.
 */
public interface LocalMemory {

  byte[] read(long address, int length);

  void write(long address, byte[] data);

  default long readLong(long address) {
    return Words.getLong(read(address, 8), 0);
  }

  default void writeLong(long address, long value) {
    write(address, Words.ofLong(value));
  }

  default int readInt(long address) {
    return Words.getInt(read(address, 4), 0);
  }

  default void writeInt(long address, int value) {
    write(address, Words.ofInt(value));
  }
}
