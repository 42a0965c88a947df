package io.rackfabric.host.memory;

/**
 * One NTB crossing on the way to a memory target: through compute host {@code host}'s NTB port
 * of {@code plane}, at its virtual-side BAR (a request leaving the CH's domain for the MH's) or
 * its link-side BAR (a request leaving the MH's domain for the CH's).
 */
public record NtbHop(int host, Plane plane, Side side) {

  /** Which of the NTB port's two endpoints claims the request, in {@code NtbConfig}'s terms. */
  public enum Side {
    /** The CH's side: the request enters the MH's domain. */
    VIRTUAL,
    /** The switch's side: the request enters the CH's domain. */
    LINK
  }

  @Override
  public String toString() {
    return "CH" + host + " " + plane.ntb() + " NTB (" + (side == Side.VIRTUAL ? "virtual" : "link")
        + "-side BAR)";
  }
}
