package io.rackfabric.loadtests.scenario;

import io.rackfabric.loadtests.scenario.language.Durations;

/**
 * The progress lines a long run prints while it waits (at most one every two seconds), and the
 * {@link RunProgress} an interrupted run's partial result is written from: how many requests are
 * done, which fault steps were applied, and where the model-time kernel stands, so that a stuck
 * run shows why.
 */
final class ProgressLines {

  private static final long PROGRESS_NS = 2_000_000_000L;

  private final RunContext run;
  private final TrafficTally tally;
  private final FaultSteps faults;
  private long lastProgress;

  ProgressLines(RunContext run, TrafficTally tally, FaultSteps faults) {
    this.run = run;
    this.tally = tally;
    this.faults = faults;
  }

  /** The traffic began: the first line is due two seconds from now. */
  void start() {
    lastProgress = run.wallStart();
  }

  /** Prints a line when the last is two seconds old; called from every wait's loop. */
  void progress() {
    long now = System.nanoTime();
    if (now - lastProgress < PROGRESS_NS) {
      return;
    }
    lastProgress = now;
    tellWatch();
    run.progress.printf("    %.1f s: %,d requests done by finished jobs, %d fault step(s) applied%s%n",
        (now - run.wallStart()) / 1e9, tally.totalSent(), faults.appliedCount(), kernelProgress());
  }

  /** What an interruption now would report: requests done and fault steps applied so far. */
  void tellWatch() {
    run.watch.measured("requests_done", tally.sentSoFar());
    run.watch.measured("fault_steps_applied", faults.appliedLabels());
  }

  /** Where the model-time kernel stands, for a progress line: a stuck run shows why here. */
  private String kernelProgress() {
    try {
      var status = run.rack.timeStatus();
      // Every event before the earliest pending one is done: the model has reached it.
      status.filter(st -> st.earliest() != Long.MAX_VALUE).ifPresent(st -> run.watch.reached(st.earliest()));
      return status.map(st -> String.format("; kernel: %,d rounds, next event at %s, %d of %d"
          + " components%s", st.rounds(), st.earliest() == Long.MAX_VALUE ? "none" : Durations.text(st.earliest()),
          st.joined(), st.expected(), st.idle() ? ", idle" : st.waiting().isEmpty() ? "" : ", waiting for "
          + st.waiting())).orElse("");
    } catch (Exception e) {
      return "; kernel: no answer (" + e.getMessage() + ")";
    }
  }
}
