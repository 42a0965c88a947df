package io.rackfabric.cluster.topology;

import io.rackfabric.fabric.link.LinkParameters;

/**
 * A point-to-point PCIe link between two ends. An end is an endpoint id ({@code "ep2"}) or a
 * switch port written {@code "switchId.portName"} ({@code "sw1.down1"}).
 */
public record LinkSpec(String a, String b, LinkParameters params) {

  public boolean touches(String end) {
    return a.equals(end) || b.equals(end);
  }

  /** The end opposite {@code end}; {@code end} must be one of this link's ends. */
  public String other(String end) {
    if (a.equals(end)) {
      return b;
    }
    if (b.equals(end)) {
      return a;
    }
    throw new IllegalArgumentException("link " + this + " has no end '" + end + "'");
  }

  /** The component an end names: the part before the first dot. */
  public static String componentOf(String end) {
    int dot = end.indexOf('.');
    return dot < 0 ? end : end.substring(0, dot);
  }

  /** The port an end names, or null for an endpoint end. */
  public static String portOf(String end) {
    int dot = end.indexOf('.');
    return dot < 0 ? null : end.substring(dot + 1);
  }

  public static String end(String switchId, String portName) {
    return switchId + "." + portName;
  }

  @Override
  public String toString() {
    return a + " -- " + b;
  }
}
