package io.rackfabric.fabric.management;

import com.typesafe.config.Config;

/**
 * {@code rackfabric.fabric.management}: whether a fabric manager discovers the fabric over its
 * actors, from which endpoint, from what model time and with how many reads outstanding.
 *
 * @param fabricManager the endpoint id, "" for the topology's default (see reference.conf)
 * @param discoverAtNs model time of the discovery's start, ns
 */
public record ManagementSettings(boolean enabled, String fabricManager, long discoverAtNs, int window) {

  public ManagementSettings {
    if (fabricManager == null) {
      throw new IllegalArgumentException("fabric-manager is null (use \"\" for the topology's default)");
    }
    if (discoverAtNs < 0) {
      throw new IllegalArgumentException("discover-at=" + discoverAtNs + "ns is negative");
    }
    if (window < 1 || window > Pi4ReadRequest.MAX_TRANSACTION + 1) {
      throw new IllegalArgumentException("window=" + window + " not in [1," + (Pi4ReadRequest.MAX_TRANSACTION + 1) + "]");
    }
  }

  public static ManagementSettings create(Config root) {
    Config c = root.getConfig("rackfabric.fabric.management");
    return new ManagementSettings(c.getBoolean("enabled"), c.getString("fabric-manager"),
        c.getDuration("discover-at").toNanos(), c.getInt("window"));
  }
}
