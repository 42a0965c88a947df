package io.rackfabric.host.messaging;

import io.rackfabric.fabric.address.Addresses;

/**
 * Where one receiver keeps its software-based inbound queue structure (Multi-peer, Figures 8-10):
 * for each sender a FreeQ and a PostQ, rings of {@code buffers} entries, and {@code buffers} data
 * buffers of {@code bufferSize} bytes (4 KiB, a page). Every address derives from {@code base}.
 *
 * <pre>
 * base + s * controlBlockSize()            control block of sender s (4 KiB aligned)
 *   +0   PostQ tail   u64  written by the SENDER   (next sequence number it has posted)
 *   +8   doorbell     u64  written by the SENDER   (rung with the PostQ tail after each post)
 *   +64  PostQ head   u64  written by the RECEIVER (next sequence number it will consume)
 *   +72  FreeQ tail   u64  written by the RECEIVER (count of buffers ever returned)
 *   +128 FreeQ ring   N x {u64 buffer address, u64 free index}  written by the RECEIVER
 *   +128+16N PostQ ring N x {u64 buffer address, u64 sequence} written by the SENDER
 * base + senders * controlBlockSize()      buffers: sender s, buffer j at
 *   bufferBase + (s * N + j) * bufferSize  written by the SENDER, read by the RECEIVER
 * </pre>
 *
 * <p>Single-writer rule: every word has exactly one writer, so adding and removing entries needs no
 * semaphore (the paper's reason for one queue pair per sender rather than one shared pair). The
 * FreeQ head is not a shared word at all: only this sender takes from this FreeQ, so it keeps its
 * head privately; the receiver never needs it because N buffers cannot overflow an N-slot ring.
 * Ring entries carry their counter (free index or sequence number) next to the address so that a
 * reader tells a fresh entry from last lap's stale one without anyone clearing slots, which would
 * break the single-writer rule. Slots are 16 bytes and control words sit on separate 64-byte lines
 * so that the two writers never share a cache line.
 */
public record QueueLayout(long base, int senders, int buffers, int bufferSize) {

  public static final int DEFAULT_BUFFER_SIZE = 4096;
  public static final int ENTRY_SIZE = 16;
  static final int POST_TAIL = 0;
  static final int DOORBELL = 8;
  static final int POST_HEAD = 64;
  static final int FREE_TAIL = 72;
  static final int FREE_RING = 128;
  private static final int PAGE = 4096;

  /** What a word of the layout is, for tracing and for tests that lose one kind of write. */
  public enum Region {
    POST_TAIL, DOORBELL, POST_HEAD, FREE_TAIL, FREE_ENTRY, POST_ENTRY, BUFFER, OUTSIDE
  }

  public QueueLayout {
    if (base % PAGE != 0) {
      throw new IllegalArgumentException("base " + Addresses.hex(base) + " is not 4 KiB aligned");
    }
    if (senders < 1) {
      throw new IllegalArgumentException("senders " + senders + " must be at least 1");
    }
    if (buffers < 1) {
      throw new IllegalArgumentException("buffers " + buffers + " must be at least 1");
    }
    if (bufferSize <= DatagramHeader.SIZE || bufferSize % 64 != 0) {
      throw new IllegalArgumentException("bufferSize " + bufferSize
          + " must exceed the " + DatagramHeader.SIZE + "-byte header and be a multiple of 64");
    }
  }

  /** The paper's example: 4 KiB buffers. */
  public static QueueLayout of(long base, int senders, int buffers) {
    return new QueueLayout(base, senders, buffers, DEFAULT_BUFFER_SIZE);
  }

  public long controlBlockSize() {
    long used = FREE_RING + 2L * ENTRY_SIZE * buffers;
    return (used + PAGE - 1) / PAGE * PAGE;
  }

  public long bufferBase() {
    return base + senders * controlBlockSize();
  }

  /** Bytes from {@code base} to the end of the last buffer. */
  public long size() {
    return senders * controlBlockSize() + (long) senders * buffers * bufferSize;
  }

  public int maxPayload() {
    return bufferSize - DatagramHeader.SIZE;
  }

  private long control(int sender) {
    checkSender(sender);
    return base + sender * controlBlockSize();
  }

  public long postTailAddress(int sender) {
    return control(sender) + POST_TAIL;
  }

  public long doorbellAddress(int sender) {
    return control(sender) + DOORBELL;
  }

  public long postHeadAddress(int sender) {
    return control(sender) + POST_HEAD;
  }

  public long freeTailAddress(int sender) {
    return control(sender) + FREE_TAIL;
  }

  /** The FreeQ slot that holds the entry with this free index (a counter, taken modulo N). */
  public long freeEntryAddress(int sender, long freeIndex) {
    return control(sender) + FREE_RING + Math.floorMod(freeIndex, (long) buffers) * ENTRY_SIZE;
  }

  /** The PostQ slot that holds the entry for this sequence number (taken modulo N). */
  public long postEntryAddress(int sender, long sequence) {
    return control(sender) + FREE_RING + (long) buffers * ENTRY_SIZE
        + Math.floorMod(sequence, (long) buffers) * ENTRY_SIZE;
  }

  public long bufferAddress(int sender, int buffer) {
    checkSender(sender);
    if (buffer < 0 || buffer >= buffers) {
      throw new IllegalArgumentException("buffer " + buffer + " is not in [0, " + buffers + ")");
    }
    return bufferBase() + ((long) sender * buffers + buffer) * bufferSize;
  }

  /** The buffer index of {@code address} among sender's buffers, or -1 if it is not the start of one. */
  public int bufferIndexOf(int sender, long address) {
    checkSender(sender);
    long offset = address - bufferBase() - (long) sender * buffers * bufferSize;
    if (offset < 0 || offset % bufferSize != 0 || offset / bufferSize >= buffers) {
      return -1;
    }
    return (int) (offset / bufferSize);
  }

  /**
   * The sender whose control block or buffers hold {@code address}, or -1 outside the structure:
   * who wrote a doorbell or PostQ word that was just seen.
   */
  public int senderOf(long address) {
    if (address < base || address >= base + size()) {
      return -1;
    }
    if (address >= bufferBase()) {
      return (int) ((address - bufferBase()) / ((long) buffers * bufferSize));
    }
    return (int) ((address - base) / controlBlockSize());
  }

  /** Which word (or buffer) of the structure {@code address} falls in. */
  public Region regionOf(long address) {
    if (address < base || address >= base + size()) {
      return Region.OUTSIDE;
    }
    if (address >= bufferBase()) {
      return Region.BUFFER;
    }
    long offset = (address - base) % controlBlockSize();
    if (offset >= FREE_RING + 2L * ENTRY_SIZE * buffers) {
      return Region.OUTSIDE;
    }
    if (offset >= FREE_RING + (long) ENTRY_SIZE * buffers) {
      return Region.POST_ENTRY;
    }
    if (offset >= FREE_RING) {
      return Region.FREE_ENTRY;
    }
    if (offset == POST_TAIL) {
      return Region.POST_TAIL;
    }
    if (offset == DOORBELL) {
      return Region.DOORBELL;
    }
    if (offset == POST_HEAD) {
      return Region.POST_HEAD;
    }
    if (offset == FREE_TAIL) {
      return Region.FREE_TAIL;
    }
    return Region.OUTSIDE;
  }

  private void checkSender(int sender) {
    if (sender < 0 || sender >= senders) {
      throw new IllegalArgumentException("sender " + sender + " is not in [0, " + senders + ")");
    }
  }
}
