package io.rackfabric.cluster.cli;

import io.rackfabric.cluster.topology.HostCheck;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.cluster.topology.TopologyException;
import io.rackfabric.cluster.topology.TopologyLoader;

/** Loads the topology a {@code --topology} flag names; a bad one is a usage error (exit 2). */
public final class TopologyArgs {

  private TopologyArgs() {}

  public static Topology load(String fileOrBundledName) throws UsageException {
    return load(fileOrBundledName, HostCheck.NONE);
  }

  /** As {@link #load(String)}, looking up the node hosts {@code hosts} names. */
  public static Topology load(String fileOrBundledName, HostCheck hosts) throws UsageException {
    try {
      return TopologyLoader.loadFileOrBundled(fileOrBundledName, hosts);
    } catch (TopologyException e) {
      throw new UsageException(e.getMessage());
    }
  }
}
