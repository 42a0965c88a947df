package io.rackfabric.cluster.scenario;

import io.rackfabric.cluster.topology.Topology;
import java.util.List;
import java.util.Optional;

/** What a kind's check sees of the scenario being parsed: its rack, mode, run and traffic. */
public record ScenarioContext(Topology topology, Mode mode, RunLength run, List<TrafficSpec> traffic) {

  public ScenarioContext {
    traffic = List.copyOf(traffic);
  }

  public Optional<TrafficSpec> traffic(String name) {
    return traffic.stream().filter(t -> t.name().equals(name)).findFirst();
  }
}
