package io.rackfabric.cluster.lending;

import io.rackfabric.fabric.ntb.NtbBar;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The addresses from which a chain of NTB translations can lead to a given address: one NTB
 * crossing back to back, two in a Ladon rack (a compute host reaches another's memory through its
 * own NTB port and the other's, both on one NTB chip). Only candidates: whether a request really
 * takes that chain from a given requester is for the route explainer to say.
 *
 * <p>Pure, over a fixed list of translations.
 */
final class NtbChains {

  /** The most NTB crossings a chain may have; a rack path crosses at most two today. */
  static final int MAX_CROSSINGS = 3;

  /**
   * A source address and how many bytes from it every window of its chain maps straight on.
   *
   * @param crossings the translations of the chain
   */
  record Candidate(long source, long room, int crossings) {}

  private final List<NtbBar> translations;

  NtbChains(List<NtbBar> translations) {
    this.translations = List.copyOf(translations);
  }

  /**
   * The candidates toward {@code address}, fewest crossings first, then by source address (a fixed
   * order: the same topology gives the same answer); {@code room} bounds each one's room.
   */
  List<Candidate> toward(long address, long room) {
    List<Candidate> out = new ArrayList<>();
    List<Candidate> frontier = List.of(new Candidate(address, room, 0));
    for (int depth = 1; depth <= MAX_CROSSINGS && !frontier.isEmpty(); depth++) {
      Map<Long, Candidate> next = new LinkedHashMap<>();
      for (Candidate c : frontier) {
        for (NtbBar t : translations) {
          long offset = c.source() - t.translatedBase();
          long size = t.window().limit() - t.window().base() + 1;
          if (offset < 0 || Long.compareUnsigned(offset, size - 1) > 0) {
            continue;
          }
          long source = t.window().base() + offset;
          long left = Math.min(c.room(), size - offset);
          next.merge(source, new Candidate(source, left, depth),
              (a, b) -> a.room() >= b.room() ? a : b);
        }
      }
      frontier = next.values().stream().sorted(Comparator.comparingLong(Candidate::source)).toList();
      out.addAll(frontier);
    }
    return out;
  }
}
