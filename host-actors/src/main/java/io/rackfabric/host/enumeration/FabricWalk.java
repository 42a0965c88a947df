package io.rackfabric.host.enumeration;

import io.rackfabric.fabric.config.ConfigSpace;
import io.rackfabric.fabric.tlp.Bdf;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * Discovery, depth first, and bus numbers: reads each function's IDs, class and header type, has
 * its BARs sized ({@link BarSizing}), numbers the bridges. A bus below the root or a downstream
 * port is a link and holds device 0 only; a bus below an upstream port is a switch's internal bus,
 * scanned for devices 0-31. Each bridge is opened (subordinate 255) while its subtree is scanned
 * and closed at the last bus used; a bridge in a slot gets the slot's reserved range instead
 * ({@link SlotReservations}).
 */
final class FabricWalk {

  private static final int MAX_BUS = 255;

  private final ConfigRequests requests;
  private final RegisterProgramming programming;
  private final SlotReservations slots;
  private final BarSizing sizing;
  private final Deque<BusScope> scopes = new ArrayDeque<>();
  private final ProbedFunction rootBus = ProbedFunction.rootBus();

  FabricWalk(ConfigRequests requests, RegisterProgramming programming, SlotReservations slots) {
    this.requests = requests;
    this.programming = programming;
    this.slots = slots;
    this.sizing = new BarSizing(requests);
    this.scopes.push(new BusScope(1, MAX_BUS));
  }

  /** The root complex's bus: what the walk found is its children. */
  ProbedFunction rootBus() {
    return rootBus;
  }

  /** Numbers buses from {@code first} to {@code last} only, until {@link #leaveScope()}. */
  void enterScope(int first, int last) {
    scopes.push(new BusScope(first, last));
  }

  void leaveScope() {
    scopes.pop();
  }

  /** Probes the bridge's secondary bus (devices 0-31 if internal, else device 0), then numbers its bridges. */
  void scanBus(ProbedFunction bridge, boolean internal) {
    List<Runnable> steps = new ArrayList<>();
    for (int d = 0; d < (internal ? 32 : 1); d++) {
      int device = d;
      steps.add(() -> probe(bridge, device, 0, internal));
    }
    steps.add(() -> afterScan(bridge));
    requests.then(steps);
  }

  /** Reads the IDs at one device and function; a function that answers is read in full. */
  void probe(ProbedFunction parent, int device, int function, boolean internalBus) {
    int bdf = Bdf.of(parent.secondary, device, function);
    requests.issue(ConfigRequests.op(bdf, ConfigSpace.REG_ID, null), a -> {
      int vendor = a.value() & 0xFFFF;
      if (!a.successful() || vendor == 0xFFFF || vendor == 0) {
        return; // nothing there (Unsupported Request, or no completion at all)
      }
      ProbedFunction f = new ProbedFunction(parent, device, function);
      f.vendor = vendor;
      f.deviceId = a.value() >>> 16;
      parent.children.add(f);
      requests.then(requests.read(f, ConfigSpace.REG_CLASS, v -> f.classCode = v >>> 8),
          requests.read(f, ConfigSpace.REG_HEADER, v -> identified(f, (v >>> 16) & 0xFF, internalBus)));
    });
  }

  private void identified(ProbedFunction f, int header, boolean internalBus) {
    List<Runnable> steps = new ArrayList<>();
    int type = header & 0x7F;
    if (type == 1) {
      f.kind = internalBus ? FunctionKind.DOWNSTREAM_PORT : FunctionKind.UPSTREAM_PORT;
      steps.add(requests.read(f, ConfigSpace.REG_BUSES, v -> f.foundBuses = v)); // reported if it stays unscanned
      steps.add(sizing.sizeBar(f, 0, 2));
    } else {
      if (type != 0) {
        requests.problem(f, "header type " + type + " is neither 0 nor 1; treated as an endpoint");
      }
      boolean ntb = f.vendor == ConfigSpace.VENDOR_PLX && f.deviceId == ConfigSpace.DEVICE_NTB;
      f.kind = ntb ? FunctionKind.NTB_ENDPOINT : FunctionKind.ENDPOINT;
      steps.add(sizing.sizeBar(f, 0, 6));
    }
    if ((header & 0x80) != 0 && f.function == 0) {
      for (int fn = 1; fn < 8; fn++) {
        int function = fn;
        steps.add(() -> probe(f.parent, f.device, function, internalBus));
      }
    }
    requests.then(steps);
  }

  /** All functions on the bridge's secondary bus are known: reserve slots, then number bridges. */
  private void afterScan(ProbedFunction bridge) {
    slots.reserveBelow(bridge, scopes.peek());
    List<Runnable> steps = new ArrayList<>();
    for (ProbedFunction child : bridge.children) {
      if (child.kind.bridge()) {
        steps.add(() -> openBridge(child));
      }
    }
    if (bridge != rootBus && !bridge.fixedBuses) {
      steps.add(() -> closeBridge(bridge));
    }
    requests.then(steps);
  }

  private void openBridge(ProbedFunction b) {
    int primary = b.bus();
    if (b.slot != null) {
      if (b.slotFirstBus < 0) {
        requests.problem(b, "bridge in slot " + b.slot.slot() + " of group " + b.inGroup.name()
            + ", which reserves no buses: not scanned");
        b.skipped = true;
        return;
      }
      b.secondary = b.slotFirstBus;
      b.subordinate = b.slotLastBus;
      b.fixedBuses = true;
      scopes.push(new BusScope(b.secondary + 1, b.subordinate));
      int value = buses(primary, b.secondary, b.subordinate);
      requests.then(programming.program(b, ConfigSpace.REG_BUSES, value, value),
          () -> scanBus(b, b.kind == FunctionKind.UPSTREAM_PORT),
          scopes::pop);
      return;
    }
    BusScope scope = scopes.peek();
    if (scope.next > scope.last) {
      requests.problem(b, "no bus number left (last " + scope.last + "): not scanned");
      b.skipped = true;
      return;
    }
    b.secondary = scope.next++;
    requests.then(requests.write(b, ConfigSpace.REG_BUSES, buses(primary, b.secondary, MAX_BUS)),
        () -> scanBus(b, b.kind == FunctionKind.UPSTREAM_PORT));
  }

  private void closeBridge(ProbedFunction b) {
    b.subordinate = scopes.peek().next - 1;
    int value = buses(b.bus(), b.secondary, b.subordinate);
    requests.then(programming.program(b, ConfigSpace.REG_BUSES, value, value));
  }

  static int buses(int primary, int secondary, int subordinate) {
    return primary | (secondary << 8) | (subordinate << 16);
  }
}
