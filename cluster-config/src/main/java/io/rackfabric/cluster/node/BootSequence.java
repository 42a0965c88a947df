package io.rackfabric.cluster.node;

import io.rackfabric.cluster.topology.ControlPlaneSpec;
import io.rackfabric.cluster.topology.SwitchSpec;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.fabric.routing.PortConfig;
import io.rackfabric.fabric.routing.RoutingTable;
import io.rackfabric.host.controlplane.ControlPlaneHost.RoleChanged;
import io.rackfabric.persistence.controller.Controller.OperationResult;
import java.util.ArrayList;
import java.util.List;

/**
 * The boot of the management-host pair in the order of Figure 4 (Ladon section 4.3.2), as a plain
 * state machine: the devices move to VS2 and the backup enumerates them and takes its template
 * image, then stands by as backup; the devices move back to VS1 and the master enumerates the same
 * devices, takes its own template image and pairs with the backup. Each answer it is given returns
 * the one thing to do next, so the order cannot be broken by the actor that carries it out.
 * A refused step ends the boot as FAILED, naming the step and the reason.
 */
public final class BootSequence {

  /** Where the boot is, in Figure 4's order (FAILED may follow any step before BOOTED). */
  public enum Step {
    /** Waiting for both hosts and the fencing chip to register. */
    FINDING,
    /** Every VS1 port but the master's is moving to VS2, the backup's virtual switch. */
    DEVICES_TO_VS2,
    /** The backup enumerates the devices (the boot plan, one operation at a time). */
    BACKUP_ENUMERATING,
    /** The backup's booted controller stops and a replica takes over its journal. */
    BACKUP_STANDING_BY,
    /** The same ports move back to VS1, the master's virtual switch. */
    DEVICES_TO_VS1,
    /** The master enumerates the same devices with the same plan. */
    MASTER_ENUMERATING,
    /** The master shows the backup its booted state; both must be equal. */
    PAIRING,
    BOOTED,
    FAILED
  }

  /** Which management host a boot operation goes to. */
  public enum Host { BACKUP, MASTER }

  /** What to do next. */
  public sealed interface Action {}

  /** Reassign {@code ports} of the fencing chip to {@code virtualSwitch}. */
  public record MoveDevices(List<Integer> ports, int virtualSwitch) implements Action {

    public MoveDevices {
      ports = List.copyOf(ports);
    }
  }

  /** Submit boot operation number {@code operation} (from 0) to {@code host}. */
  public record Submit(Host host, int operation) implements Action {}

  /** BecomeBackup to the backup. */
  public record StandBy() implements Action {}

  /** BecomeMaster(backup) to the master. */
  public record Pair() implements Action {}

  /** The boot ended: booted, or failed for {@code detail}. */
  public record Finished(boolean booted, String detail) implements Action {}

  /** An answer that does not belong to the current step (a late reply): nothing to do. */
  public record Ignored(String why) implements Action {}

  private final List<Integer> devicePorts;
  private final int operations;
  private final List<Step> passed = new ArrayList<>();
  private Step step = Step.FINDING;
  private int next;
  private String failure = "";
  private RoutingTable devicesInVs2;
  private RoutingTable devicesBackInVs1;
  private long backupTemplateSeqNr = -1;
  private long masterTemplateSeqNr = -1;

  /**
   * @param devicePorts the fencing chip's ports the backup boots with: every VS1 port but the
   *     master's
   * @param operations the boot plan's length (the template image last)
   */
  public BootSequence(List<Integer> devicePorts, int operations) {
    if (devicePorts.isEmpty()) {
      throw new IllegalArgumentException("devicePorts=" + devicePorts + " is empty: nothing for the backup to enumerate");
    }
    if (operations < 1) {
      throw new IllegalArgumentException("operations=" + operations + " must be at least 1 (the template image)");
    }
    this.devicePorts = List.copyOf(devicePorts);
    this.operations = operations;
    passed.add(step);
  }

  /**
   * The ports of {@code topology}'s fencing chip that sit in VS1 but are not the master's: the
   * devices of Figure 4. The backup's own port is in VS2 from the start and stays there.
   */
  public static List<Integer> devicePorts(Topology topology) {
    ControlPlaneSpec pair = topology.controlPlane();
    if (pair == null) {
      throw new IllegalArgumentException("topology " + topology.name() + " has no control-plane section");
    }
    SwitchSpec chip = topology.switchSpec(pair.fencingSwitch()).orElseThrow(() -> new IllegalArgumentException(
        "fencingSwitch=" + pair.fencingSwitch() + " is not a switch of topology " + topology.name()));
    List<Integer> ports = new ArrayList<>();
    for (PortConfig p : chip.ports()) {
      if (p.virtualSwitch() == 1 && !p.name().equals(pair.masterPort())) {
        ports.add(p.number());
      }
    }
    return ports;
  }

  /** Both hosts and the chip are known: the devices go to the backup first. */
  public Action start() {
    if (step != Step.FINDING) {
      return new Ignored("start in step " + step);
    }
    enter(Step.DEVICES_TO_VS2);
    return new MoveDevices(devicePorts, 2);
  }

  /** The chip's table after a reassignment: every device port must be where it was sent. */
  public Action devicesMoved(RoutingTable table) {
    if (step != Step.DEVICES_TO_VS2 && step != Step.DEVICES_TO_VS1) {
      return new Ignored("a routing table in step " + step);
    }
    int vs = step == Step.DEVICES_TO_VS2 ? 2 : 1;
    for (int n : devicePorts) {
      PortConfig p = table.port(n);
      if (p == null || p.virtualSwitch() != vs) {
        return fail("port " + n + (p == null ? " is missing" : " (" + p.name() + ") is in VS" + p.virtualSwitch())
            + " after the move to VS" + vs);
      }
    }
    if (vs == 2) {
      devicesInVs2 = table;
      enter(Step.BACKUP_ENUMERATING);
      next = 0;
      return new Submit(Host.BACKUP, next);
    }
    devicesBackInVs1 = table;
    enter(Step.MASTER_ENUMERATING);
    next = 0;
    return new Submit(Host.MASTER, next);
  }

  /** The answer to the boot operation last submitted. */
  public Action operationAnswered(OperationResult result) {
    if (step != Step.BACKUP_ENUMERATING && step != Step.MASTER_ENUMERATING) {
      return new Ignored("an operation's answer in step " + step);
    }
    Host host = step == Step.BACKUP_ENUMERATING ? Host.BACKUP : Host.MASTER;
    if (!result.accepted()) {
      return fail(host + " boot step " + (next + 1) + " of " + operations + " refused: " + result.status() + " "
          + result.detail());
    }
    if (++next < operations) {
      return new Submit(host, next);
    }
    if (host == Host.BACKUP) {
      backupTemplateSeqNr = result.seqNr();
      enter(Step.BACKUP_STANDING_BY);
      return new StandBy();
    }
    masterTemplateSeqNr = result.seqNr();
    enter(Step.PAIRING);
    return new Pair();
  }

  /** The answer to BecomeBackup or BecomeMaster. */
  public Action roleChanged(RoleChanged changed) {
    if (step != Step.BACKUP_STANDING_BY && step != Step.PAIRING) {
      return new Ignored("a role change in step " + step);
    }
    if (!changed.ok()) {
      return fail(changed.host() + " did not become " + (step == Step.PAIRING ? "master" : "backup") + ": "
          + changed.detail());
    }
    if (step == Step.BACKUP_STANDING_BY) {
      enter(Step.DEVICES_TO_VS1);
      return new MoveDevices(devicePorts, 1);
    }
    enter(Step.BOOTED);
    return new Finished(true, changed.host() + " is master at lastSeqNr=" + changed.lastSeqNr() + ", paired");
  }

  /** A step could not be carried out (no answer, a chip that cannot be asked). */
  public Action fail(String reason) {
    if (step == Step.BOOTED || step == Step.FAILED) {
      return new Ignored("a failure in step " + step + ": " + reason);
    }
    failure = "in step " + step + ": " + reason;
    enter(Step.FAILED);
    return new Finished(false, failure);
  }

  private void enter(Step s) {
    step = s;
    passed.add(s);
  }

  public Step step() {
    return step;
  }

  /** The steps entered so far, in order, FINDING first. */
  public List<Step> passed() {
    return List.copyOf(passed);
  }

  public boolean ended() {
    return step == Step.BOOTED || step == Step.FAILED;
  }

  /** Why the boot failed, else empty. */
  public String failure() {
    return failure;
  }

  public List<Integer> devicePortList() {
    return devicePorts;
  }

  /** The chip's answer to the move to VS2, or null before it. */
  public RoutingTable devicesInVs2() {
    return devicesInVs2;
  }

  /** The chip's answer to the move back to VS1, or null before it. */
  public RoutingTable devicesBackInVs1() {
    return devicesBackInVs1;
  }

  /** The sequence number of the backup's template image, or -1 before it. */
  public long backupTemplateSeqNr() {
    return backupTemplateSeqNr;
  }

  public long masterTemplateSeqNr() {
    return masterTemplateSeqNr;
  }
}
