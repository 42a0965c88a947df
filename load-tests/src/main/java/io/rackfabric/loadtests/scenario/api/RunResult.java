package io.rackfabric.loadtests.scenario.api;

import io.rackfabric.loadtests.scenario.language.Durations;
import io.rackfabric.loadtests.scenario.language.FaultSpec;
import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.loadtests.scenario.language.TrafficSpec;
import io.rackfabric.fabric.stats.EndpointStats;
import io.rackfabric.fabric.stats.PortStats;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What a run recorded, for invariants and figure producers: statistics of every endpoint and
 * port at the start of traffic and at the end (absent for components stopped or on a killed
 * node), snapshots before each model-time fault, what each generator sent, and every fault step
 * applied with its times.
 *
 * @param boundaries one per model time at which faults were applied, in time order
 * @param faultedEnds every link end a fault took down, with its partner
 * @param failedComponents components stopped or on a killed node
 * @param rackUpNanos wall time the rack took to start (every link trained)
 * @param trafficNanos wall time from the first request until the last traffic job finished
 * @param wallNanos wall time from the first request to the end of the run (quiet, after faults)
 * @param finished false when the run hit its wall-time limit
 * @param nicStreams the scenario's UDP streams through the NIC, one per sending host (empty
 *     without a nic-stream)
 * @param controlRequests the scenario's control-plane requests, one per requesting host (empty
 *     without control-requests)
 * @param rack the rack, still running while invariants and figures are evaluated (null for a
 *     run without one)
 * @param ftgm the scenario's ftgm-campaign, run in-process without a rack (null without one)
 * @param gpuCopies the scenario's gpu-copies workloads, one per workload (empty without)
 * @param diskReads the scenario's disk-reads workloads, one per workload (empty without)
 * @param gpuPingPongs the scenario's gpu-ping-pong workloads, one per workload run (empty without)
 * @param loans the scenario's loans steps as the controller answered them (empty without)
 */
public record RunResult(
    Scenario scenario,
    Map<String, EndpointStats> endpointsAtStart,
    Map<String, EndpointStats> endpointsAtEnd,
    Map<String, PortStats> portsAtStart,
    Map<String, PortStats> portsAtEnd,
    List<Boundary> boundaries,
    List<TrafficResult> traffic,
    List<AppliedFault> faults,
    Set<String> faultedEnds,
    Set<String> failedComponents,
    long rackUpNanos,
    long trafficNanos,
    long wallNanos,
    boolean finished,
    List<String> notes,
    List<NicStreamResult> nicStreams,
    List<ControlRequestsResult> controlRequests,
    RunningRack rack,
    FtgmCampaignResult ftgm,
    List<GpuCopiesResult> gpuCopies,
    List<DiskReadsResult> diskReads,
    List<GpuPingPongResult> gpuPingPongs,
    List<LoanStepResult> loans) {

  /** A run without disk-reads or GPU ping-pongs. */
  public RunResult(Scenario scenario, Map<String, EndpointStats> endpointsAtStart,
      Map<String, EndpointStats> endpointsAtEnd, Map<String, PortStats> portsAtStart, Map<String, PortStats> portsAtEnd,
      List<Boundary> boundaries, List<TrafficResult> traffic, List<AppliedFault> faults, Set<String> faultedEnds,
      Set<String> failedComponents, long rackUpNanos, long trafficNanos, long wallNanos, boolean finished,
      List<String> notes, List<NicStreamResult> nicStreams, List<ControlRequestsResult> controlRequests,
      RunningRack rack, FtgmCampaignResult ftgm, List<GpuCopiesResult> gpuCopies) {
    this(scenario, endpointsAtStart, endpointsAtEnd, portsAtStart, portsAtEnd, boundaries, traffic, faults,
        faultedEnds, failedComponents, rackUpNanos, trafficNanos, wallNanos, finished, notes, nicStreams,
        controlRequests, rack, ftgm, gpuCopies, List.of(), List.of(), List.of());
  }

  /** A run without gpu-copies, disk-reads or GPU ping-pongs. */
  public RunResult(Scenario scenario, Map<String, EndpointStats> endpointsAtStart,
      Map<String, EndpointStats> endpointsAtEnd, Map<String, PortStats> portsAtStart, Map<String, PortStats> portsAtEnd,
      List<Boundary> boundaries, List<TrafficResult> traffic, List<AppliedFault> faults, Set<String> faultedEnds,
      Set<String> failedComponents, long rackUpNanos, long trafficNanos, long wallNanos, boolean finished,
      List<String> notes, List<NicStreamResult> nicStreams, List<ControlRequestsResult> controlRequests,
      RunningRack rack, FtgmCampaignResult ftgm) {
    this(scenario, endpointsAtStart, endpointsAtEnd, portsAtStart, portsAtEnd, boundaries, traffic, faults,
        faultedEnds, failedComponents, rackUpNanos, trafficNanos, wallNanos, finished, notes, nicStreams,
        controlRequests, rack, ftgm, List.of(), List.of(), List.of(), List.of());
  }

  public RunResult {
    endpointsAtStart = Map.copyOf(endpointsAtStart);
    endpointsAtEnd = Map.copyOf(endpointsAtEnd);
    portsAtStart = Map.copyOf(portsAtStart);
    portsAtEnd = Map.copyOf(portsAtEnd);
    boundaries = List.copyOf(boundaries);
    traffic = List.copyOf(traffic);
    faults = List.copyOf(faults);
    faultedEnds = Set.copyOf(faultedEnds);
    failedComponents = Set.copyOf(failedComponents);
    notes = List.copyOf(notes);
    nicStreams = List.copyOf(nicStreams);
    controlRequests = List.copyOf(controlRequests);
    gpuCopies = List.copyOf(gpuCopies);
    diskReads = List.copyOf(diskReads);
    gpuPingPongs = List.copyOf(gpuPingPongs);
    loans = List.copyOf(loans);
  }

  /** A run that started no rack: no statistics, no traffic, no faults of the rack; the campaign's result. */
  public static RunResult inProcess(Scenario scenario, long wallNanos, List<String> notes, FtgmCampaignResult ftgm) {
    return new RunResult(scenario, Map.of(), Map.of(), Map.of(), Map.of(), List.of(), List.of(), List.of(), Set.of(),
        Set.of(), 0, wallNanos, wallNanos, true, notes, List.of(), List.of(), null, ftgm);
  }

  /**
   * What one generator did.
   *
   * @param sent writes accepted by the source's link, or reads completed (successfully or not)
   * @param failed requests the source could not send, or reads answered with an error
   * @param skipped requests never issued: their stretch of the run found the source's link down,
   *     the source gone, or its previous job stalled
   * @param stalled a job of it never finished (its link went down under it mid-job)
   */
  /** {@code rerouted}: requests sent to another plane's address, following the path table (follow-routes). */
  public record TrafficResult(TrafficSpec spec, long sent, long failed, long skipped, boolean stalled, long rerouted) {}

  /**
   * One fault step as applied.
   *
   * @param modelAt the model time it was stamped with; -1 for a wall-time fault, or one that
   *     stamps no model time (a killed JVM)
   * @param wallAtNanos wall time since the first request when it was applied
   * @param takesLinkDown whether it took a link down (AER is due)
   * @param note what was done, or why it failed
   * @param rackModelNs the model time the rack had reached when the step was applied (the largest
   *     model clock among the endpoints that answered), measured for a wall-time step and for a
   *     model-time step that stamps nothing (once the rack got there); -1 otherwise or when none
   *     answered
   */
  public record AppliedFault(FaultSpec spec, int step, long modelAt, long wallAtNanos, boolean takesLinkDown,
      String note, long rackModelNs) {

    /** A step whose model time is its stamp or its schedule's. */
    public AppliedFault(FaultSpec spec, int step, long modelAt, long wallAtNanos, boolean takesLinkDown,
        String note) {
      this(spec, step, modelAt, wallAtNanos, takesLinkDown, note, -1);
    }

    /**
     * The model time the step entered the model at, as the fault record keeps it: its stamp; for
     * a model-time step that stamps nothing (a killed JVM), the time it was applied at (the run
     * cuts its traffic there); for a wall-time step, the model time the rack had reached. -1 when
     * not known.
     */
    public long recordedModelNs() {
      if (modelAt >= 0) {
        return modelAt;
      }
      return spec.at().isModel() ? spec.steps().get(step) : rackModelNs;
    }

    /** Where {@link #recordedModelNs} comes from: "stamped", "scheduled", "rack-clock", or null. */
    public String modelSource() {
      if (modelAt >= 0) {
        return "stamped";
      }
      if (spec.at().isModel()) {
        return "scheduled";
      }
      return rackModelNs >= 0 ? "rack-clock" : null;
    }

    /**
     * The model time for reports: the stamp; a scheduled time or the rack's clock marked as such;
     * "-" when not known.
     */
    public String modelText() {
      long t = recordedModelNs();
      if (t < 0) {
        return "-";
      }
      String text = Durations.text(t);
      return modelAt >= 0 ? text : spec.at().isModel() ? text + " (scheduled)" : text + " (rack's clock)";
    }

    public AppliedFault withRackModelNs(long reached) {
      return new AppliedFault(spec, step, modelAt, wallAtNanos, takesLinkDown, note, reached);
    }
  }

  /**
   * The faults at {@code modelAt}, seen from both sides: endpoint statistics just before they were
   * applied, what each generator (by name) had sent by then, and the endpoints once what was in
   * flight at the fault had arrived or been lost ({@code settled}, before any later request),
   * with the TLPs each link end dropped or lost in between ({@code lostAtFault}, nonzero only).
   */
  public record Boundary(long modelAt, Map<String, EndpointStats> endpoints, Map<String, Long> sentByTraffic,
      Map<String, EndpointStats> settled, Map<String, Long> lostAtFault) {
    public Boundary {
      endpoints = Map.copyOf(endpoints);
      sentByTraffic = Map.copyOf(sentByTraffic);
      settled = Map.copyOf(settled);
      lostAtFault = Map.copyOf(lostAtFault);
    }
  }

  /**
   * TLPs each link end dropped or lost between two snapshots of the rack (nonzero only): what
   * {@link #drops} counts, over a shorter window. An end that was there before and is gone after
   * (its component died at the fault, held quiet, so it took nothing in between) lost every TLP
   * its live partner put on the wire to it that it had not taken by then: the dead end cannot
   * tell, but its partner's count of TLPs sent, less what it had counted arriving, can.
   *
   * @param partners each link end's partner end
   */
  public static Map<String, Long> dropsBetween(Map<String, EndpointStats> endpointsBefore,
      Map<String, PortStats> portsBefore, Map<String, EndpointStats> endpointsAfter, Map<String, PortStats> portsAfter,
      Map<String, String> partners) {
    Map<String, Long> out = new TreeMap<>();
    Map<String, PortStats> linksBefore = new TreeMap<>(portsBefore);
    endpointsBefore.forEach((end, st) -> linksBefore.put(end, st.link()));
    Map<String, PortStats> linksAfter = new TreeMap<>(portsAfter);
    endpointsAfter.forEach((end, st) -> linksAfter.put(end, st.link()));
    linksBefore.keySet().stream().filter(end -> !linksAfter.containsKey(end)).forEach(dead -> {
      String partner = partners.get(dead);
      PortStats took = linksBefore.get(dead);
      PortStats sent = partner == null ? null : linksAfter.get(partner);
      if (sent != null) {
        putNonZero(out, dead, sent.tlpsSent() - took.tlpsReceived() - took.droppedLinkDown() - took.receiverOverflows());
      }
    });
    endpointsAfter.forEach((end, after) -> {
      EndpointStats before = endpointsBefore.get(end);
      if (before != null) {
        putNonZero(out, end, endpointDrops(after) - endpointDrops(before));
      }
    });
    portsAfter.forEach((end, after) -> {
      PortStats before = portsBefore.get(end);
      if (before != null) {
        putNonZero(out, end, portDrops(after) - portDrops(before));
      }
    });
    return out;
  }

  private static void putNonZero(Map<String, Long> out, String end, long drops) {
    if (drops != 0) {
      out.put(end, drops);
    }
  }

  public TrafficResult trafficResult(String name) {
    return traffic.stream().filter(t -> t.spec().name().equals(name)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no traffic '" + name + "'"));
  }

  /** The generators an invariant covers: those named, or every one when none is named. */
  public List<TrafficResult> selected(List<String> names) {
    return names.isEmpty() ? traffic : names.stream().map(this::trafficResult).toList();
  }

  /** The sinks the given write generators write into, in order. */
  public List<String> sinksOf(List<TrafficResult> selected) {
    Set<String> sinks = new LinkedHashSet<>();
    selected.stream().filter(t -> t.spec().writes()).forEach(t -> sinks.add(t.spec().sink()));
    return new ArrayList<>(sinks);
  }

  /** Writes every write generator sent into {@code sink}. */
  public long sentTo(String sink) {
    return traffic.stream().filter(t -> t.spec().writes() && t.spec().sink().equals(sink))
        .mapToLong(TrafficResult::sent).sum();
  }

  /** Distinct writes {@code sink} received during the run, or -1 without statistics at the end. */
  public long delivered(String sink) {
    EndpointStats end = endpointsAtEnd.get(sink);
    EndpointStats start = endpointsAtStart.get(sink);
    return end == null || start == null ? -1 : end.uniqueWrites() - start.uniqueWrites();
  }

  public long duplicates(String sink) {
    EndpointStats end = endpointsAtEnd.get(sink);
    EndpointStats start = endpointsAtStart.get(sink);
    return end == null || start == null ? -1 : end.duplicateWrites() - start.duplicateWrites();
  }

  public long reordered(String sink) {
    EndpointStats end = endpointsAtEnd.get(sink);
    EndpointStats start = endpointsAtStart.get(sink);
    return end == null || start == null ? -1 : end.reorderedWrites() - start.reorderedWrites();
  }

  /** New AER records at {@code root} during the run, oldest first; empty without statistics. */
  public List<EndpointStats.AerRecord> newAer(String root) {
    EndpointStats end = endpointsAtEnd.get(root);
    EndpointStats start = endpointsAtStart.get(root);
    if (end == null || start == null) {
      return List.of();
    }
    return end.aerReceived().subList(start.aerReceived().size(), end.aerReceived().size());
  }

  /**
   * TLPs a link end dropped or lost during the run: posted writes it could not forward or that
   * nothing claimed, TLPs purged from its queues or arriving while its link was down, receive
   * buffer overflows. -1 without statistics.
   */
  public long drops(String end) {
    PortStats a = portsAtStart.get(end);
    PortStats b = portsAtEnd.get(end);
    if (a != null && b != null) {
      return portDrops(b) - portDrops(a);
    }
    EndpointStats ea = endpointsAtStart.get(end);
    EndpointStats eb = endpointsAtEnd.get(end);
    if (ea != null && eb != null) {
      return endpointDrops(eb) - endpointDrops(ea);
    }
    return -1;
  }

  private static long endpointDrops(EndpointStats e) {
    return e.outsideBars() + portDrops(e.link());
  }

  private static long portDrops(PortStats p) {
    return p.lost();
  }

  /** Every link end with statistics at start and end, endpoints first. */
  public List<String> ends() {
    List<String> ends = new ArrayList<>();
    endpointsAtEnd.keySet().stream().filter(endpointsAtStart::containsKey).sorted().forEach(ends::add);
    portsAtEnd.keySet().stream().filter(portsAtStart::containsKey).sorted().forEach(ends::add);
    return ends;
  }
}
