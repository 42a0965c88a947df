package io.rackfabric.fabric.link;

import io.rackfabric.fabric.tlp.Tlp;

/**
 * The transmitter's half of the data link layer's retry: PCIe's replay buffer. Every sequenced TLP
 * is kept, with its sequence number, until the partner's Ack covers it; a Nak or the replay timer
 * sends everything still kept again, in order. REPLAY_NUM counts replays without progress: when
 * {@code limit} replays of the same TLP have not got it through, the next one is refused
 * ({@link #ROLLOVER}) and the owner takes the link down, where PCIe would retrain.
 *
 * <p>The replay timer runs in model time (it expires {@code timeoutNs} after it was started) but
 * is only looked at on the owner's wall-clock tick, after {@code idleTicks} ticks without
 * progress: in wall time an Ack may still be on its way, and expiring by model time alone would
 * replay TLPs the partner has long accepted. A spurious replay costs nothing but a duplicate the
 * receiver discards.
 *
 * <p>Entries live in a ring of fixed capacity, so retaining a TLP allocates nothing.
 */
public final class ReplayBuffer {

  /** Nothing to replay: every TLP sent was acknowledged. */
  public static final int NONE = 0;
  /** Replay everything kept, from {@link #seqAt}(0) on. */
  public static final int REPLAY = 1;
  /** REPLAY_NUM rolled over: the link must go down. */
  public static final int ROLLOVER = 2;

  private final Tlp[] ring;
  /** When each kept TLP last went on the wire, model ns. */
  private final long[] starts;
  private final long timeoutNs;
  private final int limit;
  private final int idleTicks;
  private int head;
  private int count;
  /** Sequence number of the oldest kept TLP (of the next one when none is kept). */
  private long headSeq = 1;
  private int replayNum;
  private boolean timerRunning;
  private long timerStart;
  private int ticksWithoutProgress;

  public ReplayBuffer(int capacity, long timeoutNs, int limit, int idleTicks) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity=" + capacity + " must be at least 1");
    }
    if (timeoutNs < 1) {
      throw new IllegalArgumentException("timeoutNs=" + timeoutNs + " must be positive");
    }
    if (limit < 1) {
      throw new IllegalArgumentException("limit=" + limit + " must be at least 1");
    }
    if (idleTicks < 1) {
      throw new IllegalArgumentException("idleTicks=" + idleTicks + " must be at least 1");
    }
    this.ring = new Tlp[capacity];
    this.starts = new long[capacity];
    this.timeoutNs = timeoutNs;
    this.limit = limit;
    this.idleTicks = idleTicks;
  }

  public boolean full() {
    return count == ring.length;
  }

  public boolean isEmpty() {
    return count == 0;
  }

  /** TLPs sent but not yet acknowledged. */
  public int outstanding() {
    return count;
  }

  /** The sequence number the next retained TLP gets. */
  public long nextSeq() {
    return headSeq + count;
  }

  /** Replays since the last progress (REPLAY_NUM). */
  public int replayNum() {
    return replayNum;
  }

  /** The {@code i}-th kept TLP, oldest first. */
  public Tlp tlpAt(int i) {
    return ring[(head + i) % ring.length];
  }

  public long seqAt(int i) {
    return headSeq + i;
  }

  /** When the {@code i}-th kept TLP last went on the wire (model ns). */
  public long startAt(int i) {
    return starts[(head + i) % ring.length];
  }

  /** The {@code i}-th kept TLP went on the wire again at model {@code start}. */
  public void restamp(int i, long start) {
    starts[(head + i) % ring.length] = start;
  }

  /** Keeps a TLP that went on the wire at model {@code sentAt}; returns its sequence number. */
  public long retain(Tlp tlp, long sentAt) {
    if (full()) {
      throw new IllegalStateException("replay buffer full (" + ring.length + " TLPs)");
    }
    long seq = nextSeq();
    ring[(head + count) % ring.length] = tlp;
    starts[(head + count) % ring.length] = sentAt;
    count++;
    if (!timerRunning) {
      startTimer(sentAt);
    }
    return seq;
  }

  /**
   * An Ack for everything up to {@code seq}, arrived at model {@code at}: frees those TLPs. Returns
   * how many were freed; any progress resets REPLAY_NUM and restarts the timer (stops it when
   * nothing is left).
   */
  public int onAck(long seq, long at) {
    int freed = 0;
    while (count > 0 && headSeq <= seq) {
      ring[head] = null;
      head = (head + 1) % ring.length;
      headSeq++;
      count--;
      freed++;
    }
    if (freed > 0) {
      replayNum = 0;
      ticksWithoutProgress = 0;
      if (count == 0) {
        timerRunning = false;
      } else {
        startTimer(at);
      }
    }
    return freed;
  }

  /**
   * A Nak: the partner has everything up to {@code seq} and wants the rest again. Frees what it
   * acknowledges and returns {@link #NONE}, {@link #REPLAY} or {@link #ROLLOVER}.
   */
  public int onNak(long seq, long at) {
    onAck(seq, at);
    return replay(at);
  }

  /**
   * The owner's wall-clock tick. Returns the model time at which the replay timer ran out when it
   * has (then call {@link #replay}), or -1.
   */
  public long tick() {
    if (!timerRunning || count == 0) {
      ticksWithoutProgress = 0;
      return -1;
    }
    if (++ticksWithoutProgress < idleTicks) {
      return -1;
    }
    ticksWithoutProgress = 0;
    return timerStart + timeoutNs;
  }

  /**
   * When the replay timer runs out in model time, or -1 when it is not running (for an owner
   * whose timers are model-time events).
   */
  public long deadline() {
    return timerRunning && count > 0 ? timerStart + timeoutNs : -1;
  }

  /**
   * The model-time replay timer's event at {@code now}: the time it ran out when it has (then call
   * {@link #replay}), or -1 when it was restarted or stopped since.
   */
  public long expire(long now) {
    long d = deadline();
    return d >= 0 && d <= now ? d : -1;
  }

  /** Decides a replay at model {@code at}: counts it, or refuses it once REPLAY_NUM is spent. */
  public int replay(long at) {
    if (count == 0) {
      return NONE;
    }
    if (replayNum >= limit) {
      return ROLLOVER;
    }
    replayNum++;
    ticksWithoutProgress = 0;
    startTimer(at);
    return REPLAY;
  }

  /** The replayed TLPs went out; the last of them at model {@code at}: the timer runs from there. */
  public void replayed(long at) {
    startTimer(at);
  }

  /** The link went down or retrains: everything kept is gone, numbering starts over. */
  public void reset() {
    java.util.Arrays.fill(ring, null);
    head = 0;
    count = 0;
    headSeq = 1;
    replayNum = 0;
    timerRunning = false;
    ticksWithoutProgress = 0;
  }

  private void startTimer(long at) {
    timerRunning = true;
    timerStart = at;
  }
}
