package io.rackfabric.loadtests.scenario.language;

import io.rackfabric.cluster.lending.LoanPlanException;
import io.rackfabric.cluster.lending.LoanPlanner;
import io.rackfabric.cluster.lending.VmPassThrough.GuestMapping;
import io.rackfabric.cluster.topology.Fields;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.fabric.address.Addresses;
import io.rackfabric.host.vm.Hypervisor;
import io.rackfabric.host.vm.Hypervisor.Action;
import io.rackfabric.host.vm.PassThroughDevice;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the guests of a scenario's VMs do to their passed-through devices, and the loans that
 * follows: {@code vms = [ { ..., guest = [ { at, action = command | hot-remove | shutdown, device,
 * value, expect } ] } ]} (Device Lending, section 5). The VM's host traps each action as a
 * hypervisor would and drives the device's life ({@link PassThroughDevice}): the first command
 * write with Bus Master Enable set borrows a remote device through the controller and maps the
 * guest's whole memory (pinned) into the loan; a hot-remove, or the guest's shut-down, returns it.
 * The hypervisor ({@link Hypervisor}) decides at run time, in model time, on the controller's
 * answers: a refused borrow maps nothing and leaves the device not enabled, and a later enable asks
 * again. This section only checks the actions and plans each remote device's DMA window (as {@code
 * rack lend} finds it); what is asked is in the run's result, against each action's {@code expect}.
 */
final class GuestSection {

  static final String KEY = "guest";

  /** The largest value a 16-bit command register holds. */
  private static final long COMMAND_MAX = 0xFFFF;

  private final ScenarioFile file;

  GuestSection(ScenarioFile file) {
    this.file = file;
  }

  /** Each VM's guest actions for its host's hypervisor, checked; VMs without actions are left out. */
  List<GuestPlan> plans(Fields f, TopologyRef ref, Map<String, VmsSection.Vm> vms, RunLength length) {
    List<GuestPlan> out = new ArrayList<>();
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
      GuestPlan plan = vmPlan(vm, actions, new LoanPlanner(topology), length);
      if (plan != null) {
        out.add(plan);
      }
    }
    return out;
  }

  private GuestPlan vmPlan(VmsSection.Vm vm, List<Fields> actions, LoanPlanner planner, RunLength length) {
    Map<String, Hypervisor.Device> devices = new LinkedHashMap<>();
    vm.devices().forEach((id, m) -> devices.put(id, new Hypervisor.Device(id, m.remote(), 0, 0, 0)));
    Set<String> removed = new HashSet<>();
    List<Hypervisor.GuestAction> out = new ArrayList<>();
    List<Boolean> expects = new ArrayList<>();
    List<String> wheres = new ArrayList<>();
    int problemsBefore = file.problems.size();
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
      String id = null;
      int value = 0;
      switch (action) {
        case COMMAND -> {
          id = device(a, vm);
          Long v = a.address("value", true);
          if (id == null || v == null) {
            continue;
          }
          if (v > COMMAND_MAX) {
            a.error("value", "value=" + Addresses.hex(v) + " is wider than the 16-bit command register");
            continue;
          }
          if (removed.contains(id)) {
            a.error("device", "device=" + id + " was returned by vm=" + vm.guest().name()
                + " (hot-removed): the guest cannot write its command register after");
            continue;
          }
          value = v.intValue();
          Hypervisor.Device d = devices.get(id);
          if ((value & PassThroughDevice.BUS_MASTER_ENABLE) != 0 && d.remote() && d.windowSize() == 0) {
            try {
              LoanPlanner.DmaWindow w = planner.plan(id, vm.guest().host()).window();
              devices.put(id, new Hypervisor.Device(id, true, w.deviceSide(), w.size(), w.borrowerSide()));
            } catch (LoanPlanException e) {
              a.error("device", "the topology cannot carry this loan: " + e.getMessage());
              continue;
            }
          }
        }
        case HOT_REMOVE -> {
          a.forbid("a hot-remove writes no value", "value");
          id = device(a, vm);
          if (id == null) {
            continue;
          }
          if (!removed.add(id)) {
            a.error("device", "device=" + id + " was already hot-removed from vm=" + vm.guest().name());
            continue;
          }
        }
        case SHUTDOWN -> {
          a.forbid("a shut-down is of the whole VM", "device", "value");
          shutDown = true;
        }
        default -> throw new IllegalStateException("action " + action);
      }
      out.add(new Hypervisor.GuestAction(at, action, id, value));
      expects.add(!"rejected".equals(expect));
      wheres.add(file.where(a));
    }
    if (file.problems.size() != problemsBefore || out.isEmpty()) {
      return null;
    }
    return new GuestPlan(new Hypervisor.Plan(vm.guest().name(), vm.guest().host(), vm.guest().base(),
        vm.guest().memory(), List.copyOf(devices.values()), out), expects, wheres);
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
