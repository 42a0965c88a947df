package io.rackfabric.loadtests.scenario.language;

import java.util.Arrays;
import java.util.Optional;

/** How the node JVMs of a multi-JVM run reach each other. */
public enum Network {
  /** Every JVM on the machine's loopback: nothing between them can be cut. */
  LOOPBACK("loopback"),
  /**
   * Every node JVM in a network namespace of its own, joined to each other node by a veth pair:
   * the network between two nodes can be cut or degraded (needs root and {@code ip netns}).
   */
  NAMESPACES("namespaces");

  private final String text;

  Network(String text) {
    this.text = text;
  }

  public String text() {
    return text;
  }

  public static Optional<Network> parse(String text) {
    return Arrays.stream(values()).filter(n -> n.text.equals(text)).findFirst();
  }

  @Override
  public String toString() {
    return text;
  }
}
