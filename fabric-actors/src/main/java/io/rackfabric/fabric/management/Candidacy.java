package io.rackfabric.fabric.management;

import io.rackfabric.fabric.tlp.FabricMessage;
import io.rackfabric.fabric.wire.WireMessage;
import java.util.ArrayList;
import java.util.List;

/**
 * A fabric-manager candidate's side of the election (AS-FM section 4): once its port is trained
 * (DL_Protected) it claims with its priority and serial, offered to its own spanning-tree
 * capability and sent out of its port to be flooded ({@link ElectionFlood}); claims flooded to it
 * land in the same capability. At its decision time, after the flood has had time to settle, it
 * reads its own capability: primary if the best claim is its own, secondary if the second is.
 * Plain, no clock: the endpoint gives it the model time of each step.
 */
public final class Candidacy {

  /** What a candidate came out as. */
  public enum Role { UNDECIDED, PRIMARY, SECONDARY, NONE }

  /**
   * A candidate's election, for its endpoint's statistics.
   *
   * @param claimedAt model time its claim left (-1: not yet)
   * @param lastChangeAt model time its capability's best two last changed: when it knew the
   *     final outcome if that is before {@code decidedAt}
   * @param decidedAt model time it read the outcome (-1: not yet)
   * @param role what the election made it (a secondary that took over later stays SECONDARY here,
   *     a candidate appointed secondary after a take-over stays NONE; its {@code watch} says when)
   * @param primarySerial the best claim's serial when it decided (0: none); {@code secondarySerial} likewise
   */
  public record Report(int priority, long serial, long claimedAt, long lastChangeAt, long decidedAt, Role role,
      long primarySerial, long secondarySerial, long claimsReceived, long claimsSent, Watch watch)
      implements WireMessage {}

  /**
   * The secondary's watch on the primary: heartbeats sent (by a primary) or received (by a
   * secondary), the model time the last one received left the primary and arrived, and when the
   * secondary took over (-1: it did not). After a take-over ({@link SecondaryAppointment}): on the
   * new primary, when it appointed a new secondary ({@code appointedAt}, -1: none), whom
   * ({@code appointeeSerial}, 0: none) and how many endpoints it read for it
   * ({@code candidatesRead}); on the appointee, when the appointment reached it ({@code appointedAt})
   * and the primary that appointed it ({@code appointerSerial}, 0: none), the one it then watched.
   */
  public record Watch(long heartbeatsSent, long heartbeatsReceived, long lastHeartbeatSentAt, long lastHeartbeatAt,
      long tookOverAt, long appointedAt, long appointeeSerial, long appointerSerial, int candidatesRead)
      implements WireMessage {}

  private final ElectionFlood flood;
  private final int priority;
  private final long serial;
  private long claimedAt = -1;
  private long decidedAt = -1;
  private long claimsSent;
  private Role role = Role.UNDECIDED;
  private ElectionClaim primary;
  private ElectionClaim secondary;
  private long heartbeatsSent;
  private long heartbeatsReceived;
  private long lastHeartbeatSentAt = -1;
  private long lastHeartbeatAt = -1;
  private long tookOverAt = -1;
  /** The secondary this candidate appointed after it took over; null: none. */
  private ElectionClaim appointee;
  /** The primary that appointed this candidate secondary; null: none. */
  private ElectionClaim appointer;
  /** What the election made it, kept for the report when an appointment or a take-over changes its role. */
  private Role elected = Role.UNDECIDED;
  private long appointedAt = -1;
  private int candidatesRead;

  public Candidacy(ElectionFlood flood, int priority, long serial) {
    this.flood = flood;
    this.priority = priority;
    this.serial = serial;
    new ElectionClaim(priority, serial); // validates the priority
  }

  /** Claims at model {@code at}: the claim to send out of every trained port of the endpoint. */
  public List<FabricMessage> claim(long at) {
    if (claimedAt >= 0) {
      return List.of();
    }
    claimedAt = at;
    ElectionClaim own = new ElectionClaim(priority, serial);
    List<FabricMessage> out = new ArrayList<>();
    for (int port : flood.onClaim(own, -1, at)) {
      out.add(FabricMessage.send(own, List.of(port), at));
    }
    claimsSent += out.size();
    return out;
  }

  public boolean claimed() {
    return claimedAt >= 0;
  }

  /** Reads the outcome from its own capability at model {@code at}. */
  public Role decide(long at) {
    decidedAt = at;
    primary = flood.primary();
    secondary = flood.secondary();
    if (primary != null && primary.serial() == serial) {
      role = Role.PRIMARY;
    } else if (secondary != null && secondary.serial() == serial) {
      role = Role.SECONDARY;
    } else {
      role = Role.NONE;
    }
    elected = role;
    return role;
  }

  public Role role() {
    return role;
  }

  /**
   * The other of the primary and secondary: as this candidate decided, or as it was appointed; when
   * it took over, the secondary it appointed since (null until then: the old primary is taken for
   * dead).
   */
  public ElectionClaim partner() {
    if (tookOverAt >= 0) {
      return appointee;
    }
    if (appointer != null) {
      return appointer;
    }
    return role == Role.PRIMARY ? secondary : role == Role.SECONDARY ? primary : null;
  }

  /** A primary sent its secondary a heartbeat. */
  public void heartbeatSent() {
    heartbeatsSent++;
  }

  /** A secondary took a heartbeat that left the primary at {@code sentAt} and arrived at {@code at}. */
  public void heartbeatArrived(long sentAt, long at) {
    heartbeatsReceived++;
    lastHeartbeatSentAt = sentAt;
    lastHeartbeatAt = at;
  }

  /**
   * The secondary heard no heartbeat for the watch timeout: it is the primary from model
   * {@code at} on (the old primary is taken for dead). False when it is no secondary.
   */
  public boolean takeOver(long at) {
    if (role != Role.SECONDARY) {
      return false;
    }
    role = Role.PRIMARY;
    tookOverAt = at;
    return true;
  }

  /**
   * The primary that took over appointed {@code secondary} at model {@code at}, having read
   * {@code read} endpoints' candidate registers. False when it did not take over.
   */
  public boolean appoint(ElectionClaim secondary, long at, int read) {
    if (tookOverAt < 0 || appointee != null) {
      return false;
    }
    appointee = secondary;
    appointedAt = at;
    candidatesRead = read;
    return true;
  }

  /**
   * A write may have appointed this candidate at model {@code at}: a candidate the election left
   * with no role whose capability now holds its own claim second becomes the secondary, its
   * primary the one the capability holds first. True when it did.
   */
  public boolean appointedIf(long at) {
    ElectionClaim second = flood.secondary();
    if (role != Role.NONE || second == null || second.serial() != serial || flood.primary() == null) {
      return false;
    }
    role = Role.SECONDARY;
    appointer = flood.primary();
    appointedAt = at;
    return true;
  }

  public Report report() {
    return new Report(priority, serial, claimedAt, flood.lastChangeAt(), decidedAt, elected,
        primary == null ? 0 : primary.serial(), secondary == null ? 0 : secondary.serial(), flood.received(),
        claimsSent, new Watch(heartbeatsSent, heartbeatsReceived, lastHeartbeatSentAt, lastHeartbeatAt, tookOverAt,
            appointedAt, appointee == null ? 0 : appointee.serial(), appointer == null ? 0 : appointer.serial(),
            candidatesRead));
  }
}
