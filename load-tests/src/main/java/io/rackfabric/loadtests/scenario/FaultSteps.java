package io.rackfabric.loadtests.scenario;

import io.rackfabric.loadtests.scenario.language.Durations;
import io.rackfabric.loadtests.scenario.language.FaultSpec;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.stats.EndpointStats;
import io.rackfabric.fabric.time.TimeKeeper;
import io.rackfabric.loadtests.harness.Asks;
import io.rackfabric.loadtests.scenario.api.FaultType;
import io.rackfabric.loadtests.scenario.api.RunResult.AppliedFault;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Applies a run's fault steps and records each as applied: the model-time ones from the runner
 * thread at their cut, the wall-time ones from a timer thread at their wall time. Each step is
 * recorded with the model time the rack's clocks had reached then, which is what a replay of the
 * run needs to apply a step that stamps no model time (a killed JVM, a switchover) at the same
 * point of the model.
 */
final class FaultSteps {

  /** How long an endpoint has to tell its model clock when a wall-time fault is applied. */
  private static final Duration CLOCK_ASK = Duration.ofSeconds(2);
  /** How often the rack's clocks are read while a step that stamps nothing waits for its time. */
  private static final long CLOCK_POLL_MS = 5;

  private final RunContext run;
  private final List<AppliedFault> applied = Collections.synchronizedList(new ArrayList<>());
  /**
   * Per applied step (same index, under {@code applied}'s lock), the model time the rack had
   * reached when it was applied, -1 when not measured; a wall-time step's is still being asked.
   */
  private final List<CompletableFuture<Long>> rackClocks = new ArrayList<>();

  FaultSteps(RunContext run) {
    this.run = run;
  }

  /** How many wall-time steps the scenario's faults have. */
  long wallSteps() {
    return run.scenario.faults().stream().filter(f -> !f.at().isModel()).mapToLong(f -> f.steps().size()).sum();
  }

  int appliedCount() {
    return applied.size();
  }

  boolean noneApplied() {
    return applied.isEmpty();
  }

  /** Whether a step applied at model time {@code cut} took a link down. */
  boolean tookLinkDownAt(long cut) {
    return applied.stream().anyMatch(f -> f.modelAt() == cut && f.takesLinkDown());
  }

  /** Each applied step as "label step i/n", in the order applied. */
  List<String> appliedLabels() {
    synchronized (applied) {
      return applied.stream()
          .map(f -> f.spec().label() + " step " + (f.step() + 1) + "/" + f.spec().steps().size()).toList();
    }
  }

  /** Applies every model-time step due at {@code at}; the rack is held there. */
  void applyModelFaults(long at) throws Exception {
    String passed = passedNote(at, run.rack.timeStatus().map(TimeKeeper.Status::reached).orElse(Long.MIN_VALUE));
    if (passed != null) {
      run.notes.add(passed);
      run.progress.println("  " + passed);
    }
    long reached = -1;
    for (FaultSpec f : run.scenario.faults()) {
      if (!f.at().isModel()) {
        continue;
      }
      for (int step = 0; step < f.steps().size(); step++) {
        if (f.steps().get(step) == at) {
          if (!run.catalog.fault(f.kind()).orElseThrow().stampsModelTime() && reached < 0) {
            reached = awaitRackClock(at);
          }
          apply(f, step, at, reached);
        }
      }
    }
    // A fault's command reaches a component outside the kernel's rounds, and what it does there (a
    // port's state change to its device manager, an AER report, a rogue DMA scheduled) the member
    // reports when it next reports, unasked too. The run's next hold may reach the keeper first,
    // and the keeper would then let others run past what those messages bring them: every running
    // member reports now, before the run goes on.
    List<String> silent = run.rack.confirmRunningMembers();
    if (!silent.isEmpty()) {
      run.notes.add("after the faults at " + Durations.text(at) + " these kernel members did not report: " + silent
          + "; what the faults made them send may reach components behind their clocks");
    }
  }

  /**
   * Under the kernel the rack is held before a cut while its faults are applied. One that had got
   * past it ({@code reached}, the latest model time a component handled an event at), because a
   * driver's hold came after the rack had moved on, takes them behind its clocks: counted only in
   * sync.stragglers, and the figures then depend on how far it had got. Null when it had not.
   */
  static String passedNote(long at, long reached) {
    if (reached <= at) {
      return null;
    }
    return "the rack had handled events up to " + reached + " ns when the faults due at " + at
        + " ns were applied: they took effect behind its clocks (sync.stragglers counts what came late)";
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
      if (run.pastDeadline(now)) {
        return clock;
      }
      if (clock != last) {
        last = clock;
        lastChange = now;
      } else if (now - lastChange > run.scenario.run().settleNs()) {
        run.notes.add("the rack's model clocks stood at " + Durations.text(Math.max(0, clock)) + " for run.settle; what"
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

  /** Schedules every wall-time step on {@code timer}, counted from the traffic's start. */
  List<ScheduledFuture<?>> scheduleWallFaults(ScheduledExecutorService timer) {
    List<ScheduledFuture<?>> scheduled = new ArrayList<>();
    for (FaultSpec f : run.scenario.faults()) {
      if (f.at().isModel()) {
        continue;
      }
      for (int step = 0; step < f.steps().size(); step++) {
        int s = step;
        long delay = run.wallStart() + f.steps().get(step) - System.nanoTime();
        scheduled.add(timer.schedule(() -> apply(f, s, -1, -1), Math.max(0, delay), TimeUnit.NANOSECONDS));
      }
    }
    return scheduled;
  }

  /** @param rackClock the rack's model time when known (measured before), else -1 */
  private void apply(FaultSpec f, int step, long modelAt, long rackClock) {
    FaultType kind = run.catalog.fault(f.kind()).orElseThrow();
    long wallAt = System.nanoTime() - run.wallStart();
    // A wall-time step enters the model where the rack's clocks are now: asked before it is
    // applied (a killed node answers no more), read once the run is over, so nothing waits here.
    CompletableFuture<Long> clock = f.at().isModel() ? CompletableFuture.completedFuture(rackClock)
        : largest(askClocks());
    String note;
    try {
      note = kind.apply(f, step, modelAt, run.rack);
    } catch (Exception e) {
      note = "FAILED: " + (e.getMessage() == null ? e.toString() : e.getMessage());
      run.notes.add(f.label() + " step " + (step + 1) + " failed: " + note);
    }
    long stamped = kind.stampsModelTime() ? modelAt : -1;
    synchronized (applied) {
      applied.add(new AppliedFault(f, step, stamped, wallAt, kind.takesLinkDown(f, step), note));
      rackClocks.add(clock);
    }
    run.progress.printf("  %s%s: %s (%s)%n",
        modelAt >= 0 ? Durations.text(modelAt) : "wall " + Durations.seconds(wallAt),
        f.steps().size() > 1 ? " step " + (step + 1) + "/" + f.steps().size() : "", f.kind() + " " + f.target(), note);
  }

  /** Every reachable endpoint's statistics (its link's model clock), asked without waiting. */
  private List<CompletableFuture<EndpointStats>> askClocks() {
    LiveRack rack = run.rack;
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
  private static CompletableFuture<Long> largest(List<CompletableFuture<EndpointStats>> asks) {
    List<CompletableFuture<Long>> clocks = asks.stream()
        .map(a -> a.handle((st, e) -> e == null ? st.link().modelNow() : -1L)).toList();
    return CompletableFuture.allOf(clocks.toArray(CompletableFuture[]::new))
        .thenApply(done -> clocks.stream().mapToLong(CompletableFuture::join).max().orElse(-1));
  }

  /** The applied steps, each with the model time the rack had reached then where it was measured. */
  List<AppliedFault> appliedWithRackClocks() {
    synchronized (applied) {
      List<AppliedFault> out = new ArrayList<>();
      for (int i = 0; i < applied.size(); i++) {
        long reached = rackClocks.get(i).join();
        out.add(reached < 0 ? applied.get(i) : applied.get(i).withRackModelNs(reached));
      }
      return out;
    }
  }
}
