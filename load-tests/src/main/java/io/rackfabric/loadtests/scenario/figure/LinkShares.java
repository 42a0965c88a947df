package io.rackfabric.loadtests.scenario.figure;

import io.rackfabric.fabric.stats.WireUse;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The bandwidth each link carried inside the run's meter window, and each link's share of the
 * next link on the paths that cross it (AS-FM section 2.3, Figure 5). A link is named by its
 * transmitting end (an endpoint's id, a switch port's {@code switch.port}); a path is the list of
 * ends a generator's writes leave through, source first. All from the ends' wire meters: bytes on
 * the wire inside the window over the window's model time.
 */
public final class LinkShares {

  /**
   * One link.
   *
   * @param end its transmitting end
   * @param carriedMBps bytes on the wire inside the window over its length, MB/s (10^6 bytes/s)
   * @param utilization wire time inside the window over its length
   * @param linkMBps what the link carries at most, MB/s
   * @param next the end the paths cross next, null at a path's last link
   * @param shareOfNext carried over the next link's carried; NaN without a next or when it
   *     carried nothing
   * @param feeders the distinct ends the paths cross just before this one (its fan-in)
   */
  public record Link(String end, double carriedMBps, double utilization, double linkMBps, String next,
      double shareOfNext, int feeders) {}

  private LinkShares() {}

  /**
   * The links of {@code paths}, in order of their distance from the sources then of first
   * appearance, from the wire use of each end at the start and the end of the run.
   *
   * @throws IllegalArgumentException naming the end when an end has no statistics, the window is
   *     not set, or two paths leave one end toward different next ends
   */
  public static List<Link> of(List<List<String>> paths, Map<String, WireUse> atStart, Map<String, WireUse> atEnd) {
    Map<String, String> next = new LinkedHashMap<>();
    Map<String, Set<String>> feeders = new LinkedHashMap<>();
    List<List<String>> levels = new ArrayList<>();
    for (List<String> path : paths) {
      for (int i = 0; i < path.size(); i++) {
        String end = path.get(i);
        while (levels.size() <= i) {
          levels.add(new ArrayList<>());
        }
        if (!levels.get(i).contains(end)) {
          levels.get(i).add(end);
        }
        feeders.computeIfAbsent(end, k -> new LinkedHashSet<>());
        if (i > 0) {
          feeders.get(end).add(path.get(i - 1));
        }
        String after = i + 1 < path.size() ? path.get(i + 1) : null;
        if (!next.containsKey(end)) {
          next.put(end, after);
        } else if (!Objects.equals(next.get(end), after)) {
          throw new IllegalArgumentException("link " + end + " leads to " + next.get(end) + " on one path and to "
              + after + " on another: no single next link to share");
        }
      }
    }
    Map<String, double[]> measured = new LinkedHashMap<>();
    for (String end : next.keySet()) {
      measured.put(end, measure(end, atStart.get(end), atEnd.get(end)));
    }
    List<Link> out = new ArrayList<>();
    Set<String> done = new LinkedHashSet<>();
    for (List<String> level : levels) {
      for (String end : level) {
        if (!done.add(end)) {
          continue;
        }
        double[] m = measured.get(end);
        String after = next.get(end);
        double share = after == null || measured.get(after)[0] == 0 ? Double.NaN : m[0] / measured.get(after)[0];
        out.add(new Link(end, m[0], m[1], m[2], after, share, feeders.get(end).size()));
      }
    }
    return out;
  }

  /** carried MB/s, utilization and the link's MB/s of one end inside the window. */
  private static double[] measure(String end, WireUse start, WireUse stop) {
    if (stop == null) {
      throw new IllegalArgumentException("link " + end + ": no statistics at the end of the run");
    }
    if (!stop.windowed()) {
      throw new IllegalArgumentException("link " + end + ": no meter window (set rackfabric.fabric.wire-meter"
          + ".from and .to, from < to)");
    }
    WireUse before = start == null ? WireUse.NONE : start;
    double windowNs = stop.to() - stop.from();
    double bytes = stop.windowBytes() - before.windowBytes();
    long busy = stop.windowBusyNs() - before.windowBusyNs();
    // bytes per ns is 10^9 bytes/s, a thousand MB/s.
    return new double[] {bytes / windowNs * 1000, busy / windowNs, stop.bitsPerNs() / 8 * 1000};
  }
}
