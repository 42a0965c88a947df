package io.rackfabric.loadtests.scenario.fault;

import io.rackfabric.loadtests.scenario.language.FaultSpec;
import io.rackfabric.loadtests.scenario.language.Target;
import io.rackfabric.loadtests.scenario.api.FaultType;
import io.rackfabric.loadtests.scenario.api.RunningRack;
import java.time.Duration;
import java.util.Optional;

/**
 * {@code link-up}: a link taken down (at either end) is enabled again at both; the run goes on once
 * it has trained (in wall time; its ends' model clocks start from the fault's time).
 */
public final class LinkUpFault implements FaultType {

  static final Duration TRAINING = Duration.ofSeconds(20);

  @Override
  public String name() {
    return "link-up";
  }

  @Override
  public String summary() {
    return "bring the link at TARGET back up (enabling both of its ends) and wait until it trained";
  }

  @Override
  public Target target() {
    return Target.LINK_END;
  }

  @Override
  public String apply(FaultSpec fault, int step, long modelAt, RunningRack rack) throws Exception {
    return up(fault.target(), modelAt, rack);
  }

  @Override
  public Optional<String> notRandom() {
    return Optional.of("it only brings back a link another fault took down (draw link-flap instead)");
  }

  @Override
  public boolean takesLinkDown(FaultSpec fault, int step) {
    return false;
  }

  /** Enables both ends: the link may have been taken down at either. */
  static String up(String end, long modelAt, RunningRack rack) throws Exception {
    long t0 = System.nanoTime();
    rack.setLink(end, true, modelAt);
    rack.setLink(rack.topology().linkAt(end).orElseThrow().other(end), true, modelAt);
    rack.awaitLinkUp(end, TRAINING);
    return "link at " + end + " up again, trained in " + (System.nanoTime() - t0) / 1_000_000 + " ms of wall time";
  }
}
