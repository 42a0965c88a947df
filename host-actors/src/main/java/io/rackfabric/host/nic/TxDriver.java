package io.rackfabric.host.nic;

/**
 * A compute host's VF transmit driver for one {@link SendPlan}: lays out a descriptor ring, a
 * head write-back word and packet buffers in the host's own memory, programs its VF's ring, and
 * sends each packet by storing the frame and its descriptor locally and ringing the tail
 * doorbell, a posted write that crosses the fabric to the NIC.
 *
 * <p>Local layout from {@code localBase}: the ring ({@code ringSize} descriptors), the write-back
 * word at the next 64-byte boundary, then one {@value #BUFFER_STRIDE}-byte buffer per slot from the
 * next 4 KiB boundary.
 *
 * <p>Model time: the ring is programmed at {@code startAt} and packet i is sent at {@code startAt +
 * (i + 1) * interval} (so the set-up write never queues in front of a packet), but never while {@code
 * maxOutstanding} descriptors are in flight: then it goes when the head write-back that frees a
 * slot arrives. With one in flight (the default) the NIC's reads of packet i are answered before
 * doorbell i+1 is issued, so every link carries the stream in model-time order.
 *
 * <p>A data-plane outage ({@link #skipWindow}): the slots whose model time falls in the window are
 * skipped, their sequence numbers never sent (lost, as a resetting host loses them), and the
 * stream goes on at the first slot after it. Skipping costs no wall time.
 */
public final class TxDriver {

  /** Bytes per packet buffer: room for a 1514-byte frame, 2 KiB aligned. */
  public static final int BUFFER_STRIDE = 2048;

  /** The host's side of the fabric. */
  public interface Host {
    /** A CPU store into the host's own memory. */
    void store(long localAddress, byte[] data);

    /** A posted write into the fabric at model time {@code at}. */
    void post(long address, byte[] data, long at);
  }

  private final SendPlan plan;
  private final int descriptorSize;
  private final Host host;
  private final long writeBackLocal;
  private final long buffersLocal;
  /** When each of the last maxOutstanding descriptors' write-backs arrived, by descriptor number. */
  private final long[] completedAt;
  private int sent;
  private int completed;
  /** Slots skipped because the data plane was down then: their sequence numbers are never sent. */
  private int skipped;
  private final java.util.List<long[]> downWindows = new java.util.ArrayList<>();
  private int lastHead;
  private int dropped;
  private long reopenedAt;
  private long firstSentAt = -1;
  private long lastSentAt = -1;
  private long lastCompletedAt = -1;

  public TxDriver(SendPlan plan, int descriptorSize, Host host) {
    this.plan = plan;
    this.descriptorSize = descriptorSize;
    this.host = host;
    this.writeBackLocal = align(plan.localBase() + (long) plan.ringSize() * descriptorSize, 64);
    this.buffersLocal = align(writeBackLocal + 4, 4096);
    this.completedAt = new long[plan.maxOutstanding()];
  }

  private static long align(long address, long to) {
    return (address + to - 1) & -to;
  }

  /** The head write-back word in the host's memory: the range to watch. */
  public long writeBackLocal() {
    return writeBackLocal;
  }

  /** The first byte after everything the driver uses. */
  public long localEnd() {
    return buffersLocal + (long) plan.ringSize() * BUFFER_STRIDE;
  }

  /** Programs the VF's ring (base, length, write-back), at the plan's start time. */
  public void setUp() {
    host.post(plan.vfBar() + RegisterMap.TDBAL,
        RegisterMap.ringSetup(plan.dmaOffset() + plan.localBase(), plan.ringSize(),
            plan.dmaOffset() + writeBackLocal), plan.startAt());
  }

  /** Whether another packet may go now: some left, and a slot free of the in-flight limit. */
  public boolean maySend() {
    return sent < plan.count() && sent - completed < plan.maxOutstanding();
  }

  /** Sends the next packet; returns its model send time. Call only when {@link #maySend}. */
  public long send() {
    if (!maySend()) {
      throw new IllegalStateException("sent=" + sent + " completed=" + completed + " of count=" + plan.count()
          + ": no packet may go now");
    }
    long at = slotTime();
    for (long[] w = downAt(at); w != null; w = downAt(at)) {
      skipped += (int) ((w[1] - at + plan.intervalNs() - 1) / plan.intervalNs());
      at = slotTime();
    }
    if (sent >= plan.maxOutstanding()) {
      at = Math.max(at, completedAt[(sent - plan.maxOutstanding()) % completedAt.length]);
    }
    at = Math.max(at, reopenedAt); // a port in recovery sends nothing until its handler reopened it
    int slot = sent % plan.ringSize();
    long buffer = buffersLocal + (long) slot * BUFFER_STRIDE;
    byte[] frame = UdpFrames.build(plan.vf(), sent + skipped, at, plan.payload());
    host.store(buffer, frame);
    host.store(plan.localBase() + (long) slot * descriptorSize,
        RegisterMap.descriptor(plan.dmaOffset() + buffer, frame.length, descriptorSize));
    host.post(plan.vfBar() + RegisterMap.TDT, RegisterMap.tail((slot + 1) % plan.ringSize()), at);
    sent++;
    if (firstSentAt < 0) {
      firstSentAt = at;
    }
    lastSentAt = at;
    return at;
  }

  private long slotTime() {
    return plan.startAt() + (sent + skipped + 1L) * plan.intervalNs();
  }

  private long[] downAt(long at) {
    for (long[] w : downWindows) {
      if (at >= w[0] && at < w[1]) {
        return w;
      }
    }
    return null;
  }

  /**
   * The data plane is down over [{@code from}, {@code until}) of model time (a whole-system
   * restart): packets not yet sent whose slot falls in it are skipped.
   */
  public void skipWindow(long from, long until) {
    if (until > from) {
      downWindows.add(new long[] {from, until});
    }
  }

  /** Slots skipped in data-plane outages. */
  public int skipped() {
    return skipped;
  }

  /** The NIC wrote its head index back; it landed in the host's memory at {@code arrivedAt}. */
  public void headWrittenBack(int head, long arrivedAt) {
    if (head < 0 || head >= plan.ringSize()) {
      return; // not a head this ring can have: ignore rather than miscount
    }
    int done = Math.floorMod(head - lastHead, plan.ringSize());
    lastHead = head;
    for (int i = 0; i < done && completed < sent; i++) {
      completedAt[completed % completedAt.length] = arrivedAt;
      completed++;
    }
    lastCompletedAt = Math.max(lastCompletedAt, arrivedAt);
  }

  /** Descriptors handed to the NIC and not yet written back. */
  public int pending() {
    return sent - completed;
  }

  /** Packets given up at a card recovery without host copies (GM): never sent, lost. */
  public int dropped() {
    return dropped;
  }

  /**
   * After the NIC's card was reset and reloaded, the VF's ring is programmed again at model time
   * {@code at}: base, length, write-back, the head where the last write-back left it and the tail.
   * With the host's copy ({@code fromHostCopy}, FTGM) the tail is where the driver stands, so the
   * NIC sends again what it had not completed (its descriptors and buffers are still in the host's
   * memory) and nothing it had: the last write-back is the commit point. Without (GM), the ring
   * starts empty where the driver stands and what was not written back is lost.
   */
  public void reopen(boolean fromHostCopy, long at) {
    int tail = sent % plan.ringSize();
    reopenedAt = Math.max(reopenedAt, at);
    if (!fromHostCopy) {
      while (completed < sent) {
        completedAt[completed % completedAt.length] = at;
        completed++;
        dropped++;
      }
      lastHead = tail;
    }
    host.post(plan.vfBar() + RegisterMap.TDBAL, RegisterMap.ringRestore(plan.dmaOffset() + plan.localBase(),
        plan.ringSize(), plan.dmaOffset() + writeBackLocal, lastHead, tail), at);
  }

  /** Every packet sent and written back. */
  public boolean finished() {
    return completed == plan.count();
  }

  public int vf() {
    return plan.vf();
  }

  public int sent() {
    return sent;
  }

  public int completed() {
    return completed;
  }

  public long firstSentAt() {
    return firstSentAt;
  }

  public long lastSentAt() {
    return lastSentAt;
  }

  public long lastCompletedAt() {
    return lastCompletedAt;
  }
}
