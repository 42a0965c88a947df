package io.rackfabric.loadtests.scenario.language;

import io.rackfabric.cluster.node.ClusterSettings;
import io.rackfabric.cluster.topology.Fields;
import java.util.Optional;

/**
 * A scenario's {@code multi-jvm { transport, media-driver, network }}: how the node JVMs of a
 * multi-JVM run talk (Artery's transport, one shared Aeron media driver or one per JVM) and
 * whether each sits in its own network namespace. {@code rack run --transport} wins over the file.
 */
final class MultiJvmSection {

  private MultiJvmSection() {}

  /** The scenario's {@code multi-jvm} block with {@code rack run}'s flags over it. */
  static Scenario.MultiJvm parse(Fields f, Mode mode, ScenarioOptions options) {
    Fields m = f.object("multi-jvm", false);
    String transport = "aeron-udp";
    String mediaDriver = null;
    Network network = Network.LOOPBACK;
    if (m != null) {
      m.allowOnly("transport", "media-driver", "network");
      transport = Optional.ofNullable(m.string("transport", false)).orElse(transport);
      mediaDriver = m.string("media-driver", false);
      String net = m.string("network", false);
      if (!ClusterSettings.TRANSPORTS.contains(transport)) {
        m.error("transport", ClusterSettings.transportNotKnown("transport", transport));
      }
      if (mediaDriver != null && !mediaDriver.equals("shared") && !mediaDriver.equals("embedded")) {
        m.error("media-driver", "media-driver=" + mediaDriver + " not in {shared, embedded}");
      }
      if (net != null) {
        Optional<Network> n = Network.parse(net);
        if (n.isEmpty()) {
          m.error("network", "network=" + net + " not in {loopback, namespaces}");
        } else {
          network = n.get();
        }
      }
      if (network == Network.NAMESPACES && "shared".equals(mediaDriver)) {
        // The shared driver's process sends every node's UDP from its own namespace.
        m.error("media-driver", "media-driver=shared does not work with network=namespaces: one driver process"
            + " would carry every node's traffic from its own namespace; use media-driver = embedded (the default"
            + " there)");
      }
      if (network == Network.NAMESPACES && mode == Mode.SINGLE_JVM) {
        m.error("network", "network=namespaces needs mode = multi-jvm (one JVM has nothing to put apart)");
      }
    }
    if (options.transport() != null) {
      transport = options.transport();
    }
    // Default: one shared driver on loopback (frugal on 2 cores); one per JVM in namespaces.
    boolean shared = mediaDriver == null ? network == Network.LOOPBACK : mediaDriver.equals("shared");
    return new Scenario.MultiJvm(transport, shared, network, options.tlsDir());
  }
}
