package io.rackfabric.cluster.topology;

import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.host.memory.MemorySizes;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/** How the topology checks write lines, names and ranges into their messages, so all read alike. */
final class ProblemText {

  private static final int MAX_HINTS = 12;

  private ProblemText() {}

  static int line(Fields f) {
    return f.origin().lineNumber();
  }

  static String sizeText(AddressRange r) {
    return MemorySizes.size(r.size());
  }

  /** A short list of names for "did you mean" hints. */
  static String hint(Collection<String> names) {
    if (names.isEmpty()) {
      return "none";
    }
    List<String> list = new ArrayList<>(names);
    return list.size() <= MAX_HINTS
        ? String.join(", ", list)
        : String.join(", ", list.subList(0, MAX_HINTS)) + ", ... (" + list.size() + " in all)";
  }

  /** {@code [32GiB, 64GiB)}. */
  static String range(AddressRange r) {
    return MemorySizes.halfOpen(r);
  }
}
