package io.rackfabric.cluster.node;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValueFactory;
import java.util.List;

/**
 * Builds the ActorSystem configuration of one cluster member: Artery on the chosen transport at
 * the member's address (with tls-tcp, the rack's stores and TLS 1.3 with mutual authentication),
 * the seed node, split-brain resolver, Kryo already bound by reference.conf.
 */
public final class NodeConfig {

  private NodeConfig() {}

  /**
   * Akka's log lines through SLF4J (logback), so that the logging configuration decides where they
   * go; without it Akka prints them to stdout itself. Before its loggers start (and after they
   * stop) Akka prints only errors to stdout.
   */
  public static Config logging() {
    return ConfigFactory.empty()
        .withValue("akka.loggers", ConfigValueFactory.fromIterable(List.of("akka.event.slf4j.Slf4jLogger")))
        .withValue("akka.logging-filter", ConfigValueFactory.fromAnyRef("akka.event.slf4j.Slf4jLoggingFilter"))
        .withValue("akka.stdout-loglevel", ConfigValueFactory.fromAnyRef("ERROR"));
  }

  /**
   * @param roles cluster roles of this member ("fabric" for nodes that run components, "driver"
   *     for a process that only drives and measures)
   */
  public static Config member(
      String host, int port, String seedHost, int seedPort, List<String> roles, ClusterSettings cluster,
      Config base) {
    String protocol = "akka";
    String seed = protocol + "://rack@" + seedHost + ":" + seedPort;
    Config c = ConfigFactory.empty()
        .withValue("akka.actor.provider", ConfigValueFactory.fromAnyRef("cluster"))
        .withValue("akka.remote.artery.transport", ConfigValueFactory.fromAnyRef(cluster.transport()))
        .withValue("akka.remote.artery.canonical.hostname", ConfigValueFactory.fromAnyRef(host))
        .withValue("akka.remote.artery.canonical.port", ConfigValueFactory.fromAnyRef(port))
        .withValue("akka.remote.artery.advanced.aeron.idle-cpu-level",
            ConfigValueFactory.fromAnyRef(cluster.aeronIdleCpuLevel()))
        .withValue("akka.remote.artery.advanced.outbound-message-queue-size",
            ConfigValueFactory.fromAnyRef(cluster.outboundQueue()))
        .withValue("akka.cluster.seed-nodes", ConfigValueFactory.fromIterable(List.of(seed)))
        .withValue("akka.cluster.roles", ConfigValueFactory.fromIterable(roles))
        .withValue("akka.cluster.downing-provider-class",
            ConfigValueFactory.fromAnyRef("akka.cluster.sbr.SplitBrainResolverProvider"))
        .withValue("akka.cluster.jmx.multi-mbeans-in-same-jvm", ConfigValueFactory.fromAnyRef("on"))
        .withValue("akka.coordinated-shutdown.run-by-actor-system-terminate", ConfigValueFactory.fromAnyRef("on"))
        .withFallback(logging());
    if (!cluster.aeronDir().isEmpty()) {
      c = c.withValue("akka.remote.artery.advanced.aeron.embedded-media-driver", ConfigValueFactory.fromAnyRef("off"))
          .withValue("akka.remote.artery.advanced.aeron.aeron-dir", ConfigValueFactory.fromAnyRef(cluster.aeronDir()));
    }
    if (cluster.tls() != null) {
      c = c.withFallback(cluster.tls().artery());
    }
    return c.withFallback(cluster.dispatcher()).withFallback(base);
  }
}
