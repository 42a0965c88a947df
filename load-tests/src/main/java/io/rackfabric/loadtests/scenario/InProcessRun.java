package io.rackfabric.loadtests.scenario;

import io.rackfabric.loadtests.scenario.language.FtgmCampaign;
import io.rackfabric.loadtests.scenario.language.InvariantSpec;
import io.rackfabric.loadtests.scenario.language.KindCatalog;
import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.loadtests.scenario.language.ScenarioSettings;
import io.rackfabric.loadtests.report.Figure;
import io.rackfabric.loadtests.scenario.ScenarioRunner.Checked;
import io.rackfabric.loadtests.scenario.ScenarioRunner.Outcome;
import io.rackfabric.loadtests.scenario.api.FaultType;
import io.rackfabric.loadtests.scenario.api.FigureType;
import io.rackfabric.loadtests.scenario.api.FtgmCampaignResult;
import io.rackfabric.loadtests.scenario.api.InvariantType;
import io.rackfabric.loadtests.scenario.api.RunResult;
import io.rackfabric.loadtests.scenario.api.Verdict;
import io.rackfabric.loadtests.scenario.ftgm.FtgmCampaignRun;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A scenario that starts no rack (an {@code ftgm-campaign}): its campaign runs in this JVM
 * ({@link FtgmCampaignRun}), then its invariants and figures are judged on what it recorded.
 * Here rather than in the ftgm package so that the campaign does not depend on the runner's
 * outcome types, which the runner's own package owns.
 */
final class InProcessRun {

  private InProcessRun() {}

  /** Runs the campaign, writes its events into {@code runDir}, and judges the scenario's invariants. */
  static Outcome run(KindCatalog<FaultType, InvariantType, FigureType> catalog, Scenario scenario, Path runDir,
      PrintStream progress) throws Exception {
    FtgmCampaign c = scenario.ftgmCampaign();
    progress.printf("rack run %s: in-process, no rack started: %d faults into the firmware of %s (topology %s),"
            + " modes %s, seed %d%n", scenario.name(), c.spec().faults(), c.spec().nic(),
        scenario.topology().topology().name(), c.modes(), c.spec().seed());
    long t0 = System.nanoTime();
    FtgmCampaignResult result = new FtgmCampaignRun(ScenarioSettings.config(scenario.settings())).campaign(scenario, runDir, progress);
    long wall = System.nanoTime() - t0;
    RunResult run = RunResult.inProcess(scenario, wall, List.of(), result);
    List<Checked> checked = new ArrayList<>();
    for (InvariantSpec spec : scenario.invariants()) {
      Verdict v;
      try {
        v = catalog.invariant(spec.kind()).orElseThrow().evaluate(spec, run);
      } catch (Exception e) {
        v = Verdict.fail("could not be checked: " + e);
      }
      checked.add(new Checked(spec, v));
    }
    List<Figure> figures = new ArrayList<>();
    for (String name : scenario.figures()) {
      try {
        figures.addAll(catalog.figure(name).orElseThrow().produce(run));
      } catch (Exception e) {
        progress.println("  figure producer " + name + " failed: " + e);
      }
    }
    return new Outcome(run, figures, checked);
  }
}
