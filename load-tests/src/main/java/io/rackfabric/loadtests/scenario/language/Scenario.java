package io.rackfabric.loadtests.scenario.language;

import io.rackfabric.host.controlplane.Takeover;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A checked scenario: the rack, where it runs, the traffic, the fault schedule, the invariants
 * and the figures to report. An immutable tree of records, produced only by {@link
 * ScenarioLoader}, so a run never starts from one that has not been validated.
 *
 * @param source how the file is named in messages (the path as given, or the bundled name)
 * @param figures the figure producers to run, in order
 * @param nicStream UDP streams through the NIC to the server outside the rack, or null for none
 * @param takeover the management hosts' take-over mode for the run's JVMs, or null for the
 *     settings' own ({@code rackfabric.host.controlplane.takeover})
 * @param baseline a second take-over mode to run the scenario with once more, on a fresh rack,
 *     for comparison ({@code control-plane.baseline}), or null for none; never equal to takeover
 * @param controlRequests control-plane requests from compute hosts during the run, or null
 * @param ftgmCampaign fault injection into a NIC's firmware, run without starting the rack, or
 *     null for none (a scenario with one has no traffic, faults or NIC stream of the rack)
 * @param reproducible {@code run.reproducible}: the run is asked to be a pure function of the
 *     scenario, its seed and its fault record (default true)
 * @param wallTimeFaults one message per fault (or random schedule) on the wall clock, {@code
 *     file:line: key: reason}: what keeps a run from being reproducible
 * @param settings rackfabric.* settings over the modules' defaults, key to value as given: the
 *     scenario's {@code settings} block and {@code rack run --set} ({@link ScenarioSettings})
 * @param gpuCopies GPU drivers' DMA copies during the run ({@code gpu-copies}), empty for none
 * @param diskReads disk drivers' reads during the run ({@code disk-reads}), one workload after the
 *     other, empty for none
 * @param gpuPingPongs GPU ping-pongs run one after the other ({@code gpu-ping-pong}), empty for none
 * @param loans Device Lending operations sent to the controller during the run ({@code loans}),
 *     in the order of their model times, empty for none
 * @param guests what the VMs' guests do to their passed-through devices ({@code vms[].guest}), for
 *     their hosts' hypervisors, which borrow and return through the controller; empty for none
 */
public record Scenario(
    String name,
    String description,
    String source,
    TopologyRef topology,
    Mode mode,
    long seed,
    RunLength run,
    MultiJvm multiJvm,
    List<TrafficSpec> traffic,
    List<FaultSpec> faults,
    List<InvariantSpec> invariants,
    List<String> figures,
    NicStream nicStream,
    Takeover takeover,
    Takeover baseline,
    ControlRequests controlRequests,
    FtgmCampaign ftgmCampaign,
    boolean reproducible,
    List<String> wallTimeFaults,
    Map<String, String> settings,
    List<GpuCopies> gpuCopies,
    List<DiskReads> diskReads,
    List<GpuPingPong> gpuPingPongs,
    List<LoanStep> loans,
    List<GuestPlan> guests) {

  /** The setting {@code control-plane.takeover} selects for the run's JVMs. */
  public static final String TAKEOVER_KEY = "rackfabric.host.controlplane.takeover";

  public Scenario {
    traffic = List.copyOf(traffic);
    faults = List.copyOf(faults);
    invariants = List.copyOf(invariants);
    figures = List.copyOf(figures);
    wallTimeFaults = List.copyOf(wallTimeFaults);
    settings = Collections.unmodifiableMap(new LinkedHashMap<>(settings));
    gpuCopies = List.copyOf(gpuCopies);
    diskReads = List.copyOf(diskReads);
    gpuPingPongs = List.copyOf(gpuPingPongs);
    loans = List.copyOf(loans);
    guests = List.copyOf(guests);
  }

  static final String DLLP_TIMEOUT_KEY = "rackfabric.fabric.link-timers.dllp-timeout";
  static final String KEEPALIVE_KEY = "rackfabric.fabric.link-timers.keepalive";
  /**
   * A multi-JVM run's DLLP timeout unless the scenario gives one. Across JVMs a partner's silence
   * is no sign of death: a JVM the machine starves stays silent for seconds (Akka's failure
   * detector logs heartbeat gaps above 2 s while six JVMs start on two cores), and a link taken
   * down by that timeout loses what it had queued, an outcome of the machine's load. A killed node
   * is learnt from cluster membership (the harness downs it at once, and each link end watches its
   * partner) and a real partition from the split-brain resolver; a free-running run must still
   * survive an unasked 5 s stall, hence twice that.
   */
  static final String MULTI_JVM_DLLP_TIMEOUT = "10s";

  /**
   * Every configuration override of a run's JVMs: the link timers of {@code run}, across JVMs a
   * DLLP timeout no machine stall reaches (unless the scenario sets the link timers), the take-over
   * mode of {@code control-plane}, and the {@link #settings}.
   */
  public Map<String, String> configOverrides() {
    Map<String, String> all = new LinkedHashMap<>(run.settings());
    boolean timersGiven = all.containsKey(DLLP_TIMEOUT_KEY) || all.containsKey(KEEPALIVE_KEY)
        || settings.containsKey(DLLP_TIMEOUT_KEY) || settings.containsKey(KEEPALIVE_KEY);
    if (mode == Mode.MULTI_JVM && !timersGiven) {
      all.put(DLLP_TIMEOUT_KEY, MULTI_JVM_DLLP_TIMEOUT);
    }
    if (takeover != null) {
      all.put(TAKEOVER_KEY, takeover.name().toLowerCase(Locale.ROOT));
    }
    all.putAll(settings);
    return all;
  }

  /**
   * What {@code rack run --check} refuses: the wall-time faults of a scenario that asks to be
   * reproducible ({@code run.reproducible = true}, the default); empty when it does not ask.
   */
  public List<String> reproducibilityProblems() {
    return reproducible ? wallTimeFaults : List.of();
  }

  /**
   * The same scenario with {@code replacement} as its whole fault schedule (a replay's, taken from
   * a run's fault record); it has no wall-time fault unless the replacement has.
   */
  public Scenario withFaults(List<FaultSpec> replacement) {
    List<String> wall = replacement.stream().filter(f -> !f.at().isModel())
        .map(f -> f.where() + ": " + f.label() + ": a wall-time fault makes the run irreproducible").toList();
    return new Scenario(name, description, source, topology, mode, seed, run, multiJvm, traffic, replacement,
        invariants, figures, nicStream, takeover, baseline, controlRequests, ftgmCampaign, reproducible, wall,
        settings, gpuCopies, diskReads, gpuPingPongs, loans, guests);
  }

  /**
   * How a multi-JVM run starts its node JVMs.
   *
   * @param transport Artery transport: aeron-udp, tcp or tls-tcp
   * @param sharedMediaDriver with aeron-udp: one media driver process for every JVM
   * @param network loopback, or a network namespace per node JVM (partitions can be cut)
   * @param tlsDir with tls-tcp: the rack's keys folder from the command line, or null for the
   *     stores in the settings
   */
  public record MultiJvm(String transport, boolean sharedMediaDriver, Network network, String tlsDir) {

    /** Loopback, as before there was a choice. */
    public MultiJvm(String transport, boolean sharedMediaDriver) {
      this(transport, sharedMediaDriver, Network.LOOPBACK);
    }

    public MultiJvm(String transport, boolean sharedMediaDriver, Network network) {
      this(transport, sharedMediaDriver, network, null);
    }
  }

  /**
   * The same scenario with the baseline's take-over mode and no invariants: the baseline run exists
   * to show what the mode costs (the data plane's outage), so nothing of it is judged.
   *
   * @throws IllegalStateException when the scenario names no baseline
   */
  public Scenario baselineRun() {
    if (baseline == null) {
      throw new IllegalStateException("scenario " + name + " names no control-plane.baseline");
    }
    return new Scenario(name, description, source, topology, mode, seed, run, multiJvm, traffic, faults, List.of(),
        figures, nicStream, baseline, null, controlRequests, ftgmCampaign, reproducible, wallTimeFaults, settings,
        gpuCopies, diskReads, gpuPingPongs, loans, guests);
  }

  /** The scenario runs in the runner's JVM without a rack (an {@code ftgm-campaign}). */
  public boolean inProcess() {
    return ftgmCampaign != null;
  }

  public Optional<TrafficSpec> traffic(String name) {
    return traffic.stream().filter(t -> t.name().equals(name)).findFirst();
  }

  /**
   * The fault schedule as a user reads it before the run: one line per fault, model time first,
   * each in time order, drawn faults marked; empty without faults.
   */
  public List<String> faultSchedule() {
    long drawn = faults.stream().filter(FaultSpec::random).count();
    if (faults.isEmpty()) {
      return List.of();
    }
    List<String> lines = new ArrayList<>();
    lines.add("fault schedule: " + faults.size() + " fault(s)" + (drawn == 0 ? "" : ", " + drawn + " drawn by "
        + faults.stream().filter(FaultSpec::random).findFirst().orElseThrow().at().written()));
    faults.stream()
        .sorted(Comparator.comparing((FaultSpec f) -> f.at().clock()).thenComparingLong(f -> f.at().nanos()))
        .forEach(f -> lines.add(String.format("  %-14s %s %s%s%s", f.at(), f.kind(), f.target(),
            f.steps().size() > 1 ? ", " + f.steps().size() + " steps to " + Durations.text(f.steps().get(f.steps().size() - 1))
                : "", f.random() ? "  (random, " + f.where() + ")" : "")));
    return lines;
  }

  /** The model times at which faults (or their steps) happen, ascending, each once. */
  public List<Long> modelFaultTimes() {
    return faults.stream().filter(f -> f.at().isModel()).flatMap(f -> f.steps().stream())
        .distinct().sorted().toList();
  }
}
