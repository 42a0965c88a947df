package io.rackfabric.cluster.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.cluster.node.BootSequence.Finished;
import io.rackfabric.cluster.node.BootSequence.Host;
import io.rackfabric.cluster.node.BootSequence.MoveDevices;
import io.rackfabric.cluster.node.BootSequence.Step;
import io.rackfabric.cluster.node.BootSequence.Submit;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.cluster.topology.TopologyLoader;
import io.rackfabric.fabric.routing.PortConfig;
import io.rackfabric.fabric.routing.RoutingTable;
import io.rackfabric.host.controlplane.ControlPlaneHost.Role;
import io.rackfabric.host.controlplane.ControlPlaneHost.RoleChanged;
import io.rackfabric.persistence.controller.Controller.OperationResult;
import io.rackfabric.persistence.controller.Controller.Status;
import java.util.List;
import org.junit.jupiter.api.Test;

class BootSequenceTest {

  static final Topology RACK = load();
  static final RoutingTable TOR = RequesterIdPlan.of(RACK).routingTable("tor");
  static final List<Integer> DEVICES = List.of(2, 3, 4); // nic, to-pri, to-sec

  static Topology load() {
    try {
      return TopologyLoader.load("ladon-testbed");
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  static RoutingTable moved(RoutingTable table, List<Integer> ports, int vs) {
    RoutingTable next = table;
    for (int n : ports) {
      next = next.withPort(next.port(n).withVirtualSwitch(vs));
    }
    return next;
  }

  static OperationResult accepted(long seqNr) {
    return new OperationResult(Status.ACCEPTED, seqNr, 0, "", List.of());
  }

  static RoleChanged ok(String host, Role role, long seqNr) {
    return new RoleChanged(host, role, true, seqNr, "");
  }

  @Test
  void shouldNameEveryVs1PortButTheMastersWhenReadOffTheTopology() {
    assertEquals(DEVICES, BootSequence.devicePorts(RACK), "tor: nic, to-pri, to-sec; not mmh (VS1 upstream) nor bmh (VS2)");
  }

  @Test
  void shouldBootTheBackupInVs2FirstThenTheMasterInVs1AndPairWhenEveryStepSucceeds() {
    BootSequence s = new BootSequence(DEVICES, 3);
    assertEquals(new MoveDevices(DEVICES, 2), s.start());
    RoutingTable inVs2 = moved(TOR, DEVICES, 2);
    assertEquals(new Submit(Host.BACKUP, 0), s.devicesMoved(inVs2));
    assertEquals(new Submit(Host.BACKUP, 1), s.operationAnswered(accepted(1)));
    assertEquals(new Submit(Host.BACKUP, 2), s.operationAnswered(accepted(2)));
    assertInstanceOf(BootSequence.StandBy.class, s.operationAnswered(accepted(3)));
    assertEquals(3, s.backupTemplateSeqNr());
    assertEquals(new MoveDevices(DEVICES, 1), s.roleChanged(ok("bmh", Role.BACKUP, 3)));
    RoutingTable back = moved(inVs2, DEVICES, 1);
    assertEquals(new Submit(Host.MASTER, 0), s.devicesMoved(back));
    s.operationAnswered(accepted(1));
    s.operationAnswered(accepted(2));
    assertInstanceOf(BootSequence.Pair.class, s.operationAnswered(accepted(3)));
    assertEquals(3, s.masterTemplateSeqNr());
    Finished done = assertInstanceOf(Finished.class, s.roleChanged(ok("mmh", Role.MASTER, 3)));
    assertTrue(done.booted(), done.detail());
    assertEquals(List.of(Step.FINDING, Step.DEVICES_TO_VS2, Step.BACKUP_ENUMERATING, Step.BACKUP_STANDING_BY,
        Step.DEVICES_TO_VS1, Step.MASTER_ENUMERATING, Step.PAIRING, Step.BOOTED), s.passed());
    assertEquals(inVs2, s.devicesInVs2());
    assertEquals(TOR, s.devicesBackInVs1(), "moving the same ports back gives the table the rack started with");
    assertEquals("", s.failure());
  }

  @Test
  void shouldFailWhenTheChipLeavesADevicePortInVs1() {
    BootSequence s = new BootSequence(DEVICES, 2);
    s.start();
    Finished f = assertInstanceOf(Finished.class, s.devicesMoved(moved(TOR, List.of(2, 3), 2)));
    assertTrue(!f.booted() && f.detail().contains("port 4 (to-sec) is in VS1 after the move to VS2"), f.detail());
    assertEquals(Step.FAILED, s.step());
  }

  @Test
  void shouldFailNamingTheStepWhenTheBackupRefusesABootOperation() {
    BootSequence s = new BootSequence(DEVICES, 3);
    s.start();
    s.devicesMoved(moved(TOR, DEVICES, 2));
    s.operationAnswered(accepted(1));
    Finished f = assertInstanceOf(Finished.class, s.operationAnswered(
        new OperationResult(Status.REJECTED, 1, 0, "host=ch1 is already known", List.of())));
    assertTrue(f.detail().contains("BACKUP boot step 2 of 3 refused: REJECTED host=ch1 is already known"), f.detail());
    assertTrue(f.detail().startsWith("in step BACKUP_ENUMERATING"), f.detail());
  }

  @Test
  void shouldFailWhenPairingIsRefused() {
    BootSequence s = bootedUpToPairing();
    Finished f = assertInstanceOf(Finished.class, s.roleChanged(new RoleChanged("mmh", Role.BOOTING, false, 1,
        "backup refused: lastSeqNr: master=1 backup=0")));
    assertTrue(f.detail().contains("mmh did not become master: backup refused"), f.detail());
    assertEquals(Step.FAILED, s.step());
  }

  @Test
  void shouldIgnoreAnswersThatDoNotBelongToTheStep() {
    BootSequence s = new BootSequence(DEVICES, 1);
    assertInstanceOf(BootSequence.Ignored.class, s.operationAnswered(accepted(1)), "nothing submitted yet");
    assertInstanceOf(BootSequence.Ignored.class, s.devicesMoved(TOR), "no move asked yet");
    s.start();
    assertInstanceOf(BootSequence.Ignored.class, s.roleChanged(ok("bmh", Role.BACKUP, 0)));
    assertInstanceOf(BootSequence.Ignored.class, s.start(), "started once");
    assertEquals(Step.DEVICES_TO_VS2, s.step());
    s.fail("chip gone");
    assertInstanceOf(BootSequence.Ignored.class, s.fail("again"), "failed once");
    assertEquals("in step DEVICES_TO_VS2: chip gone", s.failure());
  }

  @Test
  void shouldRejectAnEmptyPlanOrNoDevicesWhenCreated() {
    assertTrue(assertThrows(IllegalArgumentException.class, () -> new BootSequence(List.of(), 3)).getMessage()
        .startsWith("devicePorts=[]"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> new BootSequence(DEVICES, 0)).getMessage()
        .startsWith("operations=0"));
  }

  private static BootSequence bootedUpToPairing() {
    BootSequence s = new BootSequence(DEVICES, 1);
    s.start();
    RoutingTable inVs2 = moved(TOR, DEVICES, 2);
    s.devicesMoved(inVs2);
    s.operationAnswered(accepted(1));
    s.roleChanged(ok("bmh", Role.BACKUP, 1));
    s.devicesMoved(moved(inVs2, DEVICES, 1));
    s.operationAnswered(accepted(1));
    assertEquals(Step.PAIRING, s.step());
    return s;
  }

  @Test
  void shouldKeepEveryOtherRegisterWhenPortsMoveToVs2AndBack() {
    RoutingTable inVs2 = moved(TOR, DEVICES, 2);
    for (PortConfig p : TOR.ports()) {
      PortConfig q = inVs2.port(p.number());
      assertEquals(p.bridge(), q.bridge(), p.name());
      assertEquals(p.ntb(), q.ntb(), p.name());
      assertEquals(p.role(), q.role(), p.name());
    }
    assertEquals(TOR, moved(inVs2, DEVICES, 1));
  }
}
