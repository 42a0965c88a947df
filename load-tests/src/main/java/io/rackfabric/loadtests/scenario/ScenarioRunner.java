package io.rackfabric.loadtests.scenario;

import io.rackfabric.cluster.scenario.Durations;
import io.rackfabric.cluster.scenario.FaultSpec;
import io.rackfabric.cluster.scenario.InvariantSpec;
import io.rackfabric.cluster.scenario.KindCatalog;
import io.rackfabric.cluster.scenario.Mode;
import io.rackfabric.cluster.scenario.Params;
import io.rackfabric.cluster.scenario.Scenario;
import io.rackfabric.cluster.scenario.TrafficSpec;
import io.rackfabric.cluster.topology.LinkSpec;
import io.rackfabric.cluster.topology.SwitchSpec;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.time.TimeKeeper;
import io.rackfabric.fabric.stats.EndpointStats;
import io.rackfabric.fabric.stats.PortStats;
import io.rackfabric.host.settings.HostSettings;
import io.rackfabric.loadtests.harness.Asks;
import io.rackfabric.loadtests.report.Figure;
import io.rackfabric.loadtests.scenario.TrafficSchedule.Job;
import io.rackfabric.loadtests.scenario.TrafficSchedule.Phase;
import io.rackfabric.loadtests.scenario.api.ControlRequestsResult;
import io.rackfabric.loadtests.scenario.api.FaultType;
import io.rackfabric.loadtests.scenario.api.FigureType;
import io.rackfabric.loadtests.scenario.api.InvariantType;
import io.rackfabric.loadtests.scenario.api.NicStreamResult;
import io.rackfabric.loadtests.scenario.api.RunResult;
import io.rackfabric.loadtests.scenario.api.RunResult.AppliedFault;
import io.rackfabric.loadtests.scenario.api.RunResult.Boundary;
import io.rackfabric.loadtests.scenario.api.RunResult.TrafficResult;
import io.rackfabric.loadtests.scenario.api.Verdict;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs a checked {@link Scenario}: starts its rack (one JVM or one per node), lets attachments
 * join, runs the traffic cut at the model times of the faults, applies each fault at its model
 * time (between the stretches) or wall time (from a timer), waits until the rack is quiet, then
 * evaluates the invariants and produces the figures while the rack is still up, and stops
 * everything it started, also when something fails on the way.
 *
 * <p>A model-time fault at T is applied once every generator has issued its requests stamped
 * before T and those have arrived or been dropped, so the figures do not depend on how wall-clock
 * time fell on this machine: requests stamped before T see the fabric as it was, those stamped
 * at T or later see the fault.
 */
public final class ScenarioRunner {

  /** How long the kernel must have finished a stretch with a job still open before it counts as stalled. */
  private static final long STALL_CONFIRM_NS = 1_000_000_000L;
  private static final long POLL_MS = 100;
  private static final long PROGRESS_NS = 2_000_000_000L;
  /** How long an endpoint has to tell its model clock when a wall-time fault is applied. */
  private static final Duration CLOCK_ASK = Duration.ofSeconds(2);
  /** How often the rack's clocks are read while a step that stamps nothing waits for its time. */
  private static final long CLOCK_POLL_MS = 5;

  /**
   * A run's outcome: what it recorded, the figures, each invariant with its verdict, and the
   * take-overs and fail-overs as they happened (for the HTML report's timelines).
   */
  public record Outcome(RunResult result, List<Figure> figures, List<Checked> invariants, Timelines timelines) {

    public Outcome(RunResult result, List<Figure> figures, List<Checked> invariants) {
      this(result, figures, invariants, Timelines.NONE);
    }

    public boolean passed() {
      return invariants.stream().allMatch(c -> c.verdict().pass());
    }
  }

  /** An invariant and its verdict. */
  public record Checked(InvariantSpec spec, Verdict verdict) {}

  private final KindCatalog<FaultType, InvariantType, FigureType> catalog;
  private final List<RackAttachment> attachments;

  public ScenarioRunner(KindCatalog<FaultType, InvariantType, FigureType> catalog, List<RackAttachment> attachments) {
    this.catalog = catalog;
    this.attachments = List.copyOf(attachments);
  }

  public ScenarioRunner(KindCatalog<FaultType, InvariantType, FigureType> catalog) {
    this(catalog, List.of());
  }

  /**
   * Runs the scenario; progress lines go to {@code progress} (stderr for the command line).
   *
   * @param runDir the run's folder: node logs, the topology file for node JVMs
   */
  public Outcome run(Scenario scenario, Path runDir, PrintStream progress) throws Exception {
    return run(scenario, runDir, progress, new RunProgress());
  }

  /**
   * {@link #run(Scenario, Path, PrintStream)}, telling {@code watch} how far the run has come (the
   * model time reached, requests sent, fault steps applied): what an interrupted run's partial
   * result holds.
   */
  public Outcome run(Scenario scenario, Path runDir, PrintStream progress, RunProgress watch) throws Exception {
    if (scenario.inProcess()) {
      return InProcessRun.run(catalog, scenario, runDir, progress); // no rack to start
    }
    progress.printf("rack run %s: topology %s, %s, seed %d%n", scenario.name(), scenario.topology().topology().name(),
        scenario.mode(), scenario.seed());
    scenario.faultSchedule().forEach(line -> progress.println("  " + line));
    long t0 = System.nanoTime();
    scenario.settings().forEach((k, v) -> progress.println("  setting " + k + " = " + v));
    Map<String, String> settings = scenario.configOverrides();
    try (LiveRack rack = scenario.mode() == Mode.SINGLE_JVM
        ? LiveRack.singleJvm(scenario.topology().topology(), runDir, progress, settings)
        : LiveRack.multiJvm(scenario.topology().topology(), scenario.multiJvm(), runDir, progress, settings,
            needsNetem(scenario), scenario.reproducible())) {
      rack.seed(scenario.seed());
      long rackUp = System.nanoTime() - t0;
      progress.printf("  rack up in %.1f s%n", rackUp / 1e9);
      List<RackAttachment> attached = new ArrayList<>();
      try {
        for (RackAttachment a : attachments) {
          a.attach(rack);
          attached.add(a);
        }
        TrafficPages.open(rack, TrafficPages.of(scenario.topology().topology(), scenario.traffic()), progress);
        NicStreams streams = scenario.nicStream() == null ? null
            : NicStreams.start(rack, scenario.nicStream(), progress);
        ControlRequestsRun requests = scenario.controlRequests() == null ? null
            : ControlRequestsRun.start(rack, scenario.controlRequests(), progress);
        return new Execution(scenario, rack, progress, rackUp, streams, requests, watch).run();
      } finally {
        for (RackAttachment a : attached) {
          try {
            a.detach(rack);
          } catch (Exception e) {
            progress.println("  detaching " + a + " failed: " + e.getMessage());
          }
        }
      }
    }
  }

  private boolean needsNetem(Scenario scenario) {
    return scenario.faults().stream()
        .anyMatch(f -> catalog.fault(f.kind()).map(k -> k.needsNetem(f)).orElse(false));
  }

  /** What one generator has done so far (see {@link TrafficResult}); the runner thread's only. */
  private static final class Tally {
    long sent;
    long failed;
    long skipped;
    boolean stalled;
  }

  /** One run's state; used from the runner thread, wall-time faults add to the synchronized lists. */
  private final class Execution {
    private final Scenario scenario;
    private final LiveRack rack;
    private final PrintStream progress;
    private final long rackUpNanos;
    private final NicStreams streams;
    private List<NicStreamResult> streamResults = List.of();
    private final ControlRequestsRun requests;
    private final RunProgress watch;
    private List<ControlRequestsResult> requestResults = List.of();
    private final Map<String, Tally> tally = new LinkedHashMap<>();
    private final Map<String, EndpointStats> atStart = new HashMap<>();
    private final Map<String, PortStats> portsAtStart = new HashMap<>();
    private final List<Boundary> boundaries = new ArrayList<>();
    private final List<AppliedFault> applied = Collections.synchronizedList(new ArrayList<>());
    /**
     * Per applied step (same index, under {@code applied}'s lock), the model time the rack had
     * reached when it was applied, -1 when not measured; a wall-time step's is still being asked.
     */
    private final List<CompletableFuture<Long>> rackClocks = new ArrayList<>();
    private final List<String> notes = Collections.synchronizedList(new ArrayList<>());
    private final Set<String> stalledSources = new HashSet<>();
    private long wallStart;
    private long deadline;
    private boolean timedOut;
    private long lastProgress;
    private long trafficNanos;

    Execution(Scenario scenario, LiveRack rack, PrintStream progress, long rackUpNanos, NicStreams streams,
        ControlRequestsRun requests, RunProgress watch) {
      this.scenario = scenario;
      this.watch = watch;
      this.streams = streams;
      this.requests = requests;
      this.rack = rack;
      this.progress = progress;
      this.rackUpNanos = rackUpNanos;
      scenario.traffic().forEach(t -> tally.put(t.name(), new Tally()));
      scenario.reproducibilityProblems().forEach(p -> notes.add("not reproducible as asked: " + p));
    }

    Outcome run() throws Exception {
      atStart.putAll(endpointSnapshot());
      portsAtStart.putAll(portSnapshot());
      List<Long> cuts = scenario.modelFaultTimes();
      List<Phase> phases = TrafficSchedule.phases(scenario.traffic(), cuts);
      progress.printf("  traffic: %d generator(s); %d model-time fault instant(s), so %d stretch(es); %d wall-time"
          + " fault step(s)%n", scenario.traffic().size(), cuts.size(), phases.size(), wallSteps());
      wallStart = System.nanoTime();
      lastProgress = wallStart;
      deadline = wallStart + scenario.run().wallLimitNs();
      ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "scenario-wall-faults");
        t.setDaemon(true);
        return t;
      });
      try {
        List<ScheduledFuture<?>> wallFaults = scheduleWallFaults(timer);
        holdAfter(-1);
        boolean kernel = rack.timeStatus().isPresent();
        if (!cuts.isEmpty()) {
          // Loss across the first fault is counted by the writes' own stamps: under the kernel the
          // next stretch's traffic runs beside what the fault causes.
          for (var e : rack.topology().endpoints()) {
            if (rack.reachable(e.id())) {
              rack.endpoint(e.id()).tell(new MemoryEndpoint.CountIssuedBefore(cuts.get(0)));
            }
          }
        }
        Started next = startPhase(phases.get(0), 0, phases.size());
        OpenCut open = null;
        for (int i = 0; i < phases.size() && !timedOut; i++) {
          finishPhase(next);
          next = null;
          if (open != null) {
            // Under the kernel the fault's aftermath ran with this stretch: settled at its end.
            boundaries.add(settle(open, phases.get(i)));
            open = null;
          }
          if (i < cuts.size() && !timedOut) {
            if (kernel) {
              // Everything before the cut done in model time: the snapshots are exact.
              rack.holdModelTime(cuts.get(i));
            } else {
              awaitQuiet(true);
            }
            Map<String, EndpointStats> endpointsBefore = endpointSnapshot();
            Map<String, PortStats> portsBefore = portSnapshot();
            Map<String, Long> sentBefore = sentSoFar();
            // Everything before the cut is done in model time, nothing at or after it has begun:
            // the faults enter the model exactly at the cut.
            rack.holdModelTime(cuts.get(i));
            watch.reached(cuts.get(i));
            applyModelFaults(cuts.get(i));
            if (kernel) {
              // The next stretch's traffic enters at the cut itself, beside what the faults cause,
              // before the kernel may pass it: no request of it arrives behind the rack's clocks.
              next = startPhase(phases.get(i + 1), i + 1, phases.size());
              open = new OpenCut(cuts.get(i), endpointsBefore, portsBefore, sentBefore);
              continue;
            }
            // What the faults cause runs on, up to the next cut (or to the end).
            if (i + 1 < cuts.size()) {
              rack.limitModelTime(cuts.get(i + 1));
            } else {
              rack.releaseModelTime();
            }
            holdForReactions(cuts.get(i), portsBefore, endpointsBefore);
            holdAfter(cuts.get(i));
            // What was in flight at the fault (held at the horizon) now arrives or is lost.
            awaitQuiet(true);
            Map<String, EndpointStats> endpointsAfter = endpointSnapshot();
            boundaries.add(new Boundary(cuts.get(i), endpointsBefore, sentBefore, endpointsAfter,
                RunResult.dropsBetween(endpointsBefore, portsBefore, endpointsAfter, portSnapshot(), partners())));
            next = startPhase(phases.get(i + 1), i + 1, phases.size());
          }
        }
        trafficNanos = System.nanoTime() - wallStart;
        tellWatch();
        for (ScheduledFuture<?> f : wallFaults) {
          long left = deadline - System.nanoTime();
          try {
            f.get(Math.max(0, left), TimeUnit.NANOSECONDS);
          } catch (TimeoutException e) {
            timedOut = true;
          }
        }
        if (streams != null) {
          progress.println("  waiting for the nic-stream's senders");
          streamResults = streams.finish(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())),
              Duration.ofNanos(scenario.run().settleNs()));
          streamResults.stream().filter(r -> !r.error().isEmpty())
              .forEach(r -> notes.add("nic-stream " + r.host() + ": " + r.error()));
        }
        if (requests != null) {
          progress.println("  waiting for the control-plane requests' answers");
          requestResults = requests.finish(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
          requestResults.stream().filter(r -> !r.error().isEmpty())
              .forEach(r -> notes.add("control-requests " + r.host() + ": " + r.error()));
        }
        // After a fault, what it causes (a DLLP timeout, AER) shows up in silence, not in delivered counts.
        awaitQuiet(applied.isEmpty());
      } finally {
        timer.shutdownNow();
      }
      long wallNanos = System.nanoTime() - wallStart;
      if (timedOut) {
        notes.add("the run hit run.wall-limit = " + Durations.text(scenario.run().wallLimitNs())
            + "; what was not finished by then is counted as it stood");
      }
      RunResult result = new RunResult(scenario, atStart, endpointSnapshot(), portsAtStart, portSnapshot(), boundaries,
          trafficResults(), appliedWithRackClocks(), rack.faultedEnds(), rack.failedComponents(), rackUpNanos,
          trafficNanos, wallNanos, !timedOut, List.copyOf(notes), streamResults, requestResults, rack, null);
      progress.printf("  run over after %.1f s of wall time; checking invariants%n", wallNanos / 1e9);
      List<Checked> checked = new ArrayList<>();
      for (InvariantSpec spec : scenario.invariants()) {
        checked.add(new Checked(spec, evaluate(spec, result)));
      }
      if (timedOut) {
        checked.add(new Checked(new InvariantSpec("within-wall-limit", Params.NONE, "within-wall-limit",
            scenario.source()), Verdict.fail("the run did not finish within run.wall-limit = "
            + Durations.text(scenario.run().wallLimitNs()))));
      }
      List<Figure> figures = new ArrayList<>();
      for (String name : scenario.figures()) {
        FigureType producer = catalog.figure(name).orElseThrow();
        try {
          figures.addAll(producer.produce(result));
        } catch (Exception e) {
          progress.println("  figure producer " + name + " failed: " + e);
        }
      }
      return new Outcome(result, figures, checked, Timelines.read(result, progress));
    }

    private Verdict evaluate(InvariantSpec spec, RunResult result) {
      try {
        return catalog.invariant(spec.kind()).orElseThrow().evaluate(spec, result);
      } catch (Exception e) {
        return Verdict.fail("could not be checked: " + e);
      }
    }

    private long wallSteps() {
      return scenario.faults().stream().filter(f -> !f.at().isModel()).mapToLong(f -> f.steps().size()).sum();
    }

    // ------------------------------------------------------------ traffic

    /** A stretch whose jobs were handed to their sources (empty when it has none). */
    private record Started(Phase phase, int index, int of, Map<Job, CompletableFuture<MemoryEndpoint.TrafficDone>> running,
        Map<Job, Long> issuedBefore) {}

    /**
     * Hands a stretch's jobs to their sources, the rack held at the stretch's start: its
     * generators enter the model together there, however the commands travel, once every source
     * has its plan (confirmed).
     */
    private Started startPhase(Phase phase, int index, int of) throws Exception {
      Map<Job, CompletableFuture<MemoryEndpoint.TrafficDone>> running = new LinkedHashMap<>();
      Map<Job, Long> issuedBefore = new HashMap<>();
      if (phase.jobs().isEmpty() || timedOut) {
        return new Started(phase, index, of, running, issuedBefore);
      }
      rack.holdModelTime(phase.from());
      String window = window(phase);
      for (Job job : phase.jobs()) {
        TrafficSpec g = job.spec();
        Tally t = tally.get(g.name());
        if (!rack.reachable(g.from()) || rack.isDown(g.from()) || stalledSources.contains(g.from())) {
          t.skipped += job.count();
          notes.add(g.name() + ": " + job.count() + " requests stamped in " + window + " not issued: " + (
              stalledSources.contains(g.from()) ? "its previous job never finished"
                  : !rack.reachable(g.from()) ? g.from() + " is gone" : g.from() + "'s link is down"));
          continue;
        }
        EndpointStats before = rack.endpointStats(g.from());
        issuedBefore.put(job, g.writes() ? before.writesSent() : before.readsSent());
        running.put(job, Asks.<MemoryEndpoint.Command, MemoryEndpoint.TrafficDone>askAsync(rack.system(),
            rack.endpoint(g.from()), r -> new MemoryEndpoint.StartTraffic(job.plan(), r), Duration.ofDays(1)));
      }
      rack.confirmInputs(running.keySet().stream().map(j -> j.spec().from()).distinct().toList());
      return new Started(phase, index, of, running, issuedBefore);
    }

    private static String window(Phase phase) {
      return "[" + Durations.text(phase.from()) + ", " + (phase.isLast() ? "end" : Durations.text(phase.until()))
          + ")";
    }

    /** Lets the kernel run to the stretch's end (and no further) and waits for its jobs. */
    private void finishPhase(Started started) throws Exception {
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
        progress.printf("  stretch %d/%d %s: no requests%n", started.index() + 1, started.of(), window(phase));
        return;
      }
      watch.reached(phase.from());
      progress.printf("  stretch %d/%d %s: %d job(s), %,d requests%n", started.index() + 1, started.of(),
          window(phase), running.size(), running.keySet().stream().mapToLong(Job::count).sum());
      CompletableFuture<Void> all = CompletableFuture.allOf(running.values().toArray(CompletableFuture[]::new));
      long limit = phase.isLast() ? Long.MAX_VALUE : phase.until();
      long doneAt = -1;
      long lastChange = System.nanoTime();
      long lastMetric = -1;
      while (true) {
        try {
          all.get(POLL_MS, TimeUnit.MILLISECONDS);
          break;
        } catch (TimeoutException notYet) {
          long now = System.nanoTime();
          if (now > deadline) {
            timedOut = true;
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
            progress();
            continue;
          }
          long metric = activity();
          if (metric != lastMetric) {
            lastMetric = metric;
            lastChange = now;
          } else if (now - lastChange > scenario.run().settleNs()) {
            break; // a job whose link went down under it never finishes: it stalled
          }
          progress();
        } catch (java.util.concurrent.ExecutionException e) {
          break; // an ask failed; the job is counted below as stalled
        }
      }
      for (Map.Entry<Job, CompletableFuture<MemoryEndpoint.TrafficDone>> e : running.entrySet()) {
        Job job = e.getKey();
        Tally t = tally.get(job.spec().name());
        CompletableFuture<MemoryEndpoint.TrafficDone> f = e.getValue();
        if (f.isDone() && !f.isCompletedExceptionally()) {
          MemoryEndpoint.TrafficDone done = f.get();
          t.sent += done.sent();
          t.failed += done.failed();
        } else {
          // Count what the source issued of it; the rest of the generator is not issued.
          t.stalled = true;
          stalledSources.add(job.spec().from());
          long issued = 0;
          if (rack.reachable(job.spec().from())) {
            EndpointStats now = rack.endpointStats(job.spec().from());
            issued = (job.spec().writes() ? now.writesSent() : now.readsSent()) - started.issuedBefore().get(job);
          }
          t.sent += issued;
          t.skipped += job.count() - issued;
          notes.add(job.spec().name() + ": a job of " + job.count() + " requests stalled after " + issued
              + " (its link went down under it); later requests of it are not issued");
        }
      }
    }

    /** The kernel has done everything before {@code limit}: nothing in flight or owed before it. */
    private static boolean stretchDone(TimeKeeper.Status status, long limit) {
      return status.settled() && status.earliest() >= limit;
    }

    /**
     * Whether a job is still not done once every source has answered a question: a source's
     * {@code TrafficDone} leaves before its answer, so one that finished has been heard by then.
     */
    private boolean stalledAfterAll(Map<Job, CompletableFuture<MemoryEndpoint.TrafficDone>> running,
        CompletableFuture<Void> all) throws Exception {
      for (Map.Entry<Job, CompletableFuture<MemoryEndpoint.TrafficDone>> e : running.entrySet()) {
        if (!e.getValue().isDone() && rack.reachable(e.getKey().spec().from())) {
          rack.endpointStats(e.getKey().spec().from());
        }
      }
      return !all.isDone();
    }

    /**
     * A boundary of the kernel's path, whose fault's aftermath ran beside the next stretch: the
     * rack is quiet at that stretch's end, so what was in flight at the fault has arrived or is
     * lost by now (counted by the writes' stamps, {@link EndpointStats#uniqueIssuedBefore}).
     */
    /** A fault's cut under the kernel, its boundary settled once the next stretch has run. */
    private record OpenCut(long at, Map<String, EndpointStats> endpoints, Map<String, PortStats> ports,
        Map<String, Long> sentByTraffic) {}

    private Boundary settle(OpenCut open, Phase after) throws Exception {
      if (after.isLast()) {
        awaitQuiet(false); // host software may tick on for ever: quiet is the end of the run
      } else {
        rack.holdModelTime(after.until()); // exact: everything before the next cut done
      }
      Map<String, EndpointStats> endpointsAfter = endpointSnapshot();
      return new Boundary(open.at(), open.endpoints(), open.sentByTraffic(), endpointsAfter,
          RunResult.dropsBetween(open.endpoints(), open.ports(), endpointsAfter, portSnapshot(), partners()));
    }

    /** Per generator, what it has sent so far. */
    private Map<String, Long> sentSoFar() {
      Map<String, Long> sent = new LinkedHashMap<>();
      tally.forEach((name, t) -> sent.put(name, t.sent));
      return sent;
    }

    private List<TrafficResult> trafficResults() {
      List<TrafficResult> out = new ArrayList<>();
      for (TrafficSpec g : scenario.traffic()) {
        Tally t = tally.get(g.name());
        out.add(new TrafficResult(g, t.sent, t.failed, t.skipped, t.stalled));
      }
      return out;
    }

    // ------------------------------------------------------------ quiet

    /**
     * Waits until the rack is quiet: every write sent has arrived (when {@code byCompletion}), or
     * no counter has moved for run.settle.
     */
    private void awaitQuiet(boolean byCompletion) throws Exception {
      long lastChange = System.nanoTime();
      long lastMetric = -1;
      while (true) {
        long now = System.nanoTime();
        if (now > deadline) {
          timedOut = true;
          return;
        }
        if (byCompletion && complete()) {
          return;
        }
        long metric = activity();
        if (metric != lastMetric) {
          lastMetric = metric;
          lastChange = now;
        } else if (now - lastChange > scenario.run().settleNs()) {
          return;
        }
        progress();
        Thread.sleep(POLL_MS); // polling counters of a running rack: nothing here answers on "quiet"
      }
    }

    /** Every write sent so far arrived; every read sent was answered. */
    private boolean complete() throws Exception {
      Map<String, Long> expected = new LinkedHashMap<>();
      for (TrafficSpec g : scenario.traffic()) {
        if (g.writes()) {
          expected.merge(g.sink(), tally.get(g.name()).sent, Long::sum);
        } else if (rack.reachable(g.from())) {
          EndpointStats s = rack.endpointStats(g.from());
          if (s.readsCompleted() + s.readsFailed() < s.readsSent()) {
            return false;
          }
        }
      }
      for (Map.Entry<String, Long> e : expected.entrySet()) {
        EndpointStats start = atStart.get(e.getKey());
        if (!rack.reachable(e.getKey()) || start == null) {
          return false;
        }
        if (rack.endpointStats(e.getKey()).uniqueWrites() - start.uniqueWrites() < e.getValue()) {
          return false;
        }
      }
      return true;
    }

    /** A number that changes whenever anything moves in the rack's endpoints. */
    private long activity() {
      long sum = 0;
      for (String id : atStart.keySet()) {
        if (!rack.reachable(id)) {
          continue;
        }
        try {
          EndpointStats s = rack.endpointStats(id);
          sum += s.writesReceived() + s.writesSent() + s.readsSent() + s.readsCompleted() + s.readsFailed()
              + s.readsServed() + s.aerReceived().size() + s.link().lostOnLinkDown() + s.link().droppedLinkDown()
              + s.link().tlpsReceived();
        } catch (Exception e) {
          sum += 1; // no answer (its JVM just died): that is a change too
        }
      }
      return sum;
    }

    private void progress() {
      long now = System.nanoTime();
      if (now - lastProgress < PROGRESS_NS) {
        return;
      }
      lastProgress = now;
      tellWatch();
      long sent = tally.values().stream().mapToLong(t -> t.sent).sum();
      progress.printf("    %.1f s: %,d requests done by finished jobs, %d fault step(s) applied%s%n",
          (now - wallStart) / 1e9, sent, applied.size(), kernelProgress());
    }

    /** What an interruption now would report: requests done and fault steps applied so far. */
    private void tellWatch() {
      watch.measured("requests_done", sentSoFar());
      synchronized (applied) {
        watch.measured("fault_steps_applied", applied.stream()
            .map(f -> f.spec().label() + " step " + (f.step() + 1) + "/" + f.spec().steps().size()).toList());
      }
    }

    /** Each link end's partner end. */
    private Map<String, String> partners() {
      Map<String, String> out = new HashMap<>();
      rack.topology().links().forEach(l -> {
        out.put(l.a(), l.b());
        out.put(l.b(), l.a());
      });
      return out;
    }

    /** Where the model-time kernel stands, for a progress line: a stuck run shows why here. */
    private String kernelProgress() {
      try {
        var status = rack.timeStatus();
        // Every event before the earliest pending one is done: the model has reached it.
        status.filter(st -> st.earliest() != Long.MAX_VALUE).ifPresent(st -> watch.reached(st.earliest()));
        return status.map(st -> String.format("; kernel: %,d rounds, next event at %s, %d of %d"
            + " components%s", st.rounds(), st.earliest() == Long.MAX_VALUE ? "none" : Durations.text(st.earliest()),
            st.joined(), st.expected(), st.idle() ? ", idle" : st.waiting().isEmpty() ? "" : ", waiting for "
            + st.waiting())).orElse("");
      } catch (Exception e) {
        return "; kernel: no answer (" + e.getMessage() + ")";
      }
    }

    // ------------------------------------------------------------ faults

    /**
     * Holds every link end at the first model-time fault after {@code modelAt} that stamps the
     * rack, or lifts the hold after the last. Until a fault at T is applied, nothing stamped T or
     * later crosses a link: host software and the fabric run ahead of the runner in wall time, and
     * a TLP that crossed the failing link early would carry its ends' clocks past T, delaying what
     * the fault causes. A fault that stamps nothing (a switchover) gets no hold.
     */
    private void holdAfter(long modelAt) throws Exception {
      List<Long> stamped = scenario.faults().stream()
          .filter(f -> f.at().isModel() && catalog.fault(f.kind()).orElseThrow().stampsModelTime())
          .flatMap(f -> f.steps().stream()).filter(t -> t > modelAt).sorted().toList();
      if (stamped.isEmpty() && modelAt < 0) {
        return; // nothing to hold for: every link end starts without a horizon
      }
      rack.holdFrom(stamped.isEmpty() ? Long.MAX_VALUE : stamped.get(0));
    }

    /**
     * With host software on the rack, after faults at {@code cut} that took a link down: holds the
     * rack at the earliest time a host's software can act on them (the AER interrupt latency
     * after the fault) until every AER message the faults raised has reached its root, so that
     * each host's AER driver runs before any host's reaction (a failure report, a notification)
     * moves. Otherwise the MH could take a CH's report before its own AER of a whole lost plane,
     * in wall order. "Quiet" would not do here: the MH's retransmission runs on the wall clock.
     */
    private void holdForReactions(long cut, Map<String, PortStats> portsBefore,
        Map<String, EndpointStats> endpointsBefore) throws Exception {
      var spec = scenario.topology().topology().globalMemorySpec();
      boolean linkDown = applied.stream().anyMatch(f -> f.modelAt() == cut && f.takesLinkDown());
      if (spec == null || spec.managementHost() == null || !linkDown || timedOut) {
        return;
      }
      long reactions = cut + HostSettings.create(rack.system().settings().config()).aerInterruptLatencyNs();
      boolean nextFaultFirst = scenario.modelFaultTimes().stream().anyMatch(t -> t > cut && t <= reactions);
      if (reactions == cut || nextFaultFirst) {
        return; // the next fault's own hold comes first
      }
      rack.holdFrom(reactions);
      long deadline = System.nanoTime() + scenario.run().settleNs();
      while (aerArrived(endpointsBefore) < aerRaised(portsBefore, endpointsBefore)) {
        if (System.nanoTime() > deadline) {
          notes.add("not every AER raised at " + Durations.text(cut) + " reached a root within run.settle; the"
              + " hosts' reactions to that fault went on in wall order");
          return;
        }
        Thread.sleep(POLL_MS); // polling counters: an AER's arrival answers nobody
      }
    }

    /**
     * AER records due at roots since the snapshots: one per AER message a reachable switch port
     * raised, one per link-down of a root endpoint's own link (it records that itself).
     */
    private long aerRaised(Map<String, PortStats> ports, Map<String, EndpointStats> endpoints) throws Exception {
      long raised = 0;
      for (Map.Entry<String, PortStats> e : ports.entrySet()) {
        if (rack.reachable(LinkSpec.componentOf(e.getKey()))) {
          raised += rack.portStats(e.getKey()).aerSent() - e.getValue().aerSent();
        }
      }
      for (var ep : rack.topology().endpoints()) {
        EndpointStats before = endpoints.get(ep.id());
        if (ep.root() && before != null && rack.reachable(ep.id())) {
          raised += rack.endpointStats(ep.id()).link().linkDowns() - before.link().linkDowns();
        }
      }
      return raised;
    }

    /** AER records root endpoints received since {@code before}. */
    private long aerArrived(Map<String, EndpointStats> before) throws Exception {
      long arrived = 0;
      for (Map.Entry<String, EndpointStats> e : before.entrySet()) {
        if (rack.reachable(e.getKey())) {
          arrived += rack.endpointStats(e.getKey()).aerReceived().size() - e.getValue().aerReceived().size();
        }
      }
      return arrived;
    }

    private void applyModelFaults(long at) throws Exception {
      long reached = -1;
      for (FaultSpec f : scenario.faults()) {
        if (!f.at().isModel()) {
          continue;
        }
        for (int step = 0; step < f.steps().size(); step++) {
          if (f.steps().get(step) == at) {
            if (!catalog.fault(f.kind()).orElseThrow().stampsModelTime() && reached < 0) {
              reached = awaitRackClock(at);
            }
            apply(f, step, at, reached);
          }
        }
      }
    }

    /**
     * A step that stamps no model time (a killed JVM, a switchover) happens where the rack's clocks
     * are: before it, waits until they reach {@code at} (the largest model clock of the rack's
     * endpoints), or stand still for run.settle, or the run's wall limit passes. Returns the
     * clock reached. What a replay needs for a wall-time step of the original it runs at a model time.
     */
    private long awaitRackClock(long at) throws Exception {
      long lastChange = System.nanoTime();
      long last = -1;
      while (true) {
        long clock = rackClock();
        long now = System.nanoTime();
        if (clock >= at) {
          return clock;
        }
        if (now > deadline) {
          timedOut = true;
          return clock;
        }
        if (clock != last) {
          last = clock;
          lastChange = now;
        } else if (now - lastChange > scenario.run().settleNs()) {
          notes.add("the rack's model clocks stood at " + Durations.text(Math.max(0, clock)) + " for run.settle; what"
              + " was due at " + Durations.text(at) + " was applied then");
          return clock;
        }
        Thread.sleep(CLOCK_POLL_MS); // polling clocks: nothing in the rack says when it passes a time
      }
    }

    /** The largest model clock among the reachable endpoints that answer now; -1 for none. */
    private long rackClock() {
      long max = -1;
      for (CompletableFuture<EndpointStats> ask : askClocks()) {
        EndpointStats stats = ask.handle((st, e) -> e == null ? st : null).join();
        if (stats != null) {
          max = Math.max(max, stats.link().modelNow());
        }
      }
      return max;
    }

    private List<ScheduledFuture<?>> scheduleWallFaults(ScheduledExecutorService timer) {
      List<ScheduledFuture<?>> scheduled = new ArrayList<>();
      for (FaultSpec f : scenario.faults()) {
        if (f.at().isModel()) {
          continue;
        }
        for (int step = 0; step < f.steps().size(); step++) {
          int s = step;
          long delay = wallStart + f.steps().get(step) - System.nanoTime();
          scheduled.add(timer.schedule(() -> apply(f, s, -1, -1), Math.max(0, delay), TimeUnit.NANOSECONDS));
        }
      }
      return scheduled;
    }

    /** @param rackClock the rack's model time when known (measured before), else -1 */
    private void apply(FaultSpec f, int step, long modelAt, long rackClock) {
      FaultType kind = catalog.fault(f.kind()).orElseThrow();
      long wallAt = System.nanoTime() - wallStart;
      // A wall-time step enters the model where the rack's clocks are now: asked before it is
      // applied (a killed node answers no more), read once the run is over, so nothing waits here.
      CompletableFuture<Long> clock = f.at().isModel() ? CompletableFuture.completedFuture(rackClock)
          : largest(askClocks());
      String note;
      try {
        note = kind.apply(f, step, modelAt, rack);
      } catch (Exception e) {
        note = "FAILED: " + (e.getMessage() == null ? e.toString() : e.getMessage());
        notes.add(f.label() + " step " + (step + 1) + " failed: " + note);
      }
      long stamped = kind.stampsModelTime() ? modelAt : -1;
      synchronized (applied) {
        applied.add(new AppliedFault(f, step, stamped, wallAt, kind.takesLinkDown(f, step), note));
        rackClocks.add(clock);
      }
      progress.printf("  %s%s: %s (%s)%n", modelAt >= 0 ? Durations.text(modelAt) : "wall " + Durations.seconds(wallAt),
          f.steps().size() > 1 ? " step " + (step + 1) + "/" + f.steps().size() : "", f.kind() + " " + f.target(), note);
    }

    /** Every reachable endpoint's statistics (its link's model clock), asked without waiting. */
    private List<CompletableFuture<EndpointStats>> askClocks() {
      List<CompletableFuture<EndpointStats>> asks = new ArrayList<>();
      for (var e : rack.topology().endpoints()) {
        if (rack.reachable(e.id())) {
          try {
            asks.add(Asks.askAsync(rack.system(), rack.endpoint(e.id()), MemoryEndpoint.GetStats::new, CLOCK_ASK));
          } catch (RuntimeException ex) {
            // not found (its node just went): it tells no clock
          }
        }
      }
      return asks;
    }

    /**
     * The largest model clock the asks tell; each ends by CLOCK_ASK, and one unanswered (a killed
     * or frozen JVM) counts for nothing. -1 when none answers.
     */
    private CompletableFuture<Long> largest(List<CompletableFuture<EndpointStats>> asks) {
      List<CompletableFuture<Long>> clocks = asks.stream()
          .map(a -> a.handle((st, e) -> e == null ? st.link().modelNow() : -1L)).toList();
      return CompletableFuture.allOf(clocks.toArray(CompletableFuture[]::new))
          .thenApply(done -> clocks.stream().mapToLong(CompletableFuture::join).max().orElse(-1));
    }

    /** The applied steps, each with the model time the rack had reached then where it was measured. */
    private List<AppliedFault> appliedWithRackClocks() {
      synchronized (applied) {
        List<AppliedFault> out = new ArrayList<>();
        for (int i = 0; i < applied.size(); i++) {
          long reached = rackClocks.get(i).join();
          out.add(reached < 0 ? applied.get(i) : applied.get(i).withRackModelNs(reached));
        }
        return out;
      }
    }

    // ------------------------------------------------------------ snapshots

    private Map<String, EndpointStats> endpointSnapshot() {
      Map<String, EndpointStats> out = new HashMap<>();
      for (var e : rack.topology().endpoints()) {
        if (!rack.reachable(e.id())) {
          continue;
        }
        try {
          out.put(e.id(), rack.endpointStats(e.id()));
        } catch (Exception ex) {
          notes.add("no statistics from " + e.id() + ": " + ex.getMessage());
        }
      }
      return out;
    }

    private Map<String, PortStats> portSnapshot() {
      Map<String, PortStats> out = new HashMap<>();
      for (SwitchSpec s : rack.topology().switches()) {
        if (!rack.reachable(s.id())) {
          continue;
        }
        for (var p : s.ports()) {
          String end = LinkSpec.end(s.id(), p.name());
          try {
            out.put(end, rack.portStats(end));
          } catch (Exception ex) {
            notes.add("no statistics from " + end + ": " + ex.getMessage());
          }
        }
      }
      return out;
    }
  }
}
