package io.rackfabric.fabric.time;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The rack as the synchronization sees it: components and the directed channels between them,
 * each with its lookahead (the least model time between a component handling an event at t and
 * what that sends arriving at t + lookahead: a link's flight time for its smallest frame, a
 * switch chip's internal latency between sibling ports).
 *
 * <p>{@link #safeTimes} is the conservative rule: component v may handle every event before
 * {@code min over channels u->v of (D(u) + lookahead(u, v))}, where D(u) is the earliest model
 * time at which u could handle anything, given every component's earliest pending event and
 * every chain of channels that could carry its consequences to u (a shortest-path computation
 * from all pending events at once). Nothing stamped earlier can still reach v. A component's own
 * pending event does not hold it back, but an echo of it through a partner does. Channels of
 * lookahead 0 are allowed; a cycle of total lookahead 0 gives no component a window by this rule
 * alone (the keeper's books then let one component at a time handle its events at the earliest
 * time), and {@link #zeroCycle} finds one so that the keeper can say so.
 *
 * <p>Not thread-safe: one owner (the time keeper).
 */
public final class SyncGraph {

  private final Map<String, Integer> index = new HashMap<>();
  private final List<String> names = new ArrayList<>();
  /** Outgoing channels per component: target index and lookahead. */
  private final List<long[]> out = new ArrayList<>();
  private final List<int[]> outTargets = new ArrayList<>();

  /** The index of component {@code id}, adding it if new. */
  public int add(String id) {
    Integer i = index.get(id);
    if (i != null) {
      return i;
    }
    index.put(id, names.size());
    names.add(id);
    out.add(new long[0]);
    outTargets.add(new int[0]);
    return names.size() - 1;
  }

  /** The index of {@code id}, or -1 when it is not in the graph. */
  public int indexOf(String id) {
    return index.getOrDefault(id, -1);
  }

  public String name(int i) {
    return names.get(i);
  }

  public int size() {
    return names.size();
  }

  /**
   * Declares that {@code from} may send to {@code to} with at least {@code lookaheadNs} of model
   * time in between; a second declaration of the same channel keeps the smaller lookahead.
   */
  public void channel(String from, String to, long lookaheadNs) {
    if (lookaheadNs < 0) {
      throw new IllegalArgumentException("lookahead of " + from + " -> " + to + " = " + lookaheadNs + " ns is negative");
    }
    int f = add(from);
    int t = add(to);
    int[] targets = outTargets.get(f);
    long[] la = out.get(f);
    for (int k = 0; k < targets.length; k++) {
      if (targets[k] == t) {
        la[k] = Math.min(la[k], lookaheadNs);
        return;
      }
    }
    outTargets.set(f, Arrays.copyOf(targets, targets.length + 1));
    out.set(f, Arrays.copyOf(la, la.length + 1));
    outTargets.get(f)[targets.length] = t;
    out.get(f)[la.length] = lookaheadNs;
  }

  /**
   * For each component, the model time before which it may handle its events.
   *
   * @param next each component's earliest pending event, {@code Long.MAX_VALUE} for none
   * @return safe times, {@code Long.MAX_VALUE} where nothing can ever reach the component
   */
  public long[] safeTimes(long[] next) {
    int n = names.size();
    if (next.length != n) {
      throw new IllegalArgumentException("next has " + next.length + " entries for " + n + " components");
    }
    long[] earliest = next.clone();
    // Dijkstra from every pending event at once, on an indexed binary heap of primitives: the
    // keeper runs this every round, so it is the kernel's hottest loop.
    int[] heap = heapOf(n);
    int[] pos = posOf(n);
    int size = 0;
    for (int i = 0; i < n; i++) {
      pos[i] = -1;
      if (earliest[i] != Long.MAX_VALUE) {
        heap[size] = i;
        pos[i] = size;
        size++;
      }
    }
    for (int k = size / 2 - 1; k >= 0; k--) {
      siftDown(heap, pos, earliest, k, size);
    }
    while (size > 0) {
      int u = heap[0];
      size--;
      pos[u] = -2; // settled
      if (size > 0) {
        heap[0] = heap[size];
        pos[heap[0]] = 0;
        siftDown(heap, pos, earliest, 0, size);
      }
      int[] targets = outTargets.get(u);
      long[] la = out.get(u);
      long from = earliest[u];
      for (int k = 0; k < targets.length; k++) {
        int v = targets[k];
        long reach = saturatingAdd(from, la[k]);
        if (reach < earliest[v]) {
          earliest[v] = reach;
          if (pos[v] == -1) {
            heap[size] = v;
            pos[v] = size;
            size++;
          }
          // A settled v cannot improve: lookaheads are never negative.
          siftUp(heap, pos, earliest, pos[v]);
        }
      }
    }
    long[] safe = new long[n];
    Arrays.fill(safe, Long.MAX_VALUE);
    for (int u = 0; u < n; u++) {
      if (earliest[u] == Long.MAX_VALUE) {
        continue;
      }
      int[] targets = outTargets.get(u);
      long[] la = out.get(u);
      for (int k = 0; k < targets.length; k++) {
        safe[targets[k]] = Math.min(safe[targets[k]], saturatingAdd(earliest[u], la[k]));
      }
    }
    return safe;
  }

  private int[] heapScratch = new int[0];
  private int[] posScratch = new int[0];

  private int[] heapOf(int n) {
    if (heapScratch.length < n) {
      heapScratch = new int[n];
    }
    return heapScratch;
  }

  private int[] posOf(int n) {
    if (posScratch.length < n) {
      posScratch = new int[n];
    }
    return posScratch;
  }

  private static void siftUp(int[] heap, int[] pos, long[] key, int at) {
    int v = heap[at];
    while (at > 0) {
      int parent = (at - 1) >>> 1;
      int p = heap[parent];
      if (key[p] <= key[v]) {
        break;
      }
      heap[at] = p;
      pos[p] = at;
      at = parent;
    }
    heap[at] = v;
    pos[v] = at;
  }

  private static void siftDown(int[] heap, int[] pos, long[] key, int at, int size) {
    int v = heap[at];
    while (true) {
      int child = 2 * at + 1;
      if (child >= size) {
        break;
      }
      if (child + 1 < size && key[heap[child + 1]] < key[heap[child]]) {
        child++;
      }
      int c = heap[child];
      if (key[v] <= key[c]) {
        break;
      }
      heap[at] = c;
      pos[c] = at;
      at = child;
    }
    heap[at] = v;
    pos[v] = at;
  }

  /** A cycle whose channels all have lookahead 0, as component names, or an empty list. */
  public List<String> zeroCycle() {
    int n = names.size();
    int[] state = new int[n]; // 0 new, 1 on the path, 2 done
    int[] parent = new int[n];
    for (int s = 0; s < n; s++) {
      if (state[s] != 0) {
        continue;
      }
      // Iterative depth-first search over zero-lookahead channels only.
      int[] stack = new int[n];
      int[] edge = new int[n];
      int depth = 0;
      stack[0] = s;
      state[s] = 1;
      parent[s] = -1;
      while (depth >= 0) {
        int u = stack[depth];
        int[] targets = outTargets.get(u);
        long[] la = out.get(u);
        if (edge[depth] < targets.length) {
          int k = edge[depth]++;
          if (la[k] != 0) {
            continue;
          }
          int v = targets[k];
          if (state[v] == 1) {
            List<String> cycle = new ArrayList<>();
            for (int w = u; w != v; w = parent[w]) {
              cycle.add(0, names.get(w));
            }
            cycle.add(0, names.get(v));
            return cycle;
          }
          if (state[v] == 0) {
            state[v] = 1;
            parent[v] = u;
            stack[++depth] = v;
            edge[depth] = 0;
          }
        } else {
          state[u] = 2;
          depth--;
        }
      }
    }
    return List.of();
  }

  private static long saturatingAdd(long a, long b) {
    long r = a + b;
    return r < a ? Long.MAX_VALUE : r;
  }
}
