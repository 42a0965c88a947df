package io.rackfabric.loadtests.scenario.figure;

import io.rackfabric.host.controlplane.TakeoverBreakdown;
import io.rackfabric.loadtests.report.Figure;
import io.rackfabric.loadtests.scenario.api.ControlPlaneTakeovers;
import io.rackfabric.loadtests.scenario.api.FigureType;
import io.rackfabric.loadtests.scenario.api.RunResult;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code takeover}: each control-plane take-over of the run as Table 1 of Ladon breaks it down
 * (detection, port reassignment, reboot, total: model times the take-over's own steps carried),
 * the data plane's outage (0 with Ladon's mechanism, the restart without it), and what the
 * emulator itself took: the wall time from detection to service resumed (the modeled reboot
 * excluded) and the change log's replay rate. Nothing for a rack without a management-host pair.
 */
public final class TakeoverFigures implements FigureType {

  @Override
  public String name() {
    return "takeover";
  }

  @Override
  public String summary() {
    return "each MMH/BMH take-over: detection, port reassignment, reboot, total (model); data-plane outage;"
        + " the emulator's own take-over wall time and replay rate";
  }

  @Override
  public List<Figure> produce(RunResult run) throws Exception {
    List<Figure> out = new ArrayList<>();
    if (run.scenario().topology().topology().controlPlane() == null) {
      return out;
    }
    List<TakeoverBreakdown> all = ControlPlaneTakeovers.read(run.rack()).takeovers();
    for (int i = 0; i < all.size(); i++) {
      TakeoverBreakdown b = all.get(i);
      String p = "takeover" + (i + 1) + "." + b.host() + ".";
      out.add(new Figure(p + "detection", b.detectionNs(), "ns", "model"));
      out.add(new Figure(p + "port_reassignment", b.portReassignmentNs(), "ns", "model"));
      out.add(new Figure(p + "reboot", b.rebootNs(), "ns", "model"));
      out.add(new Figure(p + "total", b.totalNs(), "ns", "model"));
      out.add(new Figure(p + "data_plane_outage", b.dataPlaneOutageNs(), "ns", "model"));
      out.add(new Figure(p + "ports_moved", b.portsMoved(), "ports", "count"));
      out.add(new Figure(p + "emulator_takeover", b.wallTakeoverNs() / 1e9, "s", "wall"));
      out.add(new Figure(p + "events_replayed", b.eventsReplayed(), "events", "count"));
      out.add(new Figure(p + "events_read_back", b.eventsReadBack(), "events", "count"));
      out.add(new Figure(p + "events_recovered", b.lastSeqNr(), "events", "count"));
      out.add(new Figure(p + "replay_rate", b.replayRate(), "events/s", "wall"));
    }
    return out;
  }
}
