package io.rackfabric.cluster.management;

import io.rackfabric.cluster.topology.EndpointSpec;
import io.rackfabric.fabric.link.DataLinkState;
import io.rackfabric.fabric.management.ManagementPacket;
import io.rackfabric.fabric.management.NtbWindows;
import io.rackfabric.fabric.management.PacketCounts;
import io.rackfabric.fabric.management.PacketKind;
import io.rackfabric.fabric.management.StructuralFabric;
import io.rackfabric.fabric.management.TopologyDatabase;
import io.rackfabric.fabric.text.TextTable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * One discovery of a topology from one endpoint, structural: the discovery walker's PI-4 reads are
 * answered by the topology's devices through {@link StructuralFabric}, not carried by the fabric's
 * actors, so there is no model time to report, only counts, bytes and the wall time it took.
 *
 * @param wallNanos wall time of the walk alone (not the topology's loading)
 * @param checkNanos wall time of the check against the topology file
 */
public record DiscoveryRun(TopologyFabric fabric, String from, TopologyDatabase database, PacketCounts packets,
    List<String> differences, long wallNanos, long checkNanos) {

  /**
   * Discovers {@code fabric} from endpoint {@code from}, giving each packet to {@code trace} in the
   * order it travels.
   *
   * @throws IllegalArgumentException naming {@code from} when it is not an endpoint of the topology
   */
  public static DiscoveryRun run(TopologyFabric fabric, String from, int window, Consumer<ManagementPacket> trace) {
    if (fabric.topology().endpoint(from).isEmpty()) {
      throw new IllegalArgumentException(from + " is not an endpoint of " + fabric.topology().name()
          + " (endpoints: " + fabric.topology().endpoints().stream().map(EndpointSpec::id).toList() + ")");
    }
    StructuralFabric structural = fabric.structural();
    long start = System.nanoTime();
    StructuralFabric.Discovery d = structural.discover(from, window, trace);
    long walked = System.nanoTime();
    List<String> differences = DiscoveryCheck.differences(fabric, d.database());
    return new DiscoveryRun(fabric, from, d.database(), d.packets(), differences, walked - start,
        System.nanoTime() - walked);
  }

  /** The fabric manager's endpoint by default: the control-plane master, else the first root, else the first endpoint. */
  public static String defaultFrom(TopologyFabric fabric) {
    var t = fabric.topology();
    if (t.controlPlane() != null) {
      return t.controlPlane().master();
    }
    return t.endpoints().stream().filter(EndpointSpec::root).findFirst().or(() -> t.endpoints().stream().findFirst())
        .map(EndpointSpec::id).orElse(null);
  }

  public String toText() {
    StringBuilder s = new StringBuilder();
    s.append("fabric discovery of ").append(fabric.topology().name()).append(" from ").append(from)
        .append(" (structural: PI-4 reads answered by the topology's devices, not carried by the fabric's actors;"
            + " no model time)\n");
    s.append(String.format("found %d devices, %d links; the topology has %d devices, %d links%n",
        database.devices().size(), database.links().size(), fabric.descriptions().size(), fabric.links().size()));
    List<String[]> packetRows = new ArrayList<>();
    packetRows.add(new String[] {"packets", "count", "bytes"});
    for (PacketKind k : PacketKind.values()) {
      packetRows.add(new String[] {k.label(), String.valueOf(packets.count(k)), String.valueOf(packets.bytes(k))});
    }
    packetRows.add(new String[] {"total", String.valueOf(packets.totalCount()), String.valueOf(packets.totalBytes())});
    TextTable.append(s, "", packetRows);
    s.append(String.format("wall time: %.1f ms the walk, %.1f ms the check against the file%n", wallNanos / 1e6,
        checkNanos / 1e6));
    List<String[]> deviceRows = new ArrayList<>();
    deviceRows.add(new String[] {"device", "type", "ports", "up", "route"});
    for (TopologyDatabase.Device d : database.devices()) {
      long up = database.ports(d.serial()).values().stream()
          .filter(p -> p.state() == DataLinkState.DL_PROTECTED || p.state() == DataLinkState.DL_ACTIVE).count();
      deviceRows.add(new String[] {fabric.ids().getOrDefault(d.serial(), String.format("%016X", d.serial())),
          d.type().name(), String.valueOf(d.portCount()), String.valueOf(up), d.route().toString()});
    }
    TextTable.append(s, "", deviceRows);
    if (differences.isEmpty()) {
      s.append("differences from the topology file: none\n");
    } else {
      s.append("differences from the topology file: ").append(differences.size()).append('\n');
      differences.forEach(d -> s.append("  ").append(d).append('\n'));
    }
    NtbWindows.Plan windows = NtbWindowPlans.of(fabric.topology(), fabric);
    if (!windows.isEmpty()) {
      s.append("NTB windows the fabric manager writes (write-ntb-windows): ").append(windows.ports().size())
          .append(" ports, ").append(windows.differences().size()).append(" differ from the file\n");
      for (NtbWindows w : windows.ports()) {
        s.append("  ").append(w.name()).append(" link ").append(NtbWindowPlans.text(w.linkBars())).append(" virtual ")
            .append(NtbWindowPlans.text(w.virtualBars())).append('\n');
      }
      windows.differences().forEach(d -> s.append("  differs: ").append(d).append('\n'));
    }
    return s.toString();
  }

  /** The same as a JSON-ready map (every count a count, the wall time in nanoseconds). */
  public Map<String, Object> toJson() {
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("topology", fabric.topology().name());
    doc.put("from", from);
    doc.put("structural", true);
    Map<String, Object> byKind = new LinkedHashMap<>();
    for (PacketKind k : PacketKind.values()) {
      byKind.put(k.name(), Map.of("count", packets.count(k), "bytes", packets.bytes(k)));
    }
    doc.put("packets", byKind);
    doc.put("wallNanos", wallNanos);
    doc.put("checkWallNanos", checkNanos);
    List<Object> devices = new ArrayList<>();
    for (TopologyDatabase.Device d : database.devices()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("id", fabric.ids().get(d.serial()));
      m.put("serial", String.format("%016X", d.serial()));
      m.put("type", d.type().name());
      m.put("ports", database.ports(d.serial()).values().stream().map(p -> {
        Map<String, Object> pm = new LinkedHashMap<>();
        pm.put("number", p.number());
        pm.put("kind", p.kind().name());
        pm.put("width", p.width());
        pm.put("speed", p.speed());
        pm.put("state", p.state().name());
        return pm;
      }).toList());
      m.put("route", d.route().turns());
      devices.add(m);
    }
    doc.put("devices", devices);
    doc.put("links", database.links().stream().map(l -> List.of(fabric.endName(l.a().serial(), l.a().port()),
        fabric.endName(l.b().serial(), l.b().port()))).toList());
    doc.put("differences", differences);
    NtbWindows.Plan windows = NtbWindowPlans.of(fabric.topology(), fabric);
    doc.put("ntbWindows", Map.of("ports", windows.ports().stream().map(NtbWindows::name).toList(),
        "differences", windows.differences()));
    return doc;
  }
}
