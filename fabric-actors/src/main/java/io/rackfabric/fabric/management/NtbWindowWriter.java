package io.rackfabric.fabric.management;

import io.rackfabric.fabric.tlp.FabricMessage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The fabric manager's part that writes the NTB ports' windows (issue 15, "the NTB windows of both
 * planes"): once a chip of its plan is in the database (the discovery found it, or a rediscovery
 * found it again), each of the chip's ports in the plan gets its windows with PI-4 writes along the
 * chip's route, one per window and then the header, which puts them in force at once. A chip is
 * written once; a port the database has no chip for is reported.
 */
final class NtbWindowWriter {

  private final NtbWindows.Plan plan;
  /** The plan's port indices by chip serial: a rediscovery's devices are looked up, not scanned against the plan. */
  private final Map<Long, List<Integer>> byChip = new HashMap<>();
  private final int trafficClass;
  private final Set<Integer> written = new HashSet<>();
  /** Ports a primary before it wrote: their chips were in the database it took over. */
  private final Set<Integer> kept = new HashSet<>();
  private long writes;
  private long lastAt = -1;

  NtbWindowWriter(NtbWindows.Plan plan, int trafficClass) {
    this.plan = plan;
    this.trafficClass = trafficClass;
    for (int i = 0; i < plan.ports().size(); i++) {
      byChip.computeIfAbsent(plan.ports().get(i).chipSerial(), s -> new ArrayList<>()).add(i);
    }
  }

  private List<Integer> portsOf(TopologyDatabase.Device d) {
    return byChip.getOrDefault(d.serial(), List.of());
  }

  /** The writes for every port of the plan whose chip {@code devices} holds, leaving at model {@code at}. */
  void write(java.util.Collection<TopologyDatabase.Device> devices, long at, List<FabricMessage> out) {
    for (TopologyDatabase.Device d : devices) {
      for (int i : portsOf(d)) {
        NtbWindows w = plan.ports().get(i);
        if (d.route().hops() == 0 || !written.add(i)) {
          continue;
        }
        for (Pi4Write write : NtbWindowCapability.programming(d.route(), trafficClass, w.port(), w.linkBars(),
            w.virtualBars())) {
          out.add(FabricMessage.send(write, d.route().turns(), at));
          writes++;
        }
        lastAt = at;
      }
    }
  }

  /** It took over {@code devices} from a primary that wrote their windows: they are not written again. */
  void keep(java.util.Collection<TopologyDatabase.Device> devices) {
    for (TopologyDatabase.Device d : devices) {
      kept.addAll(portsOf(d));
      written.addAll(portsOf(d));
    }
  }

  /** What it wrote; null when its plan is empty (it writes none). */
  FabricManagerReport.Windows report() {
    if (plan.isEmpty()) {
      return null;
    }
    List<String> notWritten = new ArrayList<>();
    for (int i = 0; i < plan.ports().size(); i++) {
      if (!written.contains(i)) {
        notWritten.add(plan.ports().get(i).name());
      }
    }
    return new FabricManagerReport.Windows(written.size() - kept.size(), writes, lastAt, notWritten,
        plan.differences());
  }
}
