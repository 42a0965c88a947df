package io.rackfabric.fabric.endpoint;

import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;

/**
 * What a receiver saw of each sender's numbered stream: unique deliveries, duplicates, and
 * arrivals behind a later sequence number (reordering). Loss is what the sender sent minus the
 * unique deliveries, once the run has quiesced.
 */
public final class StreamTracker {

  private static final class Stream {
    final BitSet seen = new BitSet();
    long highest = -1;
  }

  private final Map<Integer, Stream> streams = new HashMap<>();
  private int lastSource;
  private Stream lastStream;
  private long unique;
  private long duplicates;
  private long reordered;

  public void arrived(int source, long seq) {
    if (seq < 0 || seq > Integer.MAX_VALUE) {
      return; // not a numbered stream
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
    int i = (int) seq;
    if (s.seen.get(i)) {
      duplicates++;
      return;
    }
    s.seen.set(i);
    unique++;
    if (seq < s.highest) {
      reordered++;
    }
    s.highest = Math.max(s.highest, seq);
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
}
