package io.rackfabric.loadtests.scenario;

import io.rackfabric.host.controlplane.TakeoverBreakdown;
import io.rackfabric.loadtests.scenario.api.ControlPlaneTakeovers;
import io.rackfabric.loadtests.scenario.api.RunResult;
import io.rackfabric.loadtests.scenario.figure.FailoverFigures;
import java.io.PrintStream;
import java.util.List;

/**
 * What happened in a run as model-time steps, read while its rack is still up: each control-plane
 * take-over (Ladon Table 1) and each data-plane fail-over round (Table 2). The figures say
 * how long each step took; these say when, for the report's timelines.
 */
public record Timelines(List<TakeoverBreakdown> takeovers, List<FailoverFigures.Round> failovers) {

  public static final Timelines NONE = new Timelines(List.of(), List.of());

  public Timelines {
    takeovers = List.copyOf(takeovers);
    failovers = List.copyOf(failovers);
  }

  /** Reads both from the run's rack; a part that cannot be read is left empty and said on {@code progress}. */
  static Timelines read(RunResult run, PrintStream progress) {
    if (run.rack() == null) {
      return NONE;
    }
    List<TakeoverBreakdown> takeovers = List.of();
    if (run.scenario().topology().topology().controlPlane() != null) {
      try {
        takeovers = ControlPlaneTakeovers.read(run.rack()).takeovers();
      } catch (Exception e) {
        progress.println("  take-overs for the report's timeline not read: " + e);
      }
    }
    List<FailoverFigures.Round> failovers = List.of();
    try {
      failovers = FailoverFigures.rounds(run);
    } catch (Exception e) {
      progress.println("  fail-overs for the report's timeline not read: " + e);
    }
    return new Timelines(takeovers, failovers);
  }
}
