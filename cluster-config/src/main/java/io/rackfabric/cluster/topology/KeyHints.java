package io.rackfabric.cluster.topology;

import java.util.Locale;
import java.util.Set;

/**
 * "Did you mean" hints for misspelt keys and names in the rack's HOCON files: which allowed name a
 * wrong one most likely meant.
 */
public final class KeyHints {

  private KeyHints() {}

  /**
   * The allowed key a misspelt one most likely meant: one it abbreviates ("mem" for "memory"),
   * else the nearest within edit distance 2; null when none is that close.
   */
  public static String closest(String key, Set<String> allowed) {
    String lower = key.toLowerCase(Locale.ROOT);
    if (lower.length() >= 3) {
      for (String a : allowed) {
        if (a.startsWith(lower) || lower.startsWith(a)) {
          return a;
        }
      }
    }
    String best = null;
    int bestDistance = 3;
    for (String a : allowed) {
      int d = distance(key.toLowerCase(Locale.ROOT), a);
      if (d < bestDistance) {
        bestDistance = d;
        best = a;
      }
    }
    return best;
  }

  /** The edit (Levenshtein) distance of {@code a} and {@code b}, for "did you mean" hints. */
  public static int distance(String a, String b) {
    int[] prev = new int[b.length() + 1];
    int[] cur = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      prev[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      cur[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
      }
      int[] t = prev;
      prev = cur;
      cur = t;
    }
    return prev[b.length()];
  }
}
