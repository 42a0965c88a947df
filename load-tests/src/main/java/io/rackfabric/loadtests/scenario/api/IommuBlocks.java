package io.rackfabric.loadtests.scenario.api;

import io.rackfabric.fabric.stats.EndpointStats;
import io.rackfabric.fabric.tlp.Bdf;
import io.rackfabric.host.iommu.IsolationPlan;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * What the hosts' IOMMUs blocked during a run, read off the endpoints' own counters (start to
 * end): per target endpoint and requester, the reads answered with Unsupported Request and the
 * posted writes dropped. A requester is named by the host it is (the plan knows under which IDs,
 * one per plane, each host arrives at each other), else by its ID.
 */
public final class IommuBlocks {

  /** Accesses of {@code requester} that {@code target}'s IOMMU blocked. */
  public record Blocked(String target, String requester, long reads, long writes) {

    public long total() {
      return reads + writes;
    }
  }

  private IommuBlocks() {}

  /** Every (target, requester) with at least one access blocked between the two snapshots, sorted. */
  public static List<Blocked> between(Map<String, EndpointStats> start, Map<String, EndpointStats> end,
      IsolationPlan plan) {
    Map<String, Map<String, long[]>> byTarget = new TreeMap<>();
    end.forEach((target, stats) -> {
      EndpointStats before = start.get(target);
      for (EndpointStats.AccessDenial d : stats.accessDenied()) {
        long reads = d.reads();
        long writes = d.writes();
        if (before != null) {
          for (EndpointStats.AccessDenial b : before.accessDenied()) {
            if (b.requester() == d.requester()) {
              reads -= b.reads();
              writes -= b.writes();
            }
          }
        }
        if (reads + writes > 0) {
          long[] sum = byTarget.computeIfAbsent(target, t -> new TreeMap<>())
              .computeIfAbsent(requesterName(plan, target, d.requester()), r -> new long[2]);
          sum[0] += reads;
          sum[1] += writes;
        }
      }
    });
    List<Blocked> out = new ArrayList<>();
    byTarget.forEach((target, requesters) -> requesters.forEach((requester, n) ->
        out.add(new Blocked(target, requester, n[0], n[1]))));
    return out;
  }

  /**
   * The host (or another host's device, a lent one's DMA) arriving at {@code target} under {@code
   * id}, or the ID itself when nothing of the plan does.
   */
  public static String requesterName(IsolationPlan plan, String target, int id) {
    return plan.target(target).flatMap(t -> Stream.of(t.arrivalIds(), t.deviceArrivalIds())
            .flatMap(m -> m.entrySet().stream())
            .filter(e -> e.getValue().contains(id)).map(Map.Entry::getKey).findFirst())
        .orElse(Bdf.format(id));
  }
}
