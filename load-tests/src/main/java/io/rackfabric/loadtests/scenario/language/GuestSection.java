package io.rackfabric.loadtests.scenario.language;

import io.rackfabric.cluster.lending.LoanPlanException;
import io.rackfabric.cluster.lending.LoanPlanner;
import io.rackfabric.cluster.lending.PassThroughDevice;
import io.rackfabric.cluster.lending.VmPassThrough.GuestMapping;
import io.rackfabric.cluster.topology.Fields;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.fabric.address.Addresses;
import io.rackfabric.loadtests.scenario.language.LoanStep.Kind;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the guests of a scenario's VMs do to their passed-through devices, and the loans that
 * follows: {@code vms = [ { ..., guest = [ { at, action = command | hot-remove | shutdown, device,
 * value, expect } ] } ]} (Device Lending, section 5). The VM's host traps each action as a
 * hypervisor would and drives the device's life ({@link PassThroughDevice}): the first command
 * write with Bus Master Enable set borrows a remote device through the controller and maps the
 * guest's whole memory (pinned) into the loan; a hot-remove, or the guest's shut-down, returns it.
 * A command write without Bus Master Enable, a second enable, or the removal of a device never
 * enabled asks the controller nothing. A device of the VM's own host is no loan (VFIO): its actions
 * ask nothing either. The steps go to the controller at the action's model time, as {@code loans}
 * steps do; the guest does not wait for the answer, so a refused borrow leaves the device attached
 * on the controller's side while the hypervisor's life of it goes on (the refusals are in the
 * result, against each action's {@code expect}).
 */
final class GuestSection {

  static final String KEY = "guest";

  /** The largest value a 16-bit command register holds. */
  private static final long COMMAND_MAX = 0xFFFF;

  enum Action { COMMAND, HOT_REMOVE, SHUTDOWN }

  private final ScenarioFile file;

  GuestSection(ScenarioFile file) {
    this.file = file;
  }

  /** The controller's steps the guests' actions cause, each VM's in the order of its actions. */
  List<LoanStep> steps(Fields f, TopologyRef ref, Map<String, VmsSection.Vm> vms, RunLength length) {
    List<LoanStep> out = new ArrayList<>();
    List<Fields> items = f.objects(VmsSection.KEY, false);
    for (int i = 0; i < items.size(); i++) {
      Fields item = items.get(i);
      List<Fields> actions = item.has(KEY) ? item.objects(KEY, false) : List.of();
      VmsSection.Vm vm = vms.get(item.string("name", false));
      if (actions.isEmpty() || vm == null || ref == null) {
        continue;
      }
      Topology topology = ref.topology();
      if (topology.controlPlane() == null) {
        item.error(KEY, "topology " + topology.name() + " has no control-plane section: a guest's Bus Master"
            + " Enable borrows its device through the management hosts' controller (bundled with one: ladon-lending)");
        continue;
      }
      if (actions.size() > LoanStep.MAX_STEPS) {
        item.error(KEY, actions.size() + " actions; at most " + LoanStep.MAX_STEPS);
        continue;
      }
      boolean remote = vm.devices().values().stream().anyMatch(GuestMapping::remote);
      if (remote && !topology.computeHostIds().contains(vm.guest().host())) {
        item.error("host", "vm=" + vm.guest().name() + ": host=" + vm.guest().host() + " is not a compute host,"
            + " whose control-plane driver would borrow for it: " + topology.computeHostIds());
        continue;
      }
      out.addAll(vmSteps(vm, actions, new LoanPlanner(topology), length));
    }
    return out;
  }

  private List<LoanStep> vmSteps(VmsSection.Vm vm, List<Fields> actions, LoanPlanner planner, RunLength length) {
    Map<String, PassThroughDevice> devices = new LinkedHashMap<>();
    vm.devices().forEach((id, mapping) -> devices.put(id, new PassThroughDevice(mapping)));
    List<LoanStep> out = new ArrayList<>();
    long last = -1;
    boolean shutDown = false;
    for (Fields a : actions) {
      a.allowOnly("at", "action", "device", "value", "expect");
      int before = file.problems.size();
      Long at = a.durationNs("at", null);
      if (at == null && !a.has("at")) {
        a.error("at", "missing (required): the model time after the run's start the guest acts at");
      } else if (at != null && length != null && at >= length.modelEndNs()) {
        a.error("at", "at=" + Durations.text(at) + " is not before the run's end at "
            + Durations.text(length.modelEndNs()));
      } else if (at != null && at < last) {
        a.error("at", "at=" + Durations.text(at) + " comes before the VM's previous action at " + Durations.text(last)
            + ": list a guest's actions in the order of their times");
      }
      Action action = action(a);
      String expect = a.string("expect", false);
      if (expect != null && !expect.equals("accepted") && !expect.equals("rejected")) {
        a.error("expect", "expect=" + expect + " not in {accepted, rejected}");
      }
      if (shutDown) {
        a.error("action", "vm=" + vm.guest().name() + " was shut down by an earlier action: it does nothing after");
      }
      if (action == null || file.problems.size() != before) {
        continue;
      }
      last = at;
      String where = file.where(a);
      boolean accepted = !"rejected".equals(expect);
      String vmName = "vm " + vm.guest().name();
      switch (action) {
        case COMMAND -> {
          String id = device(a, vm);
          Long value = a.address("value", true);
          if (id == null || value == null) {
            continue;
          }
          if (value > COMMAND_MAX) {
            a.error("value", "value=" + Addresses.hex(value) + " is wider than the 16-bit command register");
            continue;
          }
          PassThroughDevice device = devices.get(id);
          if (device.state() == PassThroughDevice.State.RETURNED) {
            a.error("device", "device=" + id + " was returned by vm=" + vm.guest().name()
                + " (hot-removed): the guest cannot write its command register after");
            continue;
          }
          if (device.commandWritten(value.intValue()).isPresent() && vm.devices().get(id).remote()) {
            String cause = vmName + ": command=" + Addresses.hex(value) + " sets Bus Master Enable";
            LoanPlanner.DmaWindow w;
            try {
              w = planner.plan(id, vm.guest().host()).window();
            } catch (LoanPlanException e) {
              a.error("device", "the topology cannot carry this loan: " + e.getMessage());
              continue;
            }
            out.add(new LoanStep(0, Kind.BORROW, id, vm.guest().host(), at, w.deviceSide(), w.size(),
                w.borrowerSide(), 0, 0, accepted, where, cause));
            // The guest's memory, pinned and mapped in the loan's window at once (its IOMMU map).
            out.add(new LoanStep(0, Kind.MAP, id, vm.guest().host(), at, 0, 0, 0, vm.guest().base(),
                vm.guest().memory(), accepted, where, cause + ": its memory pinned"));
          }
        }
        case HOT_REMOVE -> {
          a.forbid("a hot-remove writes no value", "value");
          String id = device(a, vm);
          if (id == null) {
            continue;
          }
          if (devices.get(id).state() == PassThroughDevice.State.RETURNED) {
            a.error("device", "device=" + id + " was already hot-removed from vm=" + vm.guest().name());
            continue;
          }
          released(out, vm, id, devices.get(id), at, accepted, where, vmName + ": hot-remove");
        }
        case SHUTDOWN -> {
          a.forbid("a shut-down is of the whole VM", "device", "value");
          shutDown = true;
          for (var d : devices.entrySet()) {
            if (d.getValue().state() != PassThroughDevice.State.RETURNED) {
              released(out, vm, d.getKey(), d.getValue(), at, accepted, where, vmName + ": shut down");
            }
          }
        }
        default -> throw new IllegalStateException("action " + action);
      }
    }
    return out;
  }

  /** The device leaves the VM: a return when it was borrowed for it (from another host). */
  private static void released(List<LoanStep> out, VmsSection.Vm vm, String id, PassThroughDevice device, long at,
      boolean accepted, String where, String cause) {
    if (device.released() && vm.devices().get(id).remote()) {
      out.add(new LoanStep(0, Kind.RETURN, id, vm.guest().host(), at, 0, 0, 0, 0, 0, accepted, where, cause));
    }
  }

  private static String device(Fields a, VmsSection.Vm vm) {
    String id = a.string("device", true);
    if (id != null && !vm.devices().containsKey(id)) {
      a.error("device", "device=" + id + " is not passed through to vm=" + vm.guest().name() + " (devices: "
          + String.join(", ", vm.devices().keySet()) + ")");
      return null;
    }
    return id;
  }

  private static Action action(Fields a) {
    String text = a.string("action", true);
    if (text == null) {
      return null;
    }
    return switch (text) {
      case "command" -> Action.COMMAND;
      case "hot-remove" -> Action.HOT_REMOVE;
      case "shutdown" -> Action.SHUTDOWN;
      default -> {
        a.error("action", "action=" + text + " not in {command, hot-remove, shutdown}");
        yield null;
      }
    };
  }
}
