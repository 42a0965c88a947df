package io.rackfabric.fabric.time;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.PriorityQueue;

/**
 * The model-time events a component has received and not yet handled, in the one order that
 * does not depend on which thread ran first: by model time, then by input channel (a fixed
 * number: the link is 0, a switch port's sibling n is 1 + n), then by arrival order within the
 * channel. Akka keeps the order of messages between one sender and one receiver, and a sender
 * that handles its own events in this order sends in a deterministic order, so the per-channel
 * sequence number is deterministic too.
 *
 * <p>Not thread-safe: one owner (the component's actor).
 */
public final class InputQueue<E> {

  /**
   * One queued event; a {@code background} one (a periodic timer: a heartbeat, a deadline that
   * moves with every heartbeat) does not keep the rack busy (see {@link #nextBusyTime}).
   */
  public record Entry<E>(long time, int channel, long seq, E event, boolean background) {}

  private final PriorityQueue<Entry<E>> queue = new PriorityQueue<>((a, b) -> {
    int byTime = Long.compare(a.time, b.time);
    if (byTime != 0) {
      return byTime;
    }
    int byChannel = Integer.compare(a.channel, b.channel);
    return byChannel != 0 ? byChannel : Long.compare(a.seq, b.seq);
  });
  private long[] channelSeq = new long[8];
  private int backgroundCount;
  /** Sequence numbers of channels below 0 (the component's own timers, a driver). */
  private long[] internalSeq = new long[4];

  /** Queues {@code event}, due at model time {@code time}, received on {@code channel}. */
  public void add(long time, int channel, E event) {
    queue.add(new Entry<>(time, channel, nextSeq(channel), event, false));
  }

  /** Queues a background event (see {@link Entry}): handled in order, but no reason to run on. */
  public void addBackground(long time, int channel, E event) {
    queue.add(new Entry<>(time, channel, nextSeq(channel), event, true));
    backgroundCount++;
  }

  private long nextSeq(int channel) {
    if (channel >= 0) {
      if (channel >= channelSeq.length) {
        channelSeq = Arrays.copyOf(channelSeq, Math.max(channel + 1, 2 * channelSeq.length));
      }
      return channelSeq[channel]++;
    }
    int i = -channel - 1;
    if (i >= internalSeq.length) {
      internalSeq = Arrays.copyOf(internalSeq, Math.max(i + 1, 2 * internalSeq.length));
    }
    return internalSeq[i]++;
  }

  /**
   * Re-stamps every queued event due in [{@code from}, {@code until}) to {@code until} (a paused
   * component handles them when its pause ends), keeping each one's channel and arrival number,
   * so their order is the same on every run.
   */
  public void defer(long from, long until) {
    List<Entry<E>> moved = new ArrayList<>();
    queue.removeIf(e -> {
      if (e.time >= from && e.time < until) {
        moved.add(e);
        return true;
      }
      return false;
    });
    moved.forEach(e -> queue.add(new Entry<>(until, e.channel, e.seq, e.event, e.background)));
  }

  /** The model time of the earliest queued event, or {@code Long.MAX_VALUE} when none is. */
  public long nextTime() {
    Entry<E> head = queue.peek();
    return head == null ? Long.MAX_VALUE : head.time;
  }

  /**
   * The model time of the earliest queued event that is not background, or {@code Long.MAX_VALUE}
   * when none is. Background events are few (a host's timers), so the scan is short.
   */
  public long nextBusyTime() {
    if (backgroundCount == 0) {
      return nextTime();
    }
    if (backgroundCount == queue.size()) {
      return Long.MAX_VALUE;
    }
    long min = Long.MAX_VALUE;
    for (Entry<E> e : queue) {
      if (!e.background && e.time < min) {
        min = e.time;
      }
    }
    return min;
  }

  /** Removes and returns the first event due strictly before {@code limit}, or null. */
  public Entry<E> pollBefore(long limit) {
    return pollBefore(limit, limit);
  }

  /**
   * As above, and null when the first event is background and not before {@code backgroundLimit}:
   * the events after it wait too (the order is never broken).
   */
  public Entry<E> pollBefore(long limit, long backgroundLimit) {
    Entry<E> head = queue.peek();
    if (head == null || head.time >= limit || (head.background && head.time >= backgroundLimit)) {
      return null;
    }
    Entry<E> e = queue.poll();
    if (e.background) {
      backgroundCount--;
    }
    return e;
  }

  /**
   * Removes every queued event equal to {@code event} (background or not); true when one was. By
   * equality, so that a sender can name an event it did not keep (a guest's wake: its guest and
   * token).
   */
  public boolean remove(E event) {
    int[] removedBackground = {0};
    boolean removed = queue.removeIf(e -> {
      if (!e.event().equals(event)) {
        return false;
      }
      if (e.background) {
        removedBackground[0]++;
      }
      return true;
    });
    backgroundCount -= removedBackground[0];
    return removed;
  }

  public int size() {
    return queue.size();
  }

  public boolean isEmpty() {
    return queue.isEmpty();
  }
}
