package io.rackfabric.host.enumeration;

import io.rackfabric.fabric.routing.BridgeRegisters;
import io.rackfabric.fabric.tlp.Bdf;
import java.util.ArrayList;
import java.util.List;

/**
 * One function found by enumeration, with what was programmed into it.
 *
 * @param location device.function of each function from the root's bus down to this one, e.g.
 *     {@code 00.0/03.0/00.0/01.0}; stable while bus numbers change
 * @param bridge a bridge's bus numbers and windows (null windows: disabled); null for endpoints.
 *     A bridge enumeration could not number (no bus left) is left as found, and shows so
 * @param children the functions on a bridge's secondary bus, in device order
 * @param slotGroup the slot group this function sits in as a slot, or null
 * @param slot its slot number in that group, 0 when none
 */
public record FunctionNode(
    int bdf,
    String location,
    FunctionKind kind,
    int vendor,
    int device,
    int classCode,
    List<Bar> bars,
    BridgeRegisters bridge,
    List<FunctionNode> children,
    String slotGroup,
    int slot) {

  public FunctionNode {
    bars = List.copyOf(bars);
    children = List.copyOf(children);
  }

  public String id() {
    return Bdf.format(bdf);
  }

  /** This function and every function below it, depth first. */
  public List<FunctionNode> subtree() {
    List<FunctionNode> out = new ArrayList<>();
    collect(this, out);
    return out;
  }

  private static void collect(FunctionNode n, List<FunctionNode> out) {
    out.add(n);
    n.children.forEach(c -> collect(c, out));
  }

  public FunctionNode withChildren(List<FunctionNode> newChildren) {
    return new FunctionNode(bdf, location, kind, vendor, device, classCode, bars, bridge, newChildren, slotGroup, slot);
  }
}
