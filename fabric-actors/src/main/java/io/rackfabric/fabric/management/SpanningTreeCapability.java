package io.rackfabric.fabric.management;

import java.util.Comparator;

/**
 * The spanning-tree capability: what a fabric-manager election needs (AS-FM sections 3.1 and 4).
 * The paper names the capability but not its fields; these are ours, and why each is there:
 *
 * <pre>
 * +00h  [31:20] next capability (the event route's)  [19:16] version  [15:0] ID (F001h, our choice)
 * +04h  [15:8] candidate priority  [0] this device runs a fabric-manager driver   (read-only)
 *       -- a candidate learns from any device it reads whether that device competes, and how strongly
 * +08h  primary claim: [31] valid  [7:0] priority;  +0Ch/+10h the claimant's serial [31:0]/[63:32]
 * +14h  secondary claim, the same three registers                                (read-only)
 *       -- a candidate that reads any device learns who won so far, so one that starts late defers
 * </pre>
 *
 * A candidate claims by writing its priority and serial (three registers) at +08h. The device
 * keeps the best two claims it has seen, best first: a claim ranks by priority, then by serial,
 * lower first. The best two of a set do not depend on the order its members arrived in, so every
 * device that all candidates write to ends with the same primary and secondary whatever the order
 * of start-up. A write of six registers at +08h (two valid claims) is an <em>appointment</em>: the
 * primary that took over names the pair outright, itself and the new secondary (it has read the
 * candidates' +04h and chosen the best left; the election's flood is over and would not bring a
 * dead primary's claim down again). Every other write here is read-only and ignored.
 */
final class SpanningTreeCapability extends FixedRegion {

  static final int ID = 0xF001;
  /** The first 100h boundary past the largest baseline (general information and 256 pointers). */
  static final long OFFSET =
      (BaselineCapability.POINTERS_OFFSET + 4L * BaselineCapability.MAX_PORTS + 0xFF) & ~0xFFL;
  static final int DWORDS = 8;
  static final int PRIMARY = 2;
  static final int SECONDARY = 5;
  private static final int VALID = 1 << 31;

  private final int candidatePriority;
  private final long nextCapability;
  private Claim primary;
  private Claim secondary;

  /**
   * @param candidatePriority the device's own priority as a candidate, -1 when it is none
   * @param nextCapability the offset of the capability after this one
   */
  SpanningTreeCapability(int candidatePriority, long nextCapability) {
    super(OFFSET, DWORDS);
    this.candidatePriority = candidatePriority;
    this.nextCapability = nextCapability;
  }

  @Override
  public int read(int index, int ingressPort) {
    return switch (index) {
      case 0 -> (int) (nextCapability << 20) | ID;
      case 1 -> candidatePriority < 0 ? 0 : (candidatePriority << 8) | 1;
      case PRIMARY, PRIMARY + 1, PRIMARY + 2 -> Claim.encode(primary)[index - PRIMARY];
      default -> Claim.encode(secondary)[index - SECONDARY];
    };
  }

  @Override
  public boolean write(int index, int[] data) {
    if (index != PRIMARY || (data.length != 3 && data.length != 6) || (data[0] & VALID) == 0) {
      return false;
    }
    if (data.length == 6) {
      if ((data[3] & VALID) == 0) {
        return false;
      }
      primary = Claim.decode(data[0], data[1], data[2]);
      secondary = Claim.decode(data[3], data[4], data[5]);
      return true;
    }
    offer(Claim.decode(data[0], data[1], data[2]));
    return true;
  }

  /** The six registers of an appointment: {@code primary}'s claim, then {@code secondary}'s. */
  static int[] appointment(Claim primary, Claim secondary) {
    int[] p = Claim.encode(primary);
    int[] s = Claim.encode(secondary);
    return new int[] {p[0], p[1], p[2], s[0], s[1], s[2]};
  }

  /** The candidate register (+04h) as read: the device's priority as a candidate, -1 when it is none. */
  static int candidatePriority(int register) {
    return (register & 1) == 0 ? -1 : (register >>> 8) & 0xFF;
  }

  /** Keeps {@code claim} if it is among the best two seen; true when the best two changed. */
  boolean offer(Claim claim) {
    if (claim.equals(primary) || claim.equals(secondary)) {
      return false;
    }
    if (primary == null || Claim.ORDER.compare(claim, primary) < 0) {
      secondary = primary;
      primary = claim;
      return true;
    }
    if (secondary == null || Claim.ORDER.compare(claim, secondary) < 0) {
      secondary = claim;
      return true;
    }
    return false;
  }

  Claim primary() {
    return primary;
  }

  Claim secondary() {
    return secondary;
  }

  /** A candidate's claim: its priority (0 the first choice) and its serial, which breaks ties. */
  record Claim(int priority, long serial) {

    static final Comparator<Claim> ORDER =
        Comparator.comparingInt(Claim::priority).thenComparing(Claim::serial, Long::compareUnsigned);

    Claim {
      if (priority < 0 || priority > 255) {
        throw new IllegalArgumentException("claim priority=" + priority + " not in [0,255]");
      }
    }

    /** The three registers a candidate writes at +08h; zeros for no claim. */
    static int[] encode(Claim claim) {
      return claim == null ? new int[3]
          : new int[] {VALID | claim.priority, (int) claim.serial, (int) (claim.serial >>> 32)};
    }

    /** The claim in three registers, or null when they hold none. */
    static Claim decode(int flags, int serialLow, int serialHigh) {
      return (flags & VALID) == 0 ? null
          : new Claim(flags & 0xFF, (serialLow & 0xFFFF_FFFFL) | ((long) serialHigh << 32));
    }
  }
}
