package io.rackfabric.host.enumeration;

import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.tlp.Bdf;
import java.util.ArrayList;
import java.util.List;

/**
 * A function while enumeration works on it: what discovery read, the buses it was given, the
 * windows assigned below it. Mutable, and shared by the enumerator's steps; {@link FunctionTree}
 * turns it into the immutable {@link FunctionNode} of the result.
 */
final class ProbedFunction {

  final ProbedFunction parent;
  final int device;
  final int function;
  final String location;
  int vendor;
  int deviceId;
  int classCode;
  FunctionKind kind;
  final List<BarProbe> bars = new ArrayList<>();
  final List<ProbedFunction> children = new ArrayList<>();
  int secondary = -1;
  int subordinate = -1;
  int foundBuses;
  boolean fixedBuses;
  boolean skipped;
  SlotGroup groupBelow;
  SlotGroup inGroup;
  SlotGroup.Slot slot;
  int slotFirstBus;
  int slotLastBus;
  AddressRange memWindow;
  AddressRange prefWindow;

  ProbedFunction(ProbedFunction parent, int device, int function) {
    this.parent = parent;
    this.device = device;
    this.function = function;
    this.location = Enumerator.location(parent.location, device, function);
  }

  private ProbedFunction(String location, int secondary) {
    this.parent = null;
    this.device = 0;
    this.function = 0;
    this.location = location;
    this.secondary = secondary;
  }

  static ProbedFunction rootBus() {
    return new ProbedFunction("", 0);
  }

  /** Stands for the bridge above a slot group in a rescan: only its location and bus matter. */
  static ProbedFunction synthetic(String location, int secondary) {
    return new ProbedFunction(location, secondary);
  }

  int bus() {
    return parent.secondary;
  }

  int bdf() {
    return Bdf.of(bus(), device, function);
  }

  ProbedFunction child(int dev, int fn) {
    for (ProbedFunction c : children) {
      if (c.device == dev && c.function == fn) {
        return c;
      }
    }
    return null;
  }
}
