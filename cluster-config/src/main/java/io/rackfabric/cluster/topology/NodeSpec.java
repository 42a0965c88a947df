package io.rackfabric.cluster.topology;

/**
 * One JVM of the cluster. The first node of a topology is the cluster's seed node, so list the node
 * that must outlive the others (the one running the switch chips) first.
 *
 * @param port the Artery port of the node, 1..65535
 */
public record NodeSpec(String name, String host, int port) {

  public String address() {
    return host + ":" + port;
  }
}
