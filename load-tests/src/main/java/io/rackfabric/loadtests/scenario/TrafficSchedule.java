package io.rackfabric.loadtests.scenario;

import io.rackfabric.loadtests.scenario.language.TrafficSpec;
import io.rackfabric.fabric.endpoint.TrafficPlan;
import java.util.ArrayList;
import java.util.List;

/**
 * The traffic of a run cut at the model times of its faults. A model-time fault at T must find the
 * fabric as the requests stamped before T left it and must see those stamped at T or later, so
 * each generator's requests are issued as one traffic job per stretch between fault times. Pure.
 */
public final class TrafficSchedule {

  /** Requests {@code first .. first + count - 1} of one generator, issued as one traffic job. */
  public record Job(TrafficSpec spec, long first, long count) {

    /** The model time the job's first request is stamped with. */
    public long firstStamp() {
      return spec.stampOf(first);
    }

    /**
     * The job for the endpoint: its slice of the generator's region, one request every interval,
     * stamped from {@link #firstStamp} whatever the endpoint's clock reads.
     */
    public TrafficPlan plan() {
      return plan(null);
    }

    /** As {@link #plan()}, its addresses following the path table as {@code follow} says (null: not). */
    public TrafficPlan plan(TrafficPlan.RouteFollowing follow) {
      return new TrafficPlan(spec.address() + first * spec.size(), count * spec.size(), spec.size(), count,
          spec.intervalNs(), !spec.writes(), spec.payload(), firstStamp(), follow);
    }
  }

  /**
   * The requests stamped in [{@code from}, {@code until}); {@code until} is {@link Long#MAX_VALUE}
   * for the stretch after the last fault.
   */
  public record Phase(long from, long until, List<Job> jobs) {

    public Phase {
      jobs = List.copyOf(jobs);
    }

    public boolean isLast() {
      return until == Long.MAX_VALUE;
    }
  }

  private TrafficSchedule() {}

  /** One phase per stretch between consecutive {@code cuts} (ascending model times), plus the last. */
  public static List<Phase> phases(List<TrafficSpec> traffic, List<Long> cuts) {
    List<Phase> phases = new ArrayList<>();
    long from = 0;
    for (int i = 0; i <= cuts.size(); i++) {
      long until = i < cuts.size() ? cuts.get(i) : Long.MAX_VALUE;
      List<Job> jobs = new ArrayList<>();
      for (TrafficSpec t : traffic) {
        long first = stampedBefore(t, from);
        long end = stampedBefore(t, until);
        if (end > first) {
          jobs.add(new Job(t, first, end - first));
        }
      }
      phases.add(new Phase(from, until, jobs));
      from = until;
    }
    return phases;
  }

  /** How many of the generator's requests are stamped before {@code t}. */
  static long stampedBefore(TrafficSpec t, long time) {
    if (time <= t.startNs()) {
      return 0;
    }
    if (time == Long.MAX_VALUE || t.intervalNs() == 0) {
      return t.count();
    }
    long n = (time - t.startNs() + t.intervalNs() - 1) / t.intervalNs();
    return Math.min(t.count(), n);
  }
}
