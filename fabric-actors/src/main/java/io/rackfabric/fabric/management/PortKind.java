package io.rackfabric.fabric.management;

/**
 * What a port of a device is. A switch chip numbers its physical ports from 0; a number the
 * topology gives no port is {@link #UNUSED} (present on the chip, wired to nothing), as port 0 of
 * AS-FM Fig. 8's switch 12. An NTB port answers through its chip's device manager.
 */
public enum PortKind {
  UNUSED,
  /** The one port of an endpoint (a device or a root complex). */
  ENDPOINT,
  UPSTREAM,
  DOWNSTREAM,
  NTB;

  int code() {
    return ordinal();
  }

  static PortKind ofCode(int code) {
    return Codes.decode(values(), code, "port kind");
  }
}
