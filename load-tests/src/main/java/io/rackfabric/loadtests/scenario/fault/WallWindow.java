package io.rackfabric.loadtests.scenario.fault;

import io.rackfabric.loadtests.scenario.language.Durations;
import io.rackfabric.loadtests.scenario.language.FaultSpec;
import io.rackfabric.loadtests.scenario.language.Param;
import io.rackfabric.loadtests.scenario.language.ParamType;
import io.rackfabric.loadtests.scenario.language.Params;
import io.rackfabric.loadtests.scenario.language.ScenarioKind.Reporter;
import java.util.List;

/**
 * A fault that lasts a while of wall time, from {@code at} (a wall time) for {@code for}: two
 * steps, the start and the end. What the JVM pause and the held heartbeats share.
 */
final class WallWindow {

  private WallWindow() {}

  static List<Param> params(String what) {
    return List.of(Param.required("for", ParamType.DURATION, what));
  }

  static List<Long> steps(long at, Params params) {
    return List.of(at, at + params.number("for", 0));
  }

  /** {@code why}: why it happens in wall time, for the message when {@code at} is a model time. */
  static void check(FaultSpec fault, Reporter report, String why) {
    if (fault.at().isModel()) {
      report.problem("at", why + ": write at = \"wall 2s\"");
    }
    checkLength(fault, report);
  }

  /** Reports a {@code for} that is not positive (on whichever clock the kind reads it). */
  static void checkLength(FaultSpec fault, Reporter report) {
    if (fault.params().number("for", 0) <= 0) {
      report.problem("for", "for=" + length(fault) + " is not positive");
    }
  }

  static String length(FaultSpec fault) {
    return Durations.text(fault.params().number("for", 0));
  }
}
