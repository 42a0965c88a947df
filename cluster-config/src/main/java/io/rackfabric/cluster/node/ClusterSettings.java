package io.rackfabric.cluster.node;

import com.typesafe.config.Config;
import java.time.Duration;

/**
 * {@code rackfabric.cluster}: how node JVMs talk to each other.
 *
 * @param transport Artery transport, aeron-udp or tcp
 * @param aeronIdleCpuLevel 1..10
 * @param aeronDir external media driver directory, or empty for an embedded driver per JVM
 * @param joinTimeout how long a node waits for the cluster to form
 * @param outboundQueue Artery's outbound message queue size per peer
 */
public record ClusterSettings(
    String transport, int aeronIdleCpuLevel, String aeronDir, Duration joinTimeout, int outboundQueue) {

  public ClusterSettings {
    if (!transport.equals("aeron-udp") && !transport.equals("tcp")) {
      throw new IllegalArgumentException("transport=" + transport + " not in {aeron-udp, tcp}");
    }
    if (aeronIdleCpuLevel < 1 || aeronIdleCpuLevel > 10) {
      throw new IllegalArgumentException("aeron-idle-cpu-level=" + aeronIdleCpuLevel + " not in [1,10]");
    }
    if (joinTimeout.isNegative() || joinTimeout.isZero()) {
      throw new IllegalArgumentException("join-timeout=" + joinTimeout + " must be positive");
    }
    if (outboundQueue < 64) {
      throw new IllegalArgumentException("outbound-queue=" + outboundQueue + " must be at least 64");
    }
  }

  public static ClusterSettings create(Config root) {
    Config c = root.getConfig("rackfabric.cluster");
    return new ClusterSettings(c.getString("transport"), c.getInt("aeron-idle-cpu-level"),
        c.getString("aeron-dir"), c.getDuration("join-timeout"), c.getInt("outbound-queue"));
  }

  public ClusterSettings withTransport(String t) {
    return new ClusterSettings(t, aeronIdleCpuLevel, aeronDir, joinTimeout, outboundQueue);
  }

  public ClusterSettings withAeronDir(String dir) {
    return new ClusterSettings(transport, aeronIdleCpuLevel, dir, joinTimeout, outboundQueue);
  }
}
