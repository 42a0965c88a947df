package io.rackfabric.loadtests.scenario.figure;

import io.rackfabric.host.failover.HostLog;
import io.rackfabric.host.memory.Plane;
import io.rackfabric.loadtests.report.Figure;
import io.rackfabric.loadtests.scenario.api.FigureType;
import io.rackfabric.loadtests.scenario.api.HostFailovers;
import io.rackfabric.loadtests.scenario.api.RunResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code routes}: each compute host's route list at the end of the run and who moved it, read off
 * the hosts: per CH and target (0: the MH) {@code routes.chI.to.T.secondary} (1 when the target is
 * reached through the secondary plane at the end), and per move the model time it took effect by
 * its mover: {@code routes.chI.to.T.set_by_fabric_manager_ns} (the last move the fabric manager's
 * path table made; docs/fabric-manager.md) and {@code routes.chI.notification_updates} with
 * {@code routes.chI.first_notification_update_ns} (the MH's route-change notifications, Ladon
 * section 5.3: one per notification seen, whether it moved anything or not). Nothing for a rack
 * without a management host.
 */
public final class RouteFigures implements FigureType {

  @Override
  public String name() {
    return "routes";
  }

  @Override
  public String summary() {
    return "each CH's route list at the end, and when the fabric manager's path table or the MH's notification moved it (model)";
  }

  @Override
  public List<Figure> produce(RunResult run) throws Exception {
    List<Figure> out = new ArrayList<>();
    HostFailovers hosts = HostFailovers.readIfAny(run).orElse(null);
    if (hosts == null) {
      return out;
    }
    for (Map.Entry<Integer, List<Plane>> r : new TreeMap<>(hosts.routes()).entrySet()) {
      String p = "routes.ch" + r.getKey() + ".";
      List<Plane> planes = r.getValue();
      for (int t = 0; t < planes.size(); t++) {
        if (t != r.getKey()) {
          out.add(new Figure(p + "to." + t + ".secondary", planes.get(t) == Plane.SECONDARY ? 1 : 0, "plane", "count"));
        }
      }
      HostLog log = hosts.chLogs().get(r.getKey());
      long fmMoves = 0;
      long updates = 0;
      long firstUpdate = -1;
      TreeMap<Integer, Long> byFm = new TreeMap<>();
      TreeMap<Integer, Long> byAlternate = new TreeMap<>();
      for (HostLog.Entry e : log.entries()) {
        if (e.step() == HostLog.Step.ROUTE_SET_BY_FABRIC_MANAGER) {
          fmMoves++;
          byFm.put(e.host(), e.modelAt());
        } else if (e.step() == HostLog.Step.ROUTE_SET_BY_ALTERNATE) {
          byAlternate.put(e.host(), e.modelAt());
        } else if (e.step() == HostLog.Step.ROUTE_UPDATED) {
          updates++;
          firstUpdate = firstUpdate < 0 ? e.modelAt() : Math.min(firstUpdate, e.modelAt());
        }
      }
      out.add(new Figure(p + "moves_by_fabric_manager", fmMoves, "moves", "count"));
      byFm.forEach((t, at) -> out.add(new Figure(p + "to." + t + ".set_by_fabric_manager_ns", at, "ns", "model")));
      // the host's own move to its alternate routes when its own root port failed (none without alternates)
      out.add(new Figure(p + "moves_by_alternate", byAlternate.size(), "moves", "count"));
      byAlternate.forEach((t, at) -> out.add(new Figure(p + "to." + t + ".set_by_alternate_ns", at, "ns", "model")));
      out.add(new Figure(p + "notification_updates", updates, "updates", "count"));
      out.add(new Figure(p + "first_notification_update_ns", firstUpdate, "ns", "model"));
    }
    return out;
  }
}
