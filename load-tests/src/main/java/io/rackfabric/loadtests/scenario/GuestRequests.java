package io.rackfabric.loadtests.scenario;

import io.rackfabric.host.controlplane.ControlPlaneClient;
import io.rackfabric.host.vm.Hypervisor;
import io.rackfabric.loadtests.scenario.api.LoanStepResult;
import io.rackfabric.loadtests.scenario.language.GuestPlan;
import io.rackfabric.loadtests.scenario.language.LoanStep;
import io.rackfabric.loadtests.scenario.language.LoanStep.Kind;
import io.rackfabric.persistence.controller.Controller;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * What a VM's hypervisor asked the controller, as steps of the scenario's {@code loans} results:
 * each request it sent is a step (its cause the guest's action), expected as the action's {@code
 * expect} says; a mapping not sent because its borrow was refused is no step, and the refused
 * borrow's detail says what the guest saw (Bus Master Enable read back as 0, nothing mapped).
 * Plain, no actor.
 */
final class GuestRequests {

  private GuestRequests() {}

  /** The hypervisor's requests of {@code guests}' VM as step results; {@code startAt} is the run's start. */
  static List<LoanStepResult> results(GuestPlan guests, long startAt, Hypervisor.Record record) {
    List<LoanStepResult> out = new ArrayList<>();
    for (Hypervisor.Asked a : record.asked()) {
      Controller.OperationResult r = a.result();
      if (r != null && r.detail() != null && r.detail().startsWith(ControlPlaneClient.NOT_SENT)) {
        continue;
      }
      LoanStep step = step(guests, startAt, a);
      String detail = r == null ? "not answered within the run's wall limit" : r.detail() == null ? "" : r.detail();
      if (r != null && !r.accepted() && a.operation() instanceof Controller.BorrowDevice) {
        detail += "; " + seen(record, a.action()) + ": its memory neither pinned nor mapped";
      }
      out.add(new LoanStepResult(step, a.operation().at(), r == null ? null : r.status(), r == null ? -1 : r.at(),
          detail, r == null ? List.of() : r.events().stream().map(Object::toString).toList()));
    }
    return out;
  }

  private static String seen(Hypervisor.Record record, int action) {
    return record.seen().stream().filter(s -> s.action() == action).findFirst()
        .map(s -> "vm " + record.vm() + " reads command=0x" + Integer.toHexString(s.readBack())
            + " back (Bus Master Enable clear)")
        .orElse("vm " + record.vm() + "'s enable failed");
  }

  private static LoanStep step(GuestPlan guests, long startAt, Hypervisor.Asked a) {
    String host = guests.plan().host();
    boolean expect = guests.expectAccepted().get(a.action());
    String where = guests.where().get(a.action());
    long at = a.operation().at() - startAt;
    if (a.operation() instanceof Controller.BorrowDevice b) {
      return new LoanStep(0, Kind.BORROW, b.device(), host, at, b.windowBase(), b.windowSize(), b.windowTarget(), 0,
          0, expect, where, a.cause());
    }
    if (a.operation() instanceof Controller.MapDmaBuffer m) {
      return new LoanStep(0, Kind.MAP, m.device(), host, at, 0, 0, 0, m.bufferAddress(), m.size(), expect, where,
          a.cause());
    }
    if (a.operation() instanceof Controller.ReturnDevice d) {
      return new LoanStep(0, Kind.RETURN, d.device(), host, at, 0, 0, 0, 0, 0, expect, where, a.cause());
    }
    throw new IllegalArgumentException("a hypervisor asks no " + a.operation().getClass().getSimpleName());
  }

  /**
   * The results in the order of their model times (the listed steps' before the guests' of the same
   * time: a stable sort of a list that holds them first), numbered again from 0.
   */
  static List<LoanStepResult> inOrder(List<LoanStepResult> results) {
    List<LoanStepResult> sorted = new ArrayList<>(results);
    sorted.sort(Comparator.comparingLong(LoanStepResult::issuedAt));
    List<LoanStepResult> out = new ArrayList<>(sorted.size());
    for (LoanStepResult r : sorted) {
      LoanStep s = r.step();
      LoanStep numbered = new LoanStep(out.size(), s.kind(), s.device(), s.host(), s.atNs(), s.windowBase(),
          s.windowSize(), s.windowTarget(), s.msi(), s.buffer(), s.size(), s.expectAccepted(), s.where(), s.cause());
      out.add(new LoanStepResult(numbered, r.issuedAt(), r.status(), r.answeredAt(), r.detail(), r.events()));
    }
    return out;
  }
}
