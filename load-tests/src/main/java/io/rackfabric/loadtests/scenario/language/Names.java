package io.rackfabric.loadtests.scenario.language;

import java.util.Collection;
import java.util.List;

/** Lists of names in messages, cut short when long. */
final class Names {

  private static final int MAX_HINTS = 12;

  private Names() {}

  static String hint(Collection<String> names) {
    List<String> list = List.copyOf(names);
    if (list.isEmpty()) {
      return "none";
    }
    if (list.size() <= MAX_HINTS) {
      return String.join(", ", list);
    }
    return String.join(", ", list.subList(0, MAX_HINTS)) + ", ... (" + list.size() + " in all)";
  }
}
