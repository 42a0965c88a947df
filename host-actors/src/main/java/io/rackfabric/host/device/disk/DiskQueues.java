package io.rackfabric.host.device.disk;

import io.rackfabric.host.device.Pcie;

/**
 * The one I/O queue pair's pointers, as the disk keeps them (both queues live in host memory):
 *
 * <ul>
 *   <li>Submission: the driver moves the tail with its doorbell; the disk fetches from {@code
 *       fetch} on and moves the head as fetched entries arrive (their slots are the driver's
 *       again). A queue of n entries holds n-1: a tail that would pass the head is refused.</li>
 *   <li>Completion: the disk posts at its tail with the current phase (1 on the first pass,
 *       flipped on each wrap); the driver frees entries with its head doorbell. The queue is full
 *       when the tail is one behind the head: a completion then waits for the driver.</li>
 * </ul>
 *
 * A plain class; the engine owns one per enabled queue pair.
 */
public final class DiskQueues {

  /** Largest queue NVMe allows: 16-bit pointers. */
  public static final long MAX_ENTRIES = 65_536;

  /** A completion entry's place: its bus address and the phase it carries. */
  public record Slot(long address, boolean phase) {}

  private final long sqBase;
  private final int sqSize;
  private final long cqBase;
  private final int cqSize;
  private int sqTail;
  private int sqHead;
  private int fetch;
  private int cqTail;
  private int cqHead;
  private boolean phase = true;

  private DiskQueues(long sqBase, int sqSize, long cqBase, int cqSize) {
    this.sqBase = sqBase;
    this.sqSize = sqSize;
    this.cqBase = cqBase;
    this.cqSize = cqSize;
  }

  /** The queue pair ENABLE describes, or null when it is not one: {@link #check} says why. */
  public static DiskQueues of(DiskRegisters.Enable e) {
    return check(e) == null ? new DiskQueues(e.sqBase(), (int) e.sqSize(), e.cqBase(), (int) e.cqSize()) : null;
  }

  /** Why ENABLE's queues cannot be used (naming the value), or null when they can. */
  public static String check(DiskRegisters.Enable e) {
    if (e.sqSize() < 2 || e.sqSize() > MAX_ENTRIES) {
      return "SQ_SIZE=" + e.sqSize() + " not in [2," + MAX_ENTRIES + "]";
    }
    if (e.cqSize() < 2 || e.cqSize() > MAX_ENTRIES) {
      return "CQ_SIZE=" + e.cqSize() + " not in [2," + MAX_ENTRIES + "]";
    }
    if (e.sqBase() % SubmissionEntry.SIZE != 0 || Pcie.wraps(e.sqBase(), e.sqSize() * SubmissionEntry.SIZE)) {
      return "SQ_BASE=0x" + Long.toHexString(e.sqBase()) + " not a multiple of " + SubmissionEntry.SIZE
          + " with the queue inside the address space";
    }
    if (e.cqBase() % CompletionEntry.SIZE != 0 || Pcie.wraps(e.cqBase(), e.cqSize() * CompletionEntry.SIZE)) {
      return "CQ_BASE=0x" + Long.toHexString(e.cqBase()) + " not a multiple of " + CompletionEntry.SIZE
          + " with the queue inside the address space";
    }
    return null;
  }

  /** The driver's tail doorbell: NONE when taken, else why not (the queue is left as it was). */
  public DiskRegisters.Error sqTailRung(long value) {
    if (value < 0 || value >= sqSize) {
      return DiskRegisters.Error.BAD_DOORBELL;
    }
    int added = mod(value - sqTail, sqSize);
    if (mod(sqTail - sqHead, sqSize) + added > sqSize - 1) {
      return DiskRegisters.Error.QUEUE_FULL; // the driver wrote past the entries the disk still owns
    }
    sqTail = (int) value;
    return DiskRegisters.Error.NONE;
  }

  /** The next submission entry to fetch (and counts it asked for), or -1 when all were. */
  public long nextFetch() {
    if (fetch == sqTail) {
      return -1;
    }
    long address = sqBase + (long) fetch * SubmissionEntry.SIZE;
    fetch = (fetch + 1) % sqSize;
    return address;
  }

  /** A fetched entry arrived (or its read failed): its slot is the driver's again. */
  public void fetched() {
    if (sqHead != fetch) {
      sqHead = (sqHead + 1) % sqSize;
    }
  }

  /** The driver's head doorbell: NONE when taken; a head past the disk's tail is refused. */
  public DiskRegisters.Error cqHeadRung(long value) {
    if (value < 0 || value >= cqSize) {
      return DiskRegisters.Error.BAD_DOORBELL;
    }
    if (mod(value - cqHead, cqSize) > mod(cqTail - cqHead, cqSize)) {
      return DiskRegisters.Error.BAD_DOORBELL; // consumes entries the disk has not posted
    }
    cqHead = (int) value;
    return DiskRegisters.Error.NONE;
  }

  /** Whether a completion can be posted now. */
  public boolean cqHasRoom() {
    return (cqTail + 1) % cqSize != cqHead;
  }

  /** Where the next completion goes; the tail moves on (the phase flips at the wrap). Check {@link #cqHasRoom} first. */
  public Slot post() {
    if (!cqHasRoom()) {
      throw new IllegalStateException("completion queue full: tail " + cqTail + ", head " + cqHead);
    }
    Slot s = new Slot(cqBase + (long) cqTail * CompletionEntry.SIZE, phase);
    cqTail = (cqTail + 1) % cqSize;
    if (cqTail == 0) {
      phase = !phase;
    }
    return s;
  }

  public int sqHead() {
    return sqHead;
  }

  public int sqTail() {
    return sqTail;
  }

  public int cqTail() {
    return cqTail;
  }

  public int cqHead() {
    return cqHead;
  }

  private static int mod(long v, int n) {
    return (int) Math.floorMod(v, (long) n);
  }
}
