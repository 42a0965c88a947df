package io.rackfabric.loadtests.scenario;

import io.rackfabric.loadtests.scenario.language.Durations;
import io.rackfabric.loadtests.scenario.language.InvariantSpec;
import io.rackfabric.loadtests.scenario.language.Params;
import io.rackfabric.loadtests.report.Figure;
import io.rackfabric.loadtests.scenario.ScenarioRunner.Checked;
import io.rackfabric.loadtests.scenario.api.FigureType;
import io.rackfabric.loadtests.scenario.api.RunResult;
import io.rackfabric.loadtests.scenario.api.Verdict;
import java.util.ArrayList;
import java.util.List;

/**
 * Judges a finished run from its {@link RunResult}: each of the scenario's invariants with its
 * verdict (one that cannot be checked fails, a run past its wall limit fails one more), and the
 * figures its producers make. A producer that fails costs its figures, not the run.
 */
final class RunVerdicts {

  private final RunContext run;

  RunVerdicts(RunContext run) {
    this.run = run;
  }

  /** Every invariant of the scenario with its verdict, and a failed within-wall-limit after a time-out. */
  List<Checked> check(RunResult result) {
    List<Checked> checked = new ArrayList<>();
    for (InvariantSpec spec : run.scenario.invariants()) {
      checked.add(new Checked(spec, evaluate(spec, result)));
    }
    if (run.timedOut()) {
      checked.add(new Checked(new InvariantSpec("within-wall-limit", Params.NONE, "within-wall-limit",
          run.scenario.source()), Verdict.fail("the run did not finish within run.wall-limit = "
          + Durations.text(run.scenario.run().wallLimitNs()))));
    }
    return checked;
  }

  private Verdict evaluate(InvariantSpec spec, RunResult result) {
    try {
      return run.catalog.invariant(spec.kind()).orElseThrow().evaluate(spec, result);
    } catch (Exception e) {
      return Verdict.fail("could not be checked: " + e);
    }
  }

  /** The figures of the scenario's producers, in its order. */
  List<Figure> figures(RunResult result) {
    List<Figure> figures = new ArrayList<>();
    for (String name : run.scenario.figures()) {
      FigureType producer = run.catalog.figure(name).orElseThrow();
      try {
        figures.addAll(producer.produce(result));
      } catch (Exception e) {
        run.progress.println("  figure producer " + name + " failed: " + e);
      }
    }
    return figures;
  }
}
