package io.rackfabric.loadtests.scenario;

import io.rackfabric.loadtests.scenario.language.Durations;
import io.rackfabric.loadtests.scenario.language.InvariantSpec;
import io.rackfabric.loadtests.scenario.language.KindCatalog;
import io.rackfabric.loadtests.scenario.language.Mode;
import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.stats.EndpointStats;
import io.rackfabric.fabric.stats.PortStats;
import io.rackfabric.loadtests.report.Figure;
import io.rackfabric.loadtests.scenario.TrafficSchedule.Phase;
import io.rackfabric.loadtests.scenario.api.ControlPlaneTakeovers;
import io.rackfabric.loadtests.scenario.api.FaultType;
import io.rackfabric.loadtests.scenario.api.FigureType;
import io.rackfabric.loadtests.scenario.api.InvariantType;
import io.rackfabric.loadtests.scenario.api.RunResult;
import io.rackfabric.loadtests.scenario.api.RunResult.Boundary;
import io.rackfabric.loadtests.scenario.api.Verdict;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
 *
 * <p>This class starts and stops the rack and orders the run's steps; each step is its own class:
 * {@link TrafficStretches} runs the traffic between cuts, {@link FaultSteps} applies the faults
 * (wall-time ones from a timer thread), {@link ReactionHolds} keeps a fault's consequences in
 * model order, {@link QuietWait} waits for a quiet rack, {@link ProgressLines} reports progress,
 * {@link HostWorkloads} starts and awaits the host software's workloads, and {@link RunVerdicts} checks the invariants and makes the figures; {@link RunContext} is what
 * they share.
 */
public final class ScenarioRunner {

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
    RouteFollowingTraffic.all(scenario.topology().topology(), scenario.traffic()); // refused before the rack starts
    long t0 = System.nanoTime();
    scenario.settings().forEach((k, v) -> progress.println("  setting " + k + " = " + v));
    Map<String, String> settings = scenario.configOverrides();
    try (LiveRack rack = scenario.mode() == Mode.SINGLE_JVM
        ? RackStart.singleJvm(scenario.topology().topology(), runDir, progress, settings)
        : RackStart.multiJvm(scenario.topology().topology(), scenario.multiJvm(), runDir, progress, settings,
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
        HostWorkloads workloads = HostWorkloads.start(rack, scenario, progress);
        return new Execution(scenario, rack, progress, rackUp, workloads, watch).run();
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


  /**
   * One run, from the runner thread: cuts the traffic into stretches at the model-time faults,
   * runs each stretch ({@link TrafficStretches}) and applies the faults between them ({@link
   * FaultSteps}), settles each fault's boundary, and judges the result ({@link RunVerdicts}).
   */
  private final class Execution {
    private final RunContext run;
    private final Scenario scenario;
    private final LiveRack rack;
    private final PrintStream progress;
    private final long rackUpNanos;
    private final HostWorkloads workloads;
    private HostWorkloads.Results done = HostWorkloads.Results.NONE;
    private final Map<String, EndpointStats> atStart = new HashMap<>();
    private final Map<String, PortStats> portsAtStart = new HashMap<>();
    private final List<Boundary> boundaries = new ArrayList<>();
    private final TrafficTally tally;
    private final RackSnapshots snapshots;
    private final FaultSteps faults;
    private final ReactionHolds holds;
    private final ProgressLines lines;
    private final QuietWait quiet;
    private final TrafficStretches stretches;
    private long trafficNanos;

    Execution(Scenario scenario, LiveRack rack, PrintStream progress, long rackUpNanos, HostWorkloads workloads,
        RunProgress watch) {
      this.run = new RunContext(catalog, scenario, rack, progress, watch);
      this.scenario = scenario;
      this.workloads = workloads;
      this.rack = rack;
      this.progress = progress;
      this.rackUpNanos = rackUpNanos;
      this.tally = new TrafficTally(scenario.traffic());
      this.snapshots = new RackSnapshots(run);
      this.faults = new FaultSteps(run);
      this.holds = new ReactionHolds(run, faults);
      this.lines = new ProgressLines(run, tally, faults);
      this.quiet = new QuietWait(run, tally, atStart, lines);
      this.stretches = new TrafficStretches(run, tally, quiet, lines);
      scenario.reproducibilityProblems().forEach(p -> run.notes.add("not reproducible as asked: " + p));
    }

    /**
     * The switchovers an operator asked of the running rack ({@code rack switchover}), which no step
     * of the scenario made: each one is noted, and the run is not reproducible for it.
     */
    private List<RunResult.AppliedFault> operatorSwitchovers(List<RunResult.AppliedFault> applied) {
      if (scenario.topology().topology().controlPlane() == null) {
        return List.of();
      }
      try {
        List<RunResult.AppliedFault> found = OperatorSwitchovers.find(ControlPlaneTakeovers.read(rack).switchovers(),
            applied);
        found.forEach(f -> {
          run.notes.add(OperatorSwitchovers.note(f));
          progress.println("  " + f.note());
        });
        return found;
      } catch (Exception e) {
        run.notes.add("the hosts' switchovers were not read, so an operator's switchover would not be recorded: "
            + e.getMessage());
        return List.of();
      }
    }

    Outcome run() throws Exception {
      atStart.putAll(snapshots.endpoints());
      portsAtStart.putAll(snapshots.ports());
      List<Long> cuts = scenario.modelFaultTimes();
      List<Phase> phases = TrafficSchedule.phases(scenario.traffic(), cuts);
      progress.printf("  traffic: %d generator(s); %d model-time fault instant(s), so %d stretch(es); %d wall-time"
          + " fault step(s)%n", scenario.traffic().size(), cuts.size(), phases.size(), faults.wallSteps());
      run.startClock();
      lines.start();
      ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "scenario-wall-faults");
        t.setDaemon(true);
        return t;
      });
      try {
        List<ScheduledFuture<?>> wallFaults = faults.scheduleWallFaults(timer);
        runStretches(cuts, phases);
        trafficNanos = System.nanoTime() - run.wallStart();
        lines.tellWatch();
        for (ScheduledFuture<?> f : wallFaults) {
          long left = run.deadline() - System.nanoTime();
          try {
            f.get(Math.max(0, left), TimeUnit.NANOSECONDS);
          } catch (TimeoutException e) {
            run.timeOut();
          }
        }
        done = workloads.await(run);
        // After a fault, what it causes (a DLLP timeout, AER) shows up in silence, not in delivered counts.
        quiet.awaitQuiet(faults.noneApplied());
      } finally {
        timer.shutdownNow();
      }
      long wallNanos = System.nanoTime() - run.wallStart();
      if (run.timedOut()) {
        run.notes.add("the run hit run.wall-limit = " + Durations.text(scenario.run().wallLimitNs())
            + "; what was not finished by then is counted as it stood");
      }
      List<RunResult.AppliedFault> applied = new ArrayList<>(faults.appliedWithRackClocks());
      applied.addAll(operatorSwitchovers(applied));
      RunResult result = new RunResult(scenario, atStart, snapshots.endpoints(), portsAtStart, snapshots.ports(),
          boundaries, tally.results(), applied, rack.faultedEnds(), rack.failedComponents(),
          rackUpNanos, trafficNanos, wallNanos, !run.timedOut(), List.copyOf(run.notes), done.streams(),
          done.requests(), rack, null, done.copies(), done.reads(), done.pingPongs(), done.loans());
      progress.printf("  run over after %.1f s of wall time; checking invariants%n", wallNanos / 1e9);
      RunVerdicts verdicts = new RunVerdicts(run);
      List<Checked> checked = verdicts.check(result);
      List<Figure> figures = verdicts.figures(result);
      return new Outcome(result, figures, checked, Timelines.read(result, progress));
    }

    /**
     * Runs the stretches in order, applying the model-time faults at each cut between two. Under
     * the kernel the next stretch starts at the cut itself and the fault's boundary is settled at
     * that stretch's end; without it the rack is brought to quiet around each cut.
     */
    private void runStretches(List<Long> cuts, List<Phase> phases) throws Exception {
      boolean kernel = rack.timeStatus().isPresent();
      if (!kernel) {
        // Free-running, every link end holds what is stamped at or after the first fault. Under
        // the kernel the first stretch holds the rack at its start and runs it to the cut; a limit
        // here would lift the hold the host software's starts keep at the run's start, and the
        // rack would run ahead of the first stretch's traffic (its requests then arrive behind
        // the clocks of the ports they cross: stragglers).
        holds.holdAfter(-1);
      }
      if (!cuts.isEmpty()) {
        // Loss across the first fault is counted by the writes' own stamps: under the kernel the
        // next stretch's traffic runs beside what the fault causes.
        for (var e : rack.topology().endpoints()) {
          if (rack.reachable(e.id())) {
            rack.endpoint(e.id()).tell(new MemoryEndpoint.CountIssuedBefore(cuts.get(0)));
          }
        }
      }
      TrafficStretches.Started next = stretches.start(phases.get(0), 0, phases.size());
      OpenCut open = null;
      for (int i = 0; i < phases.size() && !run.timedOut(); i++) {
        stretches.finish(next);
        next = null;
        if (open != null) {
          // Under the kernel the fault's aftermath ran with this stretch: settled at its end.
          boundaries.add(settle(open, phases.get(i)));
          open = null;
        }
        if (i < cuts.size() && !run.timedOut()) {
          if (kernel) {
            // Everything before the cut done in model time: the snapshots are exact.
            rack.holdModelTime(cuts.get(i));
          } else {
            quiet.awaitQuiet(true);
          }
          Map<String, EndpointStats> endpointsBefore = snapshots.endpoints();
          Map<String, PortStats> portsBefore = snapshots.ports();
          Map<String, Long> sentBefore = tally.sentSoFar();
          // Everything before the cut is done in model time, nothing at or after it has begun:
          // the faults enter the model exactly at the cut.
          rack.holdModelTime(cuts.get(i));
          run.watch.reached(cuts.get(i));
          faults.applyModelFaults(cuts.get(i));
          if (kernel) {
            // The next stretch's traffic enters at the cut itself, beside what the faults cause,
            // before the kernel may pass it: no request of it arrives behind the rack's clocks.
            next = stretches.start(phases.get(i + 1), i + 1, phases.size());
            open = new OpenCut(cuts.get(i), endpointsBefore, portsBefore, sentBefore);
            continue;
          }
          // What the faults cause runs on, up to the next cut (or to the end).
          if (i + 1 < cuts.size()) {
            rack.limitModelTime(cuts.get(i + 1));
          } else {
            rack.releaseModelTime();
          }
          holds.holdForReactions(cuts.get(i), portsBefore, endpointsBefore);
          holds.holdAfter(cuts.get(i));
          // What was in flight at the fault (held at the horizon) now arrives or is lost.
          quiet.awaitQuiet(true);
          Map<String, EndpointStats> endpointsAfter = snapshots.endpoints();
          boundaries.add(new Boundary(cuts.get(i), endpointsBefore, sentBefore, endpointsAfter,
              RunResult.dropsBetween(endpointsBefore, portsBefore, endpointsAfter, snapshots.ports(),
                  snapshots.partners())));
          next = stretches.start(phases.get(i + 1), i + 1, phases.size());
        }
      }
    }

    /** Waits for the host software (nic-stream senders, control-plane requests, GPU and disk drivers), noting errors. */
    /** A fault's cut under the kernel, its boundary settled once the next stretch has run. */
    private record OpenCut(long at, Map<String, EndpointStats> endpoints, Map<String, PortStats> ports,
        Map<String, Long> sentByTraffic) {}

    /**
     * A boundary of the kernel's path, whose fault's aftermath ran beside the next stretch: the
     * rack is quiet at that stretch's end, so what was in flight at the fault has arrived or is
     * lost by now (counted by the writes' stamps, {@link EndpointStats#uniqueIssuedBefore}).
     */
    private Boundary settle(OpenCut open, Phase after) throws Exception {
      if (after.isLast()) {
        quiet.awaitQuiet(false); // host software may tick on for ever: quiet is the end of the run
      } else {
        rack.holdModelTime(after.until()); // exact: everything before the next cut done
      }
      Map<String, EndpointStats> endpointsAfter = snapshots.endpoints();
      return new Boundary(open.at(), open.endpoints(), open.sentByTraffic(), endpointsAfter,
          RunResult.dropsBetween(open.endpoints(), open.ports(), endpointsAfter, snapshots.ports(),
              snapshots.partners()));
    }
  }
}
