package io.rackfabric.cluster.node;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.time.Duration;
import java.util.List;

/**
 * {@code rackfabric.cluster}: how node JVMs talk to each other.
 *
 * @param transport Artery transport, aeron-udp or tcp
 * @param aeronIdleCpuLevel 1..10
 * @param aeronDir external media driver directory, or empty for an embedded driver per JVM
 * @param joinTimeout how long a node waits for the cluster to form
 * @param outboundQueue Artery's outbound message queue size per peer
 * @param dispatcherThreads threads of the default dispatcher, 0 for one per core
 */
public record ClusterSettings(
    String transport, int aeronIdleCpuLevel, String aeronDir, Duration joinTimeout, int outboundQueue,
    int dispatcherThreads) {

  /** The Artery transports a node can use. */
  public static final List<String> TRANSPORTS = List.of("aeron-udp", "tcp");

  public ClusterSettings {
    if (!TRANSPORTS.contains(transport)) {
      throw new IllegalArgumentException("transport=" + transport + " not in {" + String.join(", ", TRANSPORTS) + "}");
    }
    if (aeronIdleCpuLevel < 1 || aeronIdleCpuLevel > 10) {
      throw new IllegalArgumentException("aeron-idle-cpu-level=" + aeronIdleCpuLevel + " not in [1,10]");
    }
    if (joinTimeout.isNegative() || joinTimeout.isZero()) {
      throw new IllegalArgumentException("join-timeout=" + joinTimeout + " must be positive");
    }
    if (dispatcherThreads < 0) {
      throw new IllegalArgumentException("dispatcher-threads=" + dispatcherThreads + " must be 0 (one per core) or more");
    }
    if (outboundQueue < 64) {
      throw new IllegalArgumentException("outbound-queue=" + outboundQueue + " must be at least 64");
    }
  }

  public static ClusterSettings create(Config root) {
    Config c = root.getConfig("rackfabric.cluster");
    return new ClusterSettings(c.getString("transport"), c.getInt("aeron-idle-cpu-level"),
        c.getString("aeron-dir"), c.getDuration("join-timeout"), c.getInt("outbound-queue"),
        c.getInt("dispatcher-threads"));
  }

  /** The default dispatcher's size for this JVM: {@code dispatcher-threads}, or the core count. */
  public Config dispatcher() {
    int threads = dispatcherThreads == 0 ? Runtime.getRuntime().availableProcessors() : dispatcherThreads;
    return ConfigFactory.parseString("akka.actor.default-dispatcher.fork-join-executor { parallelism-min = "
        + threads + ", parallelism-max = " + threads + " }");
  }

  public ClusterSettings withTransport(String t) {
    return new ClusterSettings(t, aeronIdleCpuLevel, aeronDir, joinTimeout, outboundQueue, dispatcherThreads);
  }

  public ClusterSettings withAeronDir(String dir) {
    return new ClusterSettings(transport, aeronIdleCpuLevel, dir, joinTimeout, outboundQueue, dispatcherThreads);
  }
}
