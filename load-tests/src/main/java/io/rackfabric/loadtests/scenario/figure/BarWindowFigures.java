package io.rackfabric.loadtests.scenario.figure;

import io.rackfabric.fabric.stats.EndpointStats;
import io.rackfabric.loadtests.report.Figure;
import io.rackfabric.loadtests.scenario.api.FigureType;
import io.rackfabric.loadtests.scenario.api.RunResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code bar-windows}: per borrower root and lent device whose BAR windows it gates (the
 * scenario's borrows), {@code bar_window.HOST.DEVICE.refused_reads} and {@code .refused_writes},
 * the reads (master abort) and posted writes (dropped) of the host that met the device's windows
 * closed, before its borrow or after its return, and {@code .open_at_end} (1 while the host still
 * holds the loan at the run's end).
 */
public final class BarWindowFigures implements FigureType {

  @Override
  public String name() {
    return "bar-windows";
  }

  @Override
  public String summary() {
    return "per borrower and lent device: reads and writes refused at its closed BAR windows (no loan), open at the end";
  }

  @Override
  public List<Figure> produce(RunResult run) {
    List<Figure> out = new ArrayList<>();
    for (Map.Entry<String, EndpointStats> e : new TreeMap<>(run.endpointsAtEnd()).entrySet()) {
      for (EndpointStats.BarWindowRefusal w : e.getValue().barWindows()) {
        String p = "bar_window." + e.getKey() + "." + w.device() + ".";
        out.add(new Figure(p + "refused_reads", w.reads(), "reads", "count"));
        out.add(new Figure(p + "refused_writes", w.writes(), "writes", "count"));
        out.add(new Figure(p + "open_at_end", w.open() ? 1 : 0, "windows", "count"));
      }
    }
    return out;
  }
}
