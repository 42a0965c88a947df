package io.rackfabric.loadtests.scenario.invariant;

import io.rackfabric.loadtests.scenario.language.Param;
import io.rackfabric.loadtests.scenario.language.ParamType;

/** The {@code traffic} parameter the traffic invariants share. */
final class TrafficParam {

  static final Param TRAFFIC = Param.optional("traffic", ParamType.TRAFFIC, null,
      "the generators it covers, by name (default: every one); a sink counts every generator writing into it");

  private TrafficParam() {}
}
