package io.rackfabric.host.nic;

/** One VF's state in the NIC: who owns it, its transmit ring, and its counters. */
final class TxQueue {

  final int vf;
  RequesterMatch owner0 = RequesterMatch.NONE;
  RequesterMatch owner1 = RequesterMatch.NONE;
  boolean enabled;
  long assignedAt = -1;
  int baseLow;
  int baseHigh;
  int length;
  int head;
  int tail;
  int writeBackLow;
  int writeBackHigh;
  /** Bumped whenever the ring restarts, so a DMA still in flight for the old ring is dropped. */
  int generation;

  long doorbells;
  long frames;
  long bytes;
  long foreignDoorbells;
  long foreignWrites;
  long disabledWrites;
  long badDoorbells;
  long badRings;
  long badDescriptors;
  long dmaErrors;

  TxQueue(int vf) {
    this.vf = vf;
  }

  boolean ownedBy(int requester) {
    return owner0.matches(requester) || owner1.matches(requester);
  }

  long ringBase() {
    return (long) baseHigh << 32 | (baseLow & 0xFFFF_FFFFL);
  }

  long writeBack() {
    return (long) writeBackHigh << 32 | (writeBackLow & 0xFFFF_FFFFL);
  }

  /** Descriptors between head and tail, ready to send. */
  int pending() {
    return length == 0 ? 0 : Math.floorMod(tail - head, length);
  }

  /** A new ring of {@code descriptors}, or none (0): empty, and anything in flight forgotten. */
  void restart(int descriptors) {
    length = descriptors;
    head = 0;
    tail = 0;
    generation++;
  }

  /** The VF is disabled: its queue is reset, as the PF driver expects before reassigning it. */
  void disable() {
    enabled = false;
    baseLow = baseHigh = writeBackLow = writeBackHigh = 0;
    restart(0);
  }

  NicStats.VfStats stats() {
    return new NicStats.VfStats(vf, enabled, owner0.encode(), owner1.encode(), assignedAt, ringBase(), length,
        head, tail, writeBack(), doorbells, frames, bytes, foreignDoorbells, foreignWrites, disabledWrites,
        badDoorbells, badRings, badDescriptors, dmaErrors);
  }
}
