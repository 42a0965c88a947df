package io.rackfabric.loadtests.scenario.language;

/** A producer of figures for the result, named in a scenario's {@code figures} list. */
public interface FigureKind extends ScenarioKind {}
