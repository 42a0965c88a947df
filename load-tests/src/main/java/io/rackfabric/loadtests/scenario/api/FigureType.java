package io.rackfabric.loadtests.scenario.api;

import io.rackfabric.loadtests.scenario.language.FigureKind;
import io.rackfabric.loadtests.report.Figure;
import java.util.List;
import java.util.Map;

/**
 * A figure producer. Model-time figures must come from model times the run's messages carried
 * (statistics, AER records), never from a formula over the scenario's parameters.
 */
public interface FigureType extends FigureKind {

  List<Figure> produce(RunResult run) throws Exception;

  /**
   * What a paper reports for this run's figures, by figure name, as text to print beside the
   * measured value: never a figure itself, never an input to one. Empty by default.
   */
  default Map<String, String> paperValues(RunResult run) {
    return Map.of();
  }
}
