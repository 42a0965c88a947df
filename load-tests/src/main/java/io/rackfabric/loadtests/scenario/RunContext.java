package io.rackfabric.loadtests.scenario;

import io.rackfabric.loadtests.scenario.language.KindCatalog;
import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.loadtests.scenario.api.FaultType;
import io.rackfabric.loadtests.scenario.api.FigureType;
import io.rackfabric.loadtests.scenario.api.InvariantType;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What every part of one live run shares: the scenario, its rack, where progress lines go, the
 * notes its result carries and its wall-clock deadline. The parts (traffic stretches, faults,
 * waits for quiet) each take this instead of one another's fields, so each can live in its own
 * class; the deadline and the timed-out flag are the runner thread's, the notes also the wall-time
 * fault thread's (hence synchronized).
 */
final class RunContext {

  final KindCatalog<FaultType, InvariantType, FigureType> catalog;
  final Scenario scenario;
  final LiveRack rack;
  final PrintStream progress;
  final RunProgress watch;
  final List<String> notes = Collections.synchronizedList(new ArrayList<>());
  private long wallStart;
  private long deadline;
  private boolean timedOut;

  RunContext(KindCatalog<FaultType, InvariantType, FigureType> catalog, Scenario scenario, LiveRack rack,
      PrintStream progress, RunProgress watch) {
    this.catalog = catalog;
    this.scenario = scenario;
    this.rack = rack;
    this.progress = progress;
    this.watch = watch;
  }

  /** The traffic begins now: the wall clock of wall-time faults and of run.wall-limit starts. */
  void startClock() {
    wallStart = System.nanoTime();
    deadline = wallStart + scenario.run().wallLimitNs();
  }

  /** When the traffic began ({@link System#nanoTime}). */
  long wallStart() {
    return wallStart;
  }

  /** When run.wall-limit passes ({@link System#nanoTime}). */
  long deadline() {
    return deadline;
  }

  /** Whether run.wall-limit has passed at {@code now}; once it has, the run counts as timed out. */
  boolean pastDeadline(long now) {
    if (now > deadline) {
      timedOut = true;
      return true;
    }
    return false;
  }

  /** Something the run waited for did not come by run.wall-limit. */
  void timeOut() {
    timedOut = true;
  }

  boolean timedOut() {
    return timedOut;
  }
}
