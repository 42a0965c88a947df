package io.rackfabric.cluster.node;

import io.rackfabric.cluster.topology.ControlPlaneSpec;
import io.rackfabric.host.controlplane.ControlPlaneHost.HostStatus;
import io.rackfabric.host.controlplane.ControlPlaneHost.Role;

/**
 * Which host of a running pair an operator's switchover is asked of, from the two hosts' status:
 * the master, whose backup becomes master; with a wanted new master ({@code to}), the other host
 * of the pair, which must then be the master. A host that cannot hand over is still asked when it
 * is the one the request must go to, so that the host's own reason reaches the operator (not
 * the master, without a backup, cut off from it); only what the host could not say is refused here.
 */
public final class SwitchoverChoice {

  private SwitchoverChoice() {}

  /** What to do. */
  public sealed interface Choice permits Ask, Refuse {}

  /** Ask {@code from} for the switchover; {@code to} should be the master afterwards. */
  public record Ask(String from, String to) implements Choice {}

  /** No switchover asked, for {@code reason}. */
  public record Refuse(String reason) implements Choice {}

  /**
   * @param master the status of the pair's master host as the topology names it (the MMH), null
   *     when it is not listed in the rack or did not answer
   * @param backup the same for the pair's backup host (the BMH)
   * @param to the host that should be the master afterwards, one of the pair's ids, or null: the
   *     current master's backup
   */
  public static Choice of(ControlPlaneSpec pair, HostStatus master, HostStatus backup, String to) {
    if (to != null) {
      String from = to.equals(pair.master()) ? pair.backup() : pair.master();
      HostStatus target = to.equals(pair.master()) ? master : backup;
      HostStatus asked = to.equals(pair.master()) ? backup : master;
      if (target != null && target.role() == Role.MASTER) {
        return new Refuse(to + " is already the master (" + roles(pair, master, backup) + "): nothing to switch");
      }
      if (asked == null) {
        return new Refuse(from + ", the host that would hand over, is not running or did not answer ("
            + roles(pair, master, backup) + ")");
      }
      return new Ask(from, to);
    }
    for (Role wanted : new Role[] {Role.MASTER, Role.HANDING_OVER}) {
      if (master != null && master.role() == wanted) {
        return new Ask(pair.master(), pair.backup());
      }
      if (backup != null && backup.role() == wanted) {
        return new Ask(pair.backup(), pair.master());
      }
    }
    return new Refuse("no master to hand over (" + roles(pair, master, backup) + ")");
  }

  /** Whether either host is still booting (Figure 4's boot has not paired them yet). */
  public static boolean booting(HostStatus master, HostStatus backup) {
    return (master != null && master.role() == Role.BOOTING) || (backup != null && backup.role() == Role.BOOTING);
  }

  /** "mmh MASTER, bmh BACKUP", a host that did not answer "not running". */
  public static String roles(ControlPlaneSpec pair, HostStatus master, HostStatus backup) {
    return role(pair.master(), master) + ", " + role(pair.backup(), backup);
  }

  private static String role(String id, HostStatus status) {
    if (status == null) {
      return id + " not running";
    }
    return id + " " + status.role() + (status.detail().isEmpty() ? "" : " (" + status.detail() + ")");
  }
}
