package io.rackfabric.cluster.cli;

import com.typesafe.config.Config;
import io.rackfabric.cluster.node.ClusterSettings;
import io.rackfabric.cluster.topology.Topology;
import picocli.CommandLine.Option;

/**
 * The flags that reach a running rack's cluster, a picocli mixin ({@code @Mixin RackReachOptions
 * reach;}) shared by every command that joins one: {@code rack node} (through {@link NodeOptions})
 * and {@code rack switchover}. Each flag is checked by the method that reads it, naming the value.
 */
public final class RackReachOptions {

  @Option(names = "--seed", paramLabel = "HOST:PORT", description = "the member of the rack to join through"
      + " (default: the topology's first node)")
  String seed;

  @Option(names = "--transport", paramLabel = "aeron-udp|tcp|tls-tcp",
      description = "the rack's Artery transport between JVMs (default: the configured one)")
  String transport;

  @Option(names = "--tls-dir", paramLabel = "KEYS", description = "the rack's keys, the folder 'rack keys' made, for"
      + " --transport tls-tcp: only holders of the rack's certificate get in (default: the configured stores)")
  String tlsDir;

  /** Whether {@code --seed} was given; without it the topology's first node is joined. */
  boolean seedGiven() {
    return seed != null;
  }

  /** {@code --transport} and {@code --tls-dir} over {@code base}, checked: see {@link NodeCommand#clusterSettings}. */
  ClusterSettings cluster(Config base) throws UsageException {
    return NodeCommand.clusterSettings(base, transport, tlsDir);
  }

  /** {@code --seed} in {@code topology}, checked: see {@link SeedArg#of}. */
  SeedArg join(Topology topology) throws UsageException {
    return SeedArg.of(seed, topology);
  }
}
