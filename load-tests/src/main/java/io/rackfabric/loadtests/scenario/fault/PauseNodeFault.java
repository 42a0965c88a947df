package io.rackfabric.loadtests.scenario.fault;

import io.rackfabric.loadtests.scenario.language.FaultSpec;
import io.rackfabric.loadtests.scenario.language.Param;
import io.rackfabric.loadtests.scenario.language.ScenarioContext;
import io.rackfabric.loadtests.scenario.api.RunningRack;
import java.util.List;

/**
 * {@code pause-node}: a node's JVM is frozen (SIGSTOP) for {@code for} of wall time, then runs on
 * (SIGCONT), as after a long garbage collection or a hung host. Its components answer nothing
 * meanwhile: a pause shorter than the DLLP timeout only stalls the links into it on credit; a
 * longer one makes their partners take them down. A JVM pause is a wall-clock event, so {@code at}
 * must be a wall time.
 */
public final class PauseNodeFault extends NodeWindowFault {

  @Override
  public String name() {
    return "pause-node";
  }

  @Override
  public String summary() {
    return "freeze node TARGET's JVM (SIGSTOP) for FOR of wall time, then let it run on (multi-jvm runs only)";
  }

  @Override
  public List<Param> params() {
    return WallWindow.params("how long the JVM stays frozen (wall time)");
  }

  @Override
  public void check(FaultSpec fault, ScenarioContext context, Reporter report) {
    WallWindow.check(fault, report, "a JVM pause happens in wall time");
  }

  @Override
  public String apply(FaultSpec fault, int step, long modelAt, RunningRack rack) throws Exception {
    if (step == 0) {
      rack.pauseNode(fault.target());
      return "JVM of " + fault.target() + " frozen (SIGSTOP) for " + WallWindow.length(fault);
    }
    rack.resumeNode(fault.target());
    return "JVM of " + fault.target() + " runs on (SIGCONT)";
  }

  @Override
  public boolean takesLinkDown(FaultSpec fault, int step) {
    return false;
  }
}
