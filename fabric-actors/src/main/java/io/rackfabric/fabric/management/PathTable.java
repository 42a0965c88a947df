package io.rackfabric.fabric.management;

import io.rackfabric.fabric.wire.WireMessage;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * An endpoint's path table (AS-FM section 4: "obtain and distribute to the endpoints a new set of
 * routes"): for every other endpoint it reaches, the route from it, its own port first, as a
 * source route's turns. Entries are ordered by destination serial number.
 *
 * @param endpoint the serial number of the endpoint that holds it
 * @param entries one per destination, ordered by destination
 */
public record PathTable(long endpoint, List<Entry> entries) implements WireMessage {

  /** The route to {@code destination}. */
  public record Entry(long destination, Route route) implements WireMessage {
    @Override
    public String toString() {
      return String.format("%016X via %s", destination, route);
    }
  }

  private static final Comparator<Entry> BY_DESTINATION = (a, b) -> Long.compareUnsigned(a.destination, b.destination);

  public PathTable {
    List<Entry> sorted = new ArrayList<>(entries);
    sorted.sort(BY_DESTINATION);
    for (int i = 1; i < sorted.size(); i++) {
      if (sorted.get(i).destination() == sorted.get(i - 1).destination()) {
        throw new IllegalArgumentException(String.format("destination %016X listed twice", sorted.get(i).destination()));
      }
    }
    entries = List.copyOf(sorted);
  }

  public Optional<Route> route(long destination) {
    return entries.stream().filter(e -> e.destination() == destination).map(Entry::route).findFirst();
  }

  /**
   * The first entry, by destination, where {@code held} differs from this table: "DEST: expected
   * ROUTE, held ROUTE" (with "none" for a missing one); null when they are equal.
   */
  public String firstDifference(PathTable held) {
    java.util.TreeSet<Long> all = new java.util.TreeSet<>(Long::compareUnsigned);
    entries.forEach(e -> all.add(e.destination()));
    held.entries().forEach(e -> all.add(e.destination()));
    for (long d : all) {
      Optional<Route> want = route(d);
      Optional<Route> got = held.route(d);
      if (!want.equals(got)) {
        return String.format("%016X: expected %s, held %s", d, want.map(Route::toString).orElse("none"),
            got.map(Route::toString).orElse("none"));
      }
    }
    return null;
  }
}
