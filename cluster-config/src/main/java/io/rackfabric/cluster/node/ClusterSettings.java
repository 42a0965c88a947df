package io.rackfabric.cluster.node;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.time.Duration;
import java.util.List;

/**
 * {@code rackfabric.cluster}: how node JVMs talk to each other.
 *
 * @param transport Artery transport: aeron-udp or tcp (unauthenticated: one machine or a trusted
 *     network), or tls-tcp (only holders of the rack's certificate get in)
 * @param aeronIdleCpuLevel 1..10
 * @param aeronDir external media driver directory, or empty for an embedded driver per JVM
 * @param joinTimeout how long a node waits for the cluster to form
 * @param outboundQueue Artery's outbound message queue size per peer
 * @param dispatcherThreads threads of the default dispatcher, 0 for one per core
 * @param tls the rack's stores, opened and checked: present exactly with tls-tcp
 */
public record ClusterSettings(
    String transport, int aeronIdleCpuLevel, String aeronDir, Duration joinTimeout, int outboundQueue,
    int dispatcherThreads, TlsSettings tls) {

  /** The Artery transports a node can use. */
  public static final List<String> TRANSPORTS = List.of("aeron-udp", "tcp", "tls-tcp");

  /** The transport that authenticates members. */
  public static final String TLS = "tls-tcp";

  public ClusterSettings {
    if (!TRANSPORTS.contains(transport)) {
      throw new IllegalArgumentException(transportNotKnown("transport", transport));
    }
    if (transport.equals(TLS) && tls == null) {
      throw new IllegalArgumentException("transport=tls-tcp needs the rack's key and trust stores (--tls-dir or"
          + " rackfabric.cluster.tls)");
    }
    if (!transport.equals(TLS)) {
      tls = null;
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
    return create(root, null, null);
  }

  /**
   * The settings with {@code transport} (or the configured one when null); with tls-tcp the stores
   * are read from {@code tlsDir} (a folder made by {@code rack keys}) or, when null, from
   * {@code rackfabric.cluster.tls}, and opened now.
   *
   * @throws IllegalArgumentException naming the value or the path that is wrong
   */
  public static ClusterSettings create(Config root, String transport, String tlsDir) {
    Config c = root.getConfig("rackfabric.cluster");
    String t = transport != null ? transport : c.getString("transport");
    if (!TRANSPORTS.contains(t)) {
      throw new IllegalArgumentException(transportNotKnown("transport", t));
    }
    TlsSettings tls = t.equals(TLS) ? TlsSettings.resolve(c.getConfig("tls"), tlsDir, System::getenv) : null;
    return new ClusterSettings(t, c.getInt("aeron-idle-cpu-level"),
        c.getString("aeron-dir"), c.getDuration("join-timeout"), c.getInt("outbound-queue"),
        c.getInt("dispatcher-threads"), tls);
  }

  /** "NAME=VALUE not in {aeron-udp, tcp, tls-tcp}", e.g. for a flag: {@code --transport}. */
  public static String transportNotKnown(String name, String value) {
    return name + "=" + value + " not in {" + String.join(", ", TRANSPORTS) + "}";
  }

  /** The default dispatcher's size for this JVM: {@code dispatcher-threads}, or the core count. */
  public Config dispatcher() {
    int threads = dispatcherThreads == 0 ? Runtime.getRuntime().availableProcessors() : dispatcherThreads;
    return ConfigFactory.parseString("akka.actor.default-dispatcher.fork-join-executor { parallelism-min = "
        + threads + ", parallelism-max = " + threads + " }");
  }

  public ClusterSettings withAeronDir(String dir) {
    return new ClusterSettings(transport, aeronIdleCpuLevel, dir, joinTimeout, outboundQueue, dispatcherThreads, tls);
  }
}
