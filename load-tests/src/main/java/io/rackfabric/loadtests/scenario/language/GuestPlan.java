package io.rackfabric.loadtests.scenario.language;

import io.rackfabric.host.vm.Hypervisor;
import java.util.List;

/**
 * One VM's guest actions for its host's hypervisor ({@code vms[].guest}), checked: the plan with
 * model times after the run's start, and for each action what the scenario expects of the
 * controller's answers to the requests it causes and where it is written.
 *
 * @param plan the VM, its devices (with each remote one's DMA window) and the actions
 * @param expectAccepted per action: {@code expect = accepted} (the default) or {@code rejected}
 * @param where per action: {@code file:line}
 */
public record GuestPlan(Hypervisor.Plan plan, List<Boolean> expectAccepted, List<String> where) {

  public GuestPlan {
    expectAccepted = List.copyOf(expectAccepted);
    where = List.copyOf(where);
  }

  /** The plan with every action's time moved by {@code startAt}: model times of the run. */
  public Hypervisor.Plan at(long startAt) {
    Hypervisor.Plan p = plan;
    return new Hypervisor.Plan(p.vm(), p.host(), p.base(), p.memory(), p.devices(), p.actions().stream()
        .map(a -> new Hypervisor.GuestAction(startAt + a.at(), a.action(), a.device(), a.value())).toList());
  }

  /** Whether any action of the plan may ask the controller (a device of another host). */
  public boolean borrows() {
    return plan.devices().stream().anyMatch(Hypervisor.Device::remote);
  }
}
