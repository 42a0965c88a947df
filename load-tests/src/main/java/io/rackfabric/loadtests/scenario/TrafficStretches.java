package io.rackfabric.loadtests.scenario;

import io.rackfabric.loadtests.scenario.language.Durations;
import io.rackfabric.loadtests.scenario.language.TrafficSpec;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.stats.EndpointStats;
import io.rackfabric.fabric.time.TimeKeeper;
import io.rackfabric.loadtests.harness.Asks;
import io.rackfabric.loadtests.scenario.TrafficSchedule.Job;
import io.rackfabric.loadtests.scenario.TrafficSchedule.Phase;
import io.rackfabric.loadtests.scenario.TrafficTally.Tally;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs the traffic of one stretch between fault cuts ({@link TrafficSchedule.Phase}): hands its
 * jobs to their sources with the rack held at the stretch's start, lets the model run to its end,
 * and waits for the jobs, counting into the {@link TrafficTally}. A job whose link went down under
 * it never finishes; it is counted as stalled (under the kernel once the model has done everything
 * before the stretch's end, else once nothing has moved for run.settle), and its source gets no
 * further jobs.
 */
final class TrafficStretches {

  /** How long the kernel must have finished a stretch with a job still open before it counts as stalled. */
  private static final long STALL_CONFIRM_NS = 1_000_000_000L;

  /** A stretch whose jobs were handed to their sources (empty when it has none). */
  record Started(Phase phase, int index, int of, Map<Job, CompletableFuture<MemoryEndpoint.TrafficDone>> running,
      Map<Job, Long> issuedBefore) {}

  private final RunContext run;
  private final TrafficTally tally;
  private final QuietWait quiet;
  private final ProgressLines lines;
  private final Set<String> stalledSources = new HashSet<>();
  /** What each generator with follow-routes follows, by name. */
  private final Map<String, io.rackfabric.fabric.endpoint.TrafficPlan.RouteFollowing> follows;

  TrafficStretches(RunContext run, TrafficTally tally, QuietWait quiet, ProgressLines lines) {
    this.follows = RouteFollowingTraffic.all(run.scenario.topology().topology(), run.scenario.traffic());
    this.run = run;
    this.tally = tally;
    this.quiet = quiet;
    this.lines = lines;
  }

  /**
   * Hands a stretch's jobs to their sources, the rack held at the stretch's start: its
   * generators enter the model together there, however the commands travel, once every source
   * has its plan (confirmed).
   */
  Started start(Phase phase, int index, int of) throws Exception {
    LiveRack rack = run.rack;
    Map<Job, CompletableFuture<MemoryEndpoint.TrafficDone>> running = new LinkedHashMap<>();
    Map<Job, Long> issuedBefore = new HashMap<>();
    if (phase.jobs().isEmpty() || run.timedOut()) {
      return new Started(phase, index, of, running, issuedBefore);
    }
    rack.holdModelTime(phase.from());
    String window = window(phase);
    for (Job job : phase.jobs()) {
      TrafficSpec g = job.spec();
      Tally t = tally.of(g.name());
      if (!rack.reachable(g.from()) || rack.isDown(g.from()) || stalledSources.contains(g.from())) {
        t.skipped += job.count();
        run.notes.add(g.name() + ": " + job.count() + " requests stamped in " + window + " not issued: " + (
            stalledSources.contains(g.from()) ? "its previous job never finished"
                : !rack.reachable(g.from()) ? g.from() + " is gone" : g.from() + "'s link is down"));
        continue;
      }
      EndpointStats before = rack.endpointStats(g.from());
      issuedBefore.put(job, g.writes() ? before.writesSent() : before.readsSent());
      running.put(job, Asks.<MemoryEndpoint.Command, MemoryEndpoint.TrafficDone>askAsync(rack.system(),
          rack.endpoint(g.from()), r -> new MemoryEndpoint.StartTraffic(job.plan(follows.get(g.name())), r), Duration.ofDays(1)));
    }
    rack.confirmInputs(running.keySet().stream().map(j -> j.spec().from()).distinct().toList());
    return new Started(phase, index, of, running, issuedBefore);
  }

  private static String window(Phase phase) {
    return "[" + Durations.text(phase.from()) + ", " + (phase.isLast() ? "end" : Durations.text(phase.until()))
        + ")";
  }

  /** Lets the kernel run to the stretch's end (and no further) and waits for its jobs. */
  void finish(Started started) throws Exception {
    LiveRack rack = run.rack;
    Phase phase = started.phase();
    Map<Job, CompletableFuture<MemoryEndpoint.TrafficDone>> running = started.running();
    // The kernel runs on to the stretch's end, where the next faults are applied, and no further.
    if (phase.isLast()) {
      rack.releaseModelTime();
    } else {
      rack.limitModelTime(phase.until());
    }
    if (phase.jobs().isEmpty()) {
      // Host software may still be at work (a NIC stream): it runs to the stretch's end and no further.
      run.progress.printf("  stretch %d/%d %s: no requests%n", started.index() + 1, started.of(), window(phase));
      return;
    }
    run.watch.reached(phase.from());
    run.progress.printf("  stretch %d/%d %s: %d job(s), %,d requests%n", started.index() + 1, started.of(),
        window(phase), running.size(), running.keySet().stream().mapToLong(Job::count).sum());
    CompletableFuture<Void> all = CompletableFuture.allOf(running.values().toArray(CompletableFuture[]::new));
    long limit = phase.isLast() ? Long.MAX_VALUE : phase.until();
    long doneAt = -1;
    long lastChange = System.nanoTime();
    long lastMetric = -1;
    while (true) {
      try {
        all.get(QuietWait.POLL_MS, TimeUnit.MILLISECONDS);
        break;
      } catch (TimeoutException notYet) {
        long now = System.nanoTime();
        if (run.pastDeadline(now)) {
          break;
        }
        Optional<TimeKeeper.Status> kernel = rack.timeStatus();
        if (kernel.isPresent()) {
          // Under the kernel a job has stalled (its link went down under it) when the rack has
          // done everything before the stretch's end and the job is not done: a model-time
          // fact, not a wall-clock silence (a node JVM stopped for seconds is no stall).
          // (Its TrafficDone may still be on its way from another JVM: the fact must hold a
          // moment first.)
          if (!stretchDone(kernel.get(), limit) || !stalledAfterAll(running, all)) {
            doneAt = -1;
          } else if (doneAt < 0) {
            doneAt = now;
          } else if (now - doneAt > STALL_CONFIRM_NS) {
            break;
          }
          lines.progress();
          continue;
        }
        long metric = quiet.activity();
        if (metric != lastMetric) {
          lastMetric = metric;
          lastChange = now;
        } else if (now - lastChange > run.scenario.run().settleNs()) {
          break; // a job whose link went down under it never finishes: it stalled
        }
        lines.progress();
      } catch (ExecutionException e) {
        break; // an ask failed; the job is counted below as stalled
      }
    }
    for (Map.Entry<Job, CompletableFuture<MemoryEndpoint.TrafficDone>> e : running.entrySet()) {
      count(e.getKey(), e.getValue(), started);
    }
  }

  /** Adds a job's outcome to its generator's tally: what it did, or what it issued before it stalled. */
  private void count(Job job, CompletableFuture<MemoryEndpoint.TrafficDone> f, Started started) throws Exception {
    Tally t = tally.of(job.spec().name());
    if (f.isDone() && !f.isCompletedExceptionally()) {
      MemoryEndpoint.TrafficDone done = f.get();
      t.sent += done.sent();
      t.failed += done.failed();
      t.rerouted += done.rerouted();
      return;
    }
    // Count what the source issued of it; the rest of the generator is not issued.
    t.stalled = true;
    stalledSources.add(job.spec().from());
    long issued = 0;
    if (run.rack.reachable(job.spec().from())) {
      EndpointStats now = run.rack.endpointStats(job.spec().from());
      issued = (job.spec().writes() ? now.writesSent() : now.readsSent()) - started.issuedBefore().get(job);
    }
    t.sent += issued;
    t.skipped += job.count() - issued;
    run.notes.add(job.spec().name() + ": a job of " + job.count() + " requests stalled after " + issued
        + " (its link went down under it); later requests of it are not issued");
  }

  /**
   * The kernel has done everything before {@code limit}: nothing in flight or owed before it (the
   * last stretch: nothing pending but background timers, which a released rack does not run).
   */
  private static boolean stretchDone(TimeKeeper.Status status, long limit) {
    return limit == Long.MAX_VALUE ? status.idle() : status.settled() && status.earliest() >= limit;
  }

  /**
   * Whether a job is still not done once every source has answered a question: a source's
   * {@code TrafficDone} leaves before its answer, so one that finished has been heard by then.
   */
  private boolean stalledAfterAll(Map<Job, CompletableFuture<MemoryEndpoint.TrafficDone>> running,
      CompletableFuture<Void> all) throws Exception {
    for (Map.Entry<Job, CompletableFuture<MemoryEndpoint.TrafficDone>> e : running.entrySet()) {
      if (!e.getValue().isDone() && run.rack.reachable(e.getKey().spec().from())) {
        run.rack.endpointStats(e.getKey().spec().from());
      }
    }
    return !all.isDone();
  }
}
