package io.rackfabric.loadtests.scenario.language;

import io.rackfabric.cluster.topology.Fields;
import io.rackfabric.cluster.topology.KeyHints;
import io.rackfabric.cluster.topology.Problems;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.regex.Pattern;

/**
 * What the section parsers of one scenario file share: where its problems go, the wall-time
 * faults {@code --check} reports apart, the catalog of kinds, the file's name as problems show
 * it, the seeded random that picks a fault's time from a range, and the traffic names the file
 * declares. One per file, filled as {@link ScenarioParser} reads it.
 */
final class ScenarioFile {

  /** A scenario's or a generator's name: it names a folder, so nothing a path or a URL would read. */
  static final Pattern NAME = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]*");

  final Problems problems;
  final KindCatalog<?, ?, ?> catalog;
  final String display;
  /** Faults on the wall clock, reported by {@code --check} of a run asked to be reproducible. */
  final Problems wallTime;
  /** Every traffic name the file declares, valid or not: a reference to a broken one is not news. */
  final Set<String> declaredTraffic = new HashSet<>();
  private SplittableRandom random;

  ScenarioFile(Problems problems, KindCatalog<?, ?, ?> catalog) {
    this.problems = problems;
    this.catalog = catalog;
    this.display = problems.display();
    this.wallTime = problems.sibling();
  }

  /** The scenario's seed is known: times drawn from a range follow it. */
  void seed(long seed) {
    random = new SplittableRandom(seed);
  }

  SplittableRandom random() {
    return random;
  }

  /** Where an item of the file is, as a spec's {@code where} names it: {@code file:line}. */
  String where(Fields f) {
    return display + ":" + line(f);
  }

  static int line(Fields f) {
    return f.origin() == null ? -1 : f.origin().lineNumber();
  }

  /** A closest known name to suggest (when one is close), then every known name. */
  static String suggestion(String name, List<String> known) {
    String best = null;
    int bestDistance = 4;
    for (String k : known) {
      int d = KeyHints.distance(name.toLowerCase(Locale.ROOT), k);
      if (d < bestDistance) {
        bestDistance = d;
        best = k;
      }
    }
    return (best == null ? "" : " (did you mean '" + best + "'?)") + "; known: " + String.join(", ", known);
  }
}
