package io.rackfabric.host.ftgm;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The invariant checker of a testbed: every application message is one flow's number, carried as
 * the message's payload; the log sees it submitted, confirmed by its send callback, and delivered.
 * A message delivered twice is a duplicate, one delivered after a later one of its flow is out of
 * order, one never delivered is lost.
 */
public final class DeliveryLog {

  private final List<String> flows = new ArrayList<>();
  private final Map<Long, Long> submittedAt = new HashMap<>();
  private final Set<Long> confirmed = new HashSet<>();
  private final Set<Long> delivered = new HashSet<>();
  private final Map<Integer, Long> highest = new HashMap<>();
  private long duplicates;
  private long outOfOrder;
  private long latencySumNs;

  /** A new flow (one sender port to one receiver port); returns its number. */
  public int flow(String name) {
    flows.add(name);
    return flows.size() - 1;
  }

  public static long payload(int flow, long n) {
    return (long) flow << 32 | n;
  }

  public void submitted(long payload, long at) {
    submittedAt.putIfAbsent(payload, at);
  }

  public void confirmed(long payload) {
    confirmed.add(payload);
  }

  public void delivered(long payload, long at) {
    if (!delivered.add(payload)) {
      duplicates++;
      return;
    }
    latencySumNs += at - submittedAt.getOrDefault(payload, at);
    int flow = (int) (payload >>> 32);
    long n = payload & 0xFFFF_FFFFL;
    Long top = highest.get(flow);
    if (top != null && n < top) {
      outOfOrder++;
    } else {
      highest.put(flow, n);
    }
  }

  /** Every submitted message's send completed. */
  public boolean allConfirmed() {
    return confirmed.containsAll(submittedAt.keySet());
  }

  public long submitted() {
    return submittedAt.size();
  }

  public long deliveredCount() {
    return delivered.size();
  }

  public long lost() {
    return submittedAt.keySet().stream().filter(p -> !delivered.contains(p)).count();
  }

  public long duplicates() {
    return duplicates;
  }

  public long outOfOrder() {
    return outOfOrder;
  }

  /** Mean model time from the application's send call to the receiving application having it. */
  public long meanLatencyNs() {
    return delivered.isEmpty() ? 0 : latencySumNs / delivered.size();
  }
}
