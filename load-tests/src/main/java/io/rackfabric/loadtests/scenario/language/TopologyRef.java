package io.rackfabric.loadtests.scenario.language;

import io.rackfabric.cluster.topology.Topology;
import java.nio.file.Path;

/**
 * The rack a scenario runs on and where it came from.
 *
 * @param written the {@code topology} value as the file has it (a name, a path, or a summary of
 *     a {@code generate} object)
 * @param file the topology file when it was loaded from disk, else null (bundled or generated)
 */
public record TopologyRef(String written, Origin origin, Path file, Topology topology) {

  public enum Origin {
    BUNDLED,
    FILE,
    GENERATED
  }
}
