package io.rackfabric.fabric.endpoint;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a receiver saw of each sender's numbered stream: unique deliveries, duplicates, and
 * arrivals behind a later sequence number (reordering). Loss is what the sender sent minus the
 * unique deliveries, once the run has quiesced.
 *
 * <p>Each stream is kept as the ranges of sequence numbers that arrived, so its memory grows with
 * the gaps (losses, reordering) and not with what was sent: a stream of a hundred million writes
 * in order is two numbers. In-order arrivals only extend the highest range.
 */
public final class StreamTracker {

  private static final class Stream {
    /** The highest range of arrived numbers, [tailStart, tailEnd); empty before the first. */
    long tailStart;
    long tailEnd;
    /** The ranges below the tail, start to end (exclusive), none touching another. */
    final TreeMap<Long, Long> below = new TreeMap<>();
  }

  private final Map<Integer, Stream> streams = new HashMap<>();
  private int lastSource;
  private Stream lastStream;
  private long unique;
  private long duplicates;
  private long reordered;

  /** Returns whether the write was a unique delivery (not a duplicate, not unnumbered). */
  public boolean arrived(int source, long seq) {
    if (seq < 0) {
      return false; // not a numbered stream
    }
    // Writes come in runs from one source: skip the map (and boxing the key) while it repeats.
    Stream s;
    if (source == lastSource && lastStream != null) {
      s = lastStream;
    } else {
      s = streams.computeIfAbsent(source, k -> new Stream());
      lastSource = source;
      lastStream = s;
    }
    if (seq == s.tailEnd && s.tailEnd > s.tailStart) {
      s.tailEnd++; // the common case: the next in order
      unique++;
      return true;
    }
    if (s.tailEnd == s.tailStart) { // the first of its stream
      s.tailStart = seq;
      s.tailEnd = seq + 1;
      unique++;
      return true;
    }
    if (seq > s.tailEnd) { // a gap: the tail goes below, a new tail begins
      s.below.put(s.tailStart, s.tailEnd);
      s.tailStart = seq;
      s.tailEnd = seq + 1;
      unique++;
      return true;
    }
    if (seq >= s.tailStart) {
      duplicates++;
      return false;
    }
    // Behind the highest number seen: a duplicate if a range below holds it, else a late arrival.
    Map.Entry<Long, Long> floor = s.below.floorEntry(seq);
    if (floor != null && seq < floor.getValue()) {
      duplicates++;
      return false;
    }
    unique++;
    reordered++;
    long start = seq;
    long end = seq + 1;
    if (floor != null && floor.getValue() == seq) { // joins the range below it
      start = floor.getKey();
      s.below.remove(start);
    }
    if (end == s.tailStart) { // and the tail above it
      s.tailStart = start;
      return true;
    }
    Long next = s.below.higherKey(seq);
    if (next != null && next == end) {
      end = s.below.remove(next);
    }
    s.below.put(start, end);
    return true;
  }

  public long unique() {
    return unique;
  }

  public long duplicates() {
    return duplicates;
  }

  public long reordered() {
    return reordered;
  }

  public int streams() {
    return streams.size();
  }

  /**
   * How many distinct sequence numbers below {@code bound} arrived from {@code source}: what of a
   * stream numbered from 0 to {@code bound - 1} was delivered. In time proportional to the ranges.
   */
  public long uniqueBelow(int source, long bound) {
    Stream s = streams.get(source);
    if (s == null) {
      return 0;
    }
    long n = Math.max(0, Math.min(bound, s.tailEnd) - s.tailStart);
    for (Map.Entry<Long, Long> r : s.below.headMap(bound).entrySet()) {
      n += Math.min(bound, r.getValue()) - r.getKey();
    }
    return n;
  }

  /** Ranges kept for {@code source}'s stream (its gaps plus one): what its memory grows with. */
  int ranges(int source) {
    Stream s = streams.get(source);
    return s == null ? 0 : s.below.size() + (s.tailEnd > s.tailStart ? 1 : 0);
  }
}
