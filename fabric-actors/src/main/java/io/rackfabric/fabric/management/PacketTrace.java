package io.rackfabric.fabric.management;

import io.rackfabric.fabric.management.BaselineCapability.GeneralInfo;
import io.rackfabric.fabric.management.BaselineCapability.PortPointer;
import io.rackfabric.fabric.management.PortRecord.PortInfo;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Management packets as lines of text in the order they travel, a completion decoded by what its
 * request read, as AS-FM Fig. 9 prints the reading of switch 12: the general information, the
 * pointers, each port's width, speed and states. It remembers each request until its completion.
 */
public final class PacketTrace {

  private final Map<List<Object>, Pi4ReadRequest> open = new HashMap<>();

  /** The line for {@code packet}. */
  public String line(ManagementPacket packet) {
    if (packet instanceof Pi4ReadRequest r) {
      open.put(key(r.route(), r.transaction()), r);
      return String.format("-> %-12s txn %-5d read aperture %d offset %Xh, %d registers (%d bytes)%s",
          r.route(), r.transaction(), r.aperture(), r.offset(), r.dwords(), r.sizeBytes(), what(r));
    }
    if (packet instanceof Pi4ReadCompletion c) {
      Pi4ReadRequest r = open.remove(key(c.route(), c.transaction()));
      String body = !c.result().ok() ? "error: " + c.result().error() : decode(r, c.result().data());
      return String.format("<- %-12s txn %-5d %s (%d bytes)", c.route(), c.transaction(), body, c.sizeBytes());
    }
    return packet.kind().label() + " " + packet.route() + " (" + packet.sizeBytes() + " bytes)";
  }

  private static List<Object> key(Route route, int transaction) {
    return List.of(route, transaction);
  }

  private static String what(Pi4ReadRequest r) {
    if (r.offset() == BaselineCapability.OFFSET) {
      return ": general information";
    }
    long pointers = r.offset() - BaselineCapability.POINTERS_OFFSET;
    if (pointers >= 0 && r.offset() < SpanningTreeCapability.OFFSET
        && pointers % (4L * BaselineCapability.POINTERS_PER_BLOCK) == 0) {
      return ": pointer block " + (1 + pointers / (4L * BaselineCapability.POINTERS_PER_BLOCK));
    }
    long record = r.offset() - BaselineCapability.PORT_RECORDS;
    if (record >= 0 && record % BaselineCapability.PORT_RECORD_STRIDE == 0) {
      return ": port " + record / BaselineCapability.PORT_RECORD_STRIDE + " information";
    }
    return "";
  }

  /** The registers decoded as what the request read, or in hex when it was none of those. */
  private static String decode(Pi4ReadRequest r, int[] data) {
    String what = r == null ? "" : what(r);
    try {
      if (what.equals(": general information") && data.length == BaselineCapability.GENERAL_DWORDS) {
        GeneralInfo g = GeneralInfo.decode(data);
        return String.format("type %s, serial %016X, %d ports, %d turn bits, max packet size %d, port number %s",
            g.type(), g.serial(), g.portCount(), g.turnBits(), g.maxPayload(),
            g.ingressPort() < 0 ? "-" : String.valueOf(g.ingressPort()));
      }
      if (what.startsWith(": pointer block")) {
        List<String> pointers = new ArrayList<>();
        for (int word : data) {
          PortPointer p = PortPointer.decode(word);
          pointers.add(p == null ? "-" : String.format("%Xh AP %d", p.offset(), p.aperture()));
        }
        return "pointers " + String.join(", ", pointers);
      }
      if (what.endsWith(" information") && data.length == PortRecord.DWORDS) {
        PortInfo p = PortInfo.decode(data);
        return String.format("%s, virtual switch %d, width x%d, speed gen%d, link state %s, peer link state %s",
            p.kind(), p.virtualSwitch(), p.width(), p.speed(), p.state(), p.peerState());
      }
    } catch (IllegalArgumentException e) {
      return "undecodable: " + e.getMessage();
    }
    List<String> hex = new ArrayList<>();
    for (int word : data) {
      hex.add(String.format("%08X", word));
    }
    return "data " + String.join(" ", hex);
  }
}
