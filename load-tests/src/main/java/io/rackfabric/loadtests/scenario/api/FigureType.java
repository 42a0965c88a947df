package io.rackfabric.loadtests.scenario.api;

import io.rackfabric.loadtests.scenario.language.FigureKind;
import io.rackfabric.loadtests.report.Figure;
import java.util.List;

/**
 * A figure producer. Model-time figures must come from model times the run's messages carried
 * (statistics, AER records), never from a formula over the scenario's parameters.
 */
public interface FigureType extends FigureKind {

  List<Figure> produce(RunResult run) throws Exception;
}
