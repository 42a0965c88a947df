package io.rackfabric.cluster.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.cluster.topology.ControlPlaneSpec;
import io.rackfabric.host.controlplane.ControlPlaneHost.HostStatus;
import io.rackfabric.host.controlplane.ControlPlaneHost.Role;
import java.util.List;
import org.junit.jupiter.api.Test;

class SwitchoverChoiceTest {

  private static final ControlPlaneSpec PAIR = new ControlPlaneSpec("mmh", "bmh", "tor", "mmh", List.of(2, 3));

  private static HostStatus status(String host, Role role) {
    return new HostStatus(host, role, 0, 0, 0, 9, "", null);
  }

  @Test
  void shouldAskTheMasterWhenNoTargetIsGiven() {
    assertEquals(new SwitchoverChoice.Ask("bmh", "mmh"),
        SwitchoverChoice.of(PAIR, status("mmh", Role.BACKUP), status("bmh", Role.MASTER), null));
    assertEquals(new SwitchoverChoice.Ask("mmh", "bmh"),
        SwitchoverChoice.of(PAIR, status("mmh", Role.MASTER), status("bmh", Role.BACKUP), null));
  }

  @Test
  void shouldAskTheOtherHostWhenATargetIsGiven() {
    assertEquals(new SwitchoverChoice.Ask("mmh", "bmh"),
        SwitchoverChoice.of(PAIR, status("mmh", Role.MASTER), status("bmh", Role.BACKUP), "bmh"));
  }

  @Test
  void shouldRefuseWhenTheTargetIsAlreadyTheMaster() {
    assertEquals(new SwitchoverChoice.Refuse("mmh is already the master (mmh MASTER, bmh BACKUP): nothing to switch"),
        SwitchoverChoice.of(PAIR, status("mmh", Role.MASTER), status("bmh", Role.BACKUP), "mmh"));
  }

  /** A master without a backup is still asked: its own reason is the one the operator reads. */
  @Test
  void shouldAskTheMasterWhenItsBackupIsNotRunning() {
    assertEquals(new SwitchoverChoice.Ask("mmh", "bmh"),
        SwitchoverChoice.of(PAIR, status("mmh", Role.MASTER), null, "bmh"));
  }

  @Test
  void shouldRefuseWhenTheHostToAskIsNotRunning() {
    assertEquals(new SwitchoverChoice.Refuse("mmh, the host that would hand over, is not running or did not answer"
        + " (mmh not running, bmh BACKUP)"), SwitchoverChoice.of(PAIR, null, status("bmh", Role.BACKUP), "bmh"));
  }

  @Test
  void shouldRefuseNamingTheRolesWhenNoHostIsMaster() {
    HostStatus fenced = new HostStatus("mmh", Role.FENCED, 0, 0, 0, 9, "fenced by bmh", null);
    assertEquals(new SwitchoverChoice.Refuse("no master to hand over (mmh FENCED (fenced by bmh), bmh TAKING_OVER)"),
        SwitchoverChoice.of(PAIR, fenced, status("bmh", Role.TAKING_OVER), null));
  }

  @Test
  void shouldAskTheHandingOverHostWhenASwitchoverIsUnderWay() {
    assertEquals(new SwitchoverChoice.Ask("mmh", "bmh"),
        SwitchoverChoice.of(PAIR, status("mmh", Role.HANDING_OVER), status("bmh", Role.TAKING_OVER), null));
  }

  @Test
  void shouldSeeABootWhenEitherHostIsBooting() {
    assertTrue(SwitchoverChoice.booting(status("mmh", Role.BOOTING), null));
    assertFalse(SwitchoverChoice.booting(status("mmh", Role.MASTER), status("bmh", Role.BACKUP)));
  }
}
