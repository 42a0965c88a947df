package io.rackfabric.host.memory;

/**
 * One of the two paths to a compute host (Ladon section 4.2): its primary NTB port and the MH's PMS1,
 * or its secondary NTB port and PMS2. Only one is active for a given target at a time; a CH
 * switches its view of host X to the secondary plane when X's primary link fails.
 */
public enum Plane {
  PRIMARY("primary", "PMS1"),
  SECONDARY("secondary", "PMS2");

  private final String ntb;
  private final String pms;

  Plane(String ntb, String pms) {
    this.ntb = ntb;
    this.pms = pms;
  }

  /** "primary" or "secondary", as in "CH2's primary NTB". */
  public String ntb() {
    return ntb;
  }

  /** The other plane: where a host is reached when this one fails. */
  public Plane other() {
    return this == PRIMARY ? SECONDARY : PRIMARY;
  }

  /** "PMS1" or "PMS2": the half of the MH's physical memory space this plane uses. */
  public String pms() {
    return pms;
  }
}
