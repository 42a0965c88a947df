package io.rackfabric.fabric.routing;

/** What a switch port is: the bridge toward the root, a bridge away from it, or an NTB port. */
public enum PortRole {
  UPSTREAM,
  DOWNSTREAM,
  NTB
}
