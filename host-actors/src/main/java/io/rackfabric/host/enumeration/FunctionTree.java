package io.rackfabric.host.enumeration;

import io.rackfabric.fabric.routing.BridgeRegisters;
import java.util.ArrayList;
import java.util.List;

/**
 * The result's tree of {@link FunctionNode}s: made from the working {@link ProbedFunction}s, and
 * with one slot's subtree replaced after a rescan (the nodes are immutable, so the path to it is
 * copied).
 */
final class FunctionTree {

  private FunctionTree() {}

  static FunctionNode toNode(ProbedFunction f) {
    List<Bar> bars = f.bars.stream().map(b -> new Bar(b.index, b.size, b.is64, b.pref, b.base)).toList();
    BridgeRegisters bridge = null;
    if (f.kind.bridge()) {
      int sec = (f.foundBuses >>> 8) & 0xFF;
      bridge = f.skipped
          ? new BridgeRegisters(f.foundBuses & 0xFF, sec, Math.max(sec, (f.foundBuses >>> 16) & 0xFF), null, null)
          : new BridgeRegisters(f.bus(), f.secondary, Math.max(f.secondary, f.subordinate), f.memWindow, f.prefWindow);
    }
    return new FunctionNode(f.bdf(), f.location, f.kind, f.vendor, f.deviceId, f.classCode, bars, bridge,
        f.children.stream().map(FunctionTree::toNode).toList(),
        f.inGroup == null ? null : f.inGroup.name(), f.slot == null ? 0 : f.slot.slot());
  }

  /** The tree with the child at {@code childLocation} of the node at {@code parent} replaced. */
  static List<FunctionNode> replaceChild(List<FunctionNode> nodes, String parent, String childLocation,
      FunctionNode replacement) {
    if (parent.isEmpty()) {
      return spliced(nodes, childLocation, replacement);
    }
    List<FunctionNode> out = new ArrayList<>();
    for (FunctionNode n : nodes) {
      if (n.location().equals(parent)) {
        out.add(n.withChildren(spliced(n.children(), childLocation, replacement)));
      } else if (parent.startsWith(n.location() + "/")) {
        out.add(n.withChildren(replaceChild(n.children(), parent, childLocation, replacement)));
      } else {
        out.add(n);
      }
    }
    return out;
  }

  private static List<FunctionNode> spliced(List<FunctionNode> siblings, String location, FunctionNode replacement) {
    List<FunctionNode> out = new ArrayList<>();
    boolean placed = false;
    for (FunctionNode s : siblings) {
      if (s.location().equals(location)) {
        if (replacement != null) {
          out.add(replacement);
        }
        placed = true;
      } else {
        if (!placed && replacement != null && s.location().compareTo(location) > 0) {
          out.add(replacement);
          placed = true;
        }
        out.add(s);
      }
    }
    if (!placed && replacement != null) {
      out.add(replacement);
    }
    return out;
  }
}
