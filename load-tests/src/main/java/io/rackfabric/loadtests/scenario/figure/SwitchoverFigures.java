package io.rackfabric.loadtests.scenario.figure;

import io.rackfabric.host.controlplane.SwitchoverBreakdown;
import io.rackfabric.loadtests.report.Figure;
import io.rackfabric.loadtests.scenario.api.ControlPlaneTakeovers;
import io.rackfabric.loadtests.scenario.api.FigureType;
import io.rackfabric.loadtests.scenario.api.RunResult;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code switchover}: each managed switchover of the run (Multi-peer "Redundancy": quiesce, switch,
 * resume), numbered in the order they were asked, named by the master that handed over: the
 * quiesce (the request to the last outstanding operation acknowledged), the hand-over (to the new
 * master serving), the control plane's pause (no host admitting a new request) and the total (to
 * the old master standing by as backup), model times the switchover's own messages carried; the
 * sequence number handed over at and the requests that arrived meanwhile. Nothing for a rack
 * without a management-host pair.
 */
public final class SwitchoverFigures implements FigureType {

  @Override
  public String name() {
    return "switchover";
  }

  @Override
  public String summary() {
    return "each managed MMH/BMH switchover: quiesce, hand-over, control-plane pause, total (model); the sequence"
        + " number handed over at and the requests held meanwhile";
  }

  @Override
  public List<Figure> produce(RunResult run) throws Exception {
    List<Figure> out = new ArrayList<>();
    if (run.scenario().topology().topology().controlPlane() == null) {
      return out;
    }
    List<SwitchoverBreakdown> all = ControlPlaneTakeovers.read(run.rack()).switchovers();
    for (int i = 0; i < all.size(); i++) {
      SwitchoverBreakdown b = all.get(i);
      String p = "switchover" + (i + 1) + "." + b.host() + ".";
      out.add(new Figure(p + "quiesce", b.quiesceNs(), "ns", "model"));
      out.add(new Figure(p + "hand_over", b.handOverNs(), "ns", "model"));
      out.add(new Figure(p + "control_plane_pause", b.controlPlanePauseNs(), "ns", "model"));
      out.add(new Figure(p + "total", b.totalNs(), "ns", "model"));
      out.add(new Figure(p + "seq_nr", b.lastSeqNr(), "events", "count"));
      out.add(new Figure(p + "requests_held", b.requestsHeld(), "requests", "count"));
    }
    return out;
  }
}
