package io.rackfabric.loadtests.scenario.language;

import io.rackfabric.cluster.topology.Topology;
import java.util.List;
import java.util.Optional;

/**
 * What a kind's check sees of the scenario being parsed: its rack, mode, run, traffic and how its
 * node JVMs are networked.
 */
public record ScenarioContext(Topology topology, Mode mode, RunLength run, List<TrafficSpec> traffic,
    Scenario.MultiJvm multiJvm) {

  public ScenarioContext {
    traffic = List.copyOf(traffic);
  }

  public ScenarioContext(Topology topology, Mode mode, RunLength run, List<TrafficSpec> traffic) {
    this(topology, mode, run, traffic, new Scenario.MultiJvm("aeron-udp", true));
  }

  public Optional<TrafficSpec> traffic(String name) {
    return traffic.stream().filter(t -> t.name().equals(name)).findFirst();
  }
}
