package io.rackfabric.host.enumeration;

/**
 * What a function is, as enumeration tells: a type-1 header on a link's bus is a switch's upstream
 * port and one on a switch's internal bus a downstream port; a type-0 header is an endpoint, an
 * NTB port when its IDs say so. The root never sees past an NTB: it is an endpoint with BARs.
 */
public enum FunctionKind {
  UPSTREAM_PORT("upstream port"),
  DOWNSTREAM_PORT("downstream port"),
  ENDPOINT("endpoint"),
  NTB_ENDPOINT("NTB endpoint");

  private final String label;

  FunctionKind(String label) {
    this.label = label;
  }

  public String label() {
    return label;
  }

  public boolean bridge() {
    return this == UPSTREAM_PORT || this == DOWNSTREAM_PORT;
  }
}
