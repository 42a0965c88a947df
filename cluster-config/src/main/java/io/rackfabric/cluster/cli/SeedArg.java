package io.rackfabric.cluster.cli;

import io.rackfabric.cluster.topology.HostCheck;
import io.rackfabric.cluster.topology.NodeSpec;
import io.rackfabric.cluster.topology.Topology;

/**
 * The member a command joins the rack's cluster through: {@code --seed host:port}, or the
 * topology's first node when the flag is not given; checked before anything starts.
 */
record SeedArg(String host, int port) {

  /**
   * @param flag the {@code --seed} value, or null
   * @throws UsageException naming the value: not host:port, a port outside [1,65535], or a given
   *     host that does not resolve
   */
  static SeedArg of(String flag, Topology topology) throws UsageException {
    NodeSpec first = topology.seed();
    String join = flag != null ? flag : first.host() + ":" + first.port();
    int colon = join.lastIndexOf(':');
    if (colon <= 0) {
      throw new UsageException("--seed=" + join + " is not host:port");
    }
    String host = join.substring(0, colon);
    int port;
    try {
      port = Integer.parseInt(join.substring(colon + 1));
    } catch (NumberFormatException e) {
      throw new UsageException("--seed=" + join + " is not host:port");
    }
    if (port < 1 || port > 65535) {
      throw new UsageException("--seed=" + join + ": port " + port + " not in [1,65535]");
    }
    if (flag != null && !HostCheck.resolves(host)) {
      throw new UsageException("--seed=" + flag + ": host \"" + host + "\" does not resolve to an address");
    }
    return new SeedArg(host, port);
  }
}
