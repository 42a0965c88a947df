package io.rackfabric.fabric.management;

import io.rackfabric.fabric.wire.WireMessage;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * An endpoint's path table (AS-FM section 4: "obtain and distribute to the endpoints a new set of
 * routes"): for every other endpoint it reaches, the route from it, its own port first, as a
 * source route's turns; with several routes per destination, rank 0 is the route the fabric
 * manager chose and rank 1 an alternate that avoids the chosen route's second device (in the
 * Ladon rack the other plane). Entries are ordered by destination serial number, then rank.
 *
 * @param endpoint the serial number of the endpoint that holds it
 * @param entries one per destination and rank, ordered by destination and rank
 */
public record PathTable(long endpoint, List<Entry> entries) implements WireMessage {

  /** The route of rank {@code rank} (0: the chosen one) to {@code destination}. */
  public record Entry(long destination, Route route, int rank) implements WireMessage {

    public Entry {
      if (rank < 0 || rank >= PathTableCapability.MAX_RANKS) {
        throw new IllegalArgumentException("rank=" + rank + " not in [0," + (PathTableCapability.MAX_RANKS - 1) + "]");
      }
    }

    /** The chosen route (rank 0) to {@code destination}. */
    public Entry(long destination, Route route) {
      this(destination, route, 0);
    }

    /** The destination and rank: what a slot holds a route for. */
    Key key() {
      return new Key(destination, rank);
    }

    @Override
    public String toString() {
      return String.format("%016X via %s%s", destination, route, rank == 0 ? "" : " (rank " + rank + ")");
    }
  }

  /** A destination and a rank. */
  record Key(long destination, int rank) {}

  private static final Comparator<Key> BY_KEY = (a, b) -> a.destination == b.destination
      ? Integer.compare(a.rank, b.rank) : Long.compareUnsigned(a.destination, b.destination);

  public PathTable {
    List<Entry> sorted = new ArrayList<>(entries);
    sorted.sort((a, b) -> BY_KEY.compare(a.key(), b.key()));
    for (int i = 1; i < sorted.size(); i++) {
      if (sorted.get(i).key().equals(sorted.get(i - 1).key())) {
        throw new IllegalArgumentException(String.format("destination %016X rank %d listed twice",
            sorted.get(i).destination(), sorted.get(i).rank()));
      }
    }
    entries = List.copyOf(sorted);
  }

  /** The chosen route (rank 0) to {@code destination}. */
  public Optional<Route> route(long destination) {
    return route(new Key(destination, 0));
  }

  Optional<Route> route(Key key) {
    return entries.stream().filter(e -> e.key().equals(key)).map(Entry::route).findFirst();
  }

  /** The chosen routes (rank 0), one per destination. */
  public List<Entry> chosen() {
    return entries.stream().filter(e -> e.rank() == 0).toList();
  }

  /**
   * The first entry, by destination and rank, where {@code held} differs from this table: "DEST:
   * expected ROUTE, held ROUTE" (with "none" for a missing one, and the rank after DEST when not
   * 0); null when they are equal.
   */
  public String firstDifference(PathTable held) {
    TreeSet<Key> all = new TreeSet<>(BY_KEY);
    entries.forEach(e -> all.add(e.key()));
    held.entries().forEach(e -> all.add(e.key()));
    for (Key k : all) {
      Optional<Route> want = route(k);
      Optional<Route> got = held.route(k);
      if (!want.equals(got)) {
        return String.format("%016X%s: expected %s, held %s", k.destination(), k.rank() == 0 ? "" : " rank " + k.rank(),
            want.map(Route::toString).orElse("none"), got.map(Route::toString).orElse("none"));
      }
    }
    return null;
  }
}
