package io.rackfabric.loadtests.scenario.language;

import java.util.List;

/**
 * A kind of fault, invariant or figure producer that scenario files name by {@link #name()}. The
 * parser checks a file against the kinds a {@link KindCatalog} holds: unknown kind names, unknown
 * keys and parameters of the wrong type are reported with the file and line like any other
 * problem. Kinds are stateless; the parsed scenario keeps their names, not the objects.
 */
public interface ScenarioKind {

  /** The name files use ({@code link-down}, {@code in-order}); lower case with dashes. */
  String name();

  /** One line for the README and {@code rack run --kinds}. */
  String summary();

  /** The kind's own keys besides the common ones, with their defaults. */
  default List<Param> params() {
    return List.of();
  }

  /** Where a kind reports a problem it found in its own check: a key of its object, or null. */
  interface Reporter {
    void problem(String key, String reason);
  }
}
