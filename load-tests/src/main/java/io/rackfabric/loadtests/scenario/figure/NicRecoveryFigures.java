package io.rackfabric.loadtests.scenario.figure;

import io.rackfabric.host.ftgm.NicFaultDaemon;
import io.rackfabric.host.ftgm.RecoveryBreakdown;
import io.rackfabric.loadtests.report.Figure;
import io.rackfabric.loadtests.scenario.api.FigureType;
import io.rackfabric.loadtests.scenario.api.NicRecoveries;
import io.rackfabric.loadtests.scenario.api.RunResult;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code nic-recovery}: for each recovery of a hung NIC, FTGM Table 3's components in model
 * time, read off the daemon's record of the run: fault detection (hang to daemon woken), FTD
 * recovery (woken to FAULT_DETECTED in every open VF's queue), each port's recovery (its handler,
 * one at a time) and the complete recovery; with the open ports. Nothing without a nic-hang.
 */
public final class NicRecoveryFigures implements FigureType {

  @Override
  public String name() {
    return "nic-recovery";
  }

  @Override
  public String summary() {
    return "per NIC recovery (Table 3): detection, daemon, per-port and total recovery, model time; open ports";
  }

  @Override
  public List<Figure> produce(RunResult run) throws Exception {
    List<Figure> out = new ArrayList<>();
    for (NicFaultDaemon.NicRecoveries r : NicRecoveries.read(run)) {
      List<RecoveryBreakdown> bs = r.breakdowns();
      for (int i = 0; i < bs.size(); i++) {
        RecoveryBreakdown b = bs.get(i);
        String p = "nic-recovery." + r.nic() + (bs.size() > 1 ? "." + (i + 1) : "") + ".";
        out.add(new Figure(p + "open_ports", b.openPorts(), "ports", "count"));
        out.add(new Figure(p + "detection", b.detectionNs(), "ns", "model"));
        out.add(new Figure(p + "daemon", b.daemonNs(), "ns", "model"));
        out.add(new Figure(p + "per_port_mean", b.perProcessMeanNs(), "ns", "model"));
        for (int k = 0; k < b.perProcessNs().size(); k++) {
          out.add(new Figure(p + "port" + (k + 1), b.perProcessNs().get(k), "ns", "model"));
        }
        out.add(new Figure(p + "total", b.totalNs(), "ns", "model"));
      }
    }
    return out;
  }
}
