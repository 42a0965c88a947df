package io.rackfabric.cluster.topology;

import java.util.HashMap;
import java.util.Map;

/**
 * Disjoint sets of strings, with path compression: how the parser tells which components share a
 * PCIe domain (links join sets; an NTB port does not). A string never joined is a set of its own.
 */
final class UnionFind {

  private final Map<String, String> parent = new HashMap<>();

  /** The representative of {@code x}'s set: equal for two strings exactly when they share a set. */
  String find(String x) {
    String p = parent.getOrDefault(x, x);
    if (p.equals(x)) {
      return x;
    }
    String root = find(p);
    parent.put(x, root);
    return root;
  }

  /** Joins the sets of a and b; false when they were one set already. */
  boolean union(String a, String b) {
    String ra = find(a);
    String rb = find(b);
    if (ra.equals(rb)) {
      return false;
    }
    parent.put(ra, rb);
    return true;
  }
}
