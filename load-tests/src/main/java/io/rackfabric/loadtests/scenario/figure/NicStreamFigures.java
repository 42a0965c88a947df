package io.rackfabric.loadtests.scenario.figure;

import io.rackfabric.loadtests.report.Figure;
import io.rackfabric.loadtests.scenario.api.FigureType;
import io.rackfabric.loadtests.scenario.api.NicStreamResult;
import io.rackfabric.loadtests.scenario.api.RunResult;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code nic-stream}: per stream of the scenario's nic-stream (Ladon section 5.2, Fig. 6):
 * packets sent, skipped (data plane down), received, lost, duplicates, out of order, and the
 * inter-arrival times at the server outside the rack, min/p50/max in model time (from the frames'
 * arrival times) and in the receiver's wall clock. Nothing without a nic-stream.
 */
public final class NicStreamFigures implements FigureType {

  @Override
  public String name() {
    return "nic-stream";
  }

  @Override
  public String summary() {
    return "per NIC stream: sent, skipped, received, lost, duplicates, out of order; inter-arrival min/p50/max,"
        + " model and wall";
  }

  @Override
  public List<Figure> produce(RunResult run) {
    List<Figure> out = new ArrayList<>();
    for (NicStreamResult s : run.nicStreams()) {
      String p = "nic." + s.host() + ".";
      out.add(new Figure(p + "sent", s.sent(), "packets", "count"));
      out.add(new Figure(p + "skipped", s.skipped(), "packets", "count"));
      out.add(new Figure(p + "received", s.received(), "packets", "count"));
      out.add(new Figure(p + "lost", s.lost(), "packets", "count"));
      out.add(new Figure(p + "duplicates", s.duplicates(), "packets", "count"));
      out.add(new Figure(p + "out_of_order", s.outOfOrder(), "packets", "count"));
      out.add(new Figure(p + "interarrival_min", s.modelGaps().min(), "ns", "model"));
      out.add(new Figure(p + "interarrival_p50", s.modelGaps().p50(), "ns", "model"));
      out.add(new Figure(p + "interarrival_max", s.modelGaps().max(), "ns", "model"));
      out.add(new Figure(p + "wall_interarrival_min", s.wallGaps().min(), "ns", "wall"));
      out.add(new Figure(p + "wall_interarrival_p50", s.wallGaps().p50(), "ns", "wall"));
      out.add(new Figure(p + "wall_interarrival_max", s.wallGaps().max(), "ns", "wall"));
    }
    return out;
  }
}
