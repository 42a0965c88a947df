package io.rackfabric.loadtests.scenario.language;

import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import io.rackfabric.cluster.topology.Fields;
import io.rackfabric.cluster.topology.Problems;
import io.rackfabric.persistence.journal.JournalPaths;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Turns the parsed HOCON of one scenario file into a {@link Scenario}, reporting every problem to
 * {@link Problems} as {@code file:line: key: reason}: unknown keys, values of the wrong type, a
 * topology that does not load, generators whose destination no route reaches or whose regions
 * overlap, faults aimed at things the topology does not have or at times outside the run, and
 * kinds the catalog does not know. Problems of the topology file itself are kept apart, with that
 * file's own names and lines.
 *
 * <p>This class reads the top level (name, mode, seed) and puts the sections together in the
 * order they depend on one another; each section has its own class ({@link TopologySection},
 * {@link RunSection}, {@link TrafficSection}, {@link FaultSection}, {@link RandomFaultsSection},
 * {@link InvariantSection}, ...), sharing the file's state through {@link ScenarioFile}.
 */
final class ScenarioParser {

  static final String ROOT = "scenario";
  static final long DEFAULT_SEED = 1;

  private final ScenarioFile file;
  private final Problems problems;
  private final List<String> topologyProblems = new ArrayList<>();
  private final ScenarioOptions options;
  private final Path baseDir;
  private final KindParams kindParams;

  /**
   * @param baseDir where a {@code topology} path is resolved from (the scenario file's folder),
   *     or null to resolve it from the working directory
   */
  ScenarioParser(Problems problems, KindCatalog<?, ?, ?> catalog, ScenarioOptions options, Path baseDir) {
    this.file = new ScenarioFile(problems, catalog);
    this.problems = problems;
    this.options = options;
    this.baseDir = baseDir;
    this.kindParams = new KindParams(file);
  }

  /** The problems of the topology file the scenario names, in that file's terms. */
  List<String> topologyProblems() {
    return topologyProblems;
  }

  Scenario parse(ConfigObject root) {
    for (String k : root.keySet()) {
      if (!k.equals(ROOT)) {
        problems.add(root.get(k).origin(), k, "unknown key; allowed at top level: " + ROOT);
      }
    }
    ConfigValue v = root.get(ROOT);
    if (v == null || v.valueType() != ConfigValueType.OBJECT) {
      problems.add(v == null ? root.origin() : v.origin(), ROOT, v == null
          ? "missing (required): the file must hold one scenario { ... }"
          : "expected an object { ... }, got " + Fields.describe(v));
      return null;
    }
    Fields f = new Fields((ConfigObject) v, ROOT, problems);
    f.allowOnly("name", "description", "topology", "mode", "seed", "run", "multi-jvm", "control-plane",
        "nic-stream", "control-requests", "traffic", "faults", "random-faults", "invariants", "figures", FtgmCampaignSection.KEY,
        SettingsSection.KEY, GpuCopiesSection.KEY, DiskReadsSection.KEY,
        GpuPingPongSection.KEY, LoansSection.KEY, VmsSection.KEY);
    String name = name(f);
    String description = f.string("description", false);
    TopologyRef topology = TopologySection.parse(f, baseDir, topologyProblems);
    Mode mode = mode(f);
    long seed = seed(f);
    file.seed(seed);
    Scenario.MultiJvm multiJvm = MultiJvmSection.parse(f, mode, options);
    RunSection run = RunSection.parse(f, mode);

    TrafficSection trafficSection = new TrafficSection(file);
    List<TrafficSection.TrafficDraft> drafts =
        f.objects("traffic", false).stream().map(trafficSection::draft).toList();
    RunLength length = run.length(TrafficSection.modelEnd(run.duration(), drafts));
    List<TrafficSpec> traffic = topology == null ? List.of()
        : trafficSection.traffic(drafts, length, topology.topology());
    ScenarioContext context = topology == null ? null
        : new ScenarioContext(topology.topology(), mode, length, traffic, multiJvm);
    drafts.stream().filter(d -> d.name != null).forEach(d -> file.declaredTraffic.add(d.name));

    FaultSection faultSection = new FaultSection(file, kindParams);
    List<FaultSpec> faults = new ArrayList<>();
    Map<FaultSpec, Fields> written = new java.util.IdentityHashMap<>();
    for (Fields item : f.objects("faults", false)) {
      FaultSpec fault = faultSection.fault(item, context, length, mode);
      if (fault != null) {
        faults.add(fault);
        written.put(fault, item);
      }
    }
    for (FaultSpec fault : faults) {
      NodeRestarts.problem(fault, faults).ifPresent(p -> written.get(fault).error("at", p));
    }
    faults.addAll(new RandomFaultsSection(file, kindParams).randomFaults(f, context, length, mode, seed, faults));
    options.faultRates().forEach((kind, rate) -> FaultRates.problem(kind, rate, file.catalog)
        .ifPresent(p -> problems.add(file.display, -1, "fault-rates", p)));
    faults = FaultRates.keep(faults, options.faultRates(), seed);
    List<InvariantSpec> invariants = new InvariantSection(file, kindParams).invariants(f, context);
    ControlPlaneSection.Modes controlPlane = ControlPlaneSection.controlPlane(f, topology);
    Map<String, String> elsewhere = new HashMap<>();
    run.linkTimers().keySet()
        .forEach(k -> elsewhere.put(k, "run.link-timers." + k.substring(k.lastIndexOf('.') + 1)));
    if (controlPlane.takeover() != null) {
      elsewhere.put(Scenario.TAKEOVER_KEY, "control-plane.takeover");
    }
    Map<String, String> settings = SettingsSection.parse(f, options.settings(), elsewhere, problems);
    FtgmCampaign campaign = FtgmCampaignSection.parse(f, topology, mode, options.mode() != null, seed,
        ScenarioSettings.config(settings), problems);
    List<String> figures = campaign != null && !f.has("figures") ? List.of(FtgmCampaign.FIGURES)
        : new FigureSection(file).figures(f);
    NicStream nicStream = NicStreamSection.nicStream(f, topology, problems);
    ControlRequests controlRequests = ControlPlaneSection.controlRequests(f, topology, problems);
    List<GpuCopies> gpuCopies = new GpuCopiesSection(file).workloads(f, topology, mode,
        ScenarioSettings.config(settings));
    Map<String, VmsSection.Vm> vms = VmsSection.parse(f, topology);
    List<DiskReads> diskReads = new DiskReadsSection(file).workloads(f, topology, mode,
        ScenarioSettings.config(settings), vms);
    List<GpuPingPong> gpuPingPongs = new GpuPingPongSection(file).workloads(f, topology, mode, vms);
    List<LoanStep> loans = new LoansSection(file).steps(f, topology, length, gpuCopies, diskReads);
    List<GuestPlan> guests = new GuestSection(file).plans(f, topology, vms, length);
    if (!guests.isEmpty() && mode == Mode.MULTI_JVM) {
      f.error(VmsSection.KEY, "a VM's guest actions are trapped by its host's hypervisor, which runs in the driving"
          + " JVM next to the host's endpoint: mode must be single-jvm");
    }
    long deviceWorkloads = java.util.stream.Stream.of(gpuCopies, diskReads, gpuPingPongs)
        .filter(w -> !w.isEmpty()).count();
    boolean diskReadsTimed = !diskReads.isEmpty() && diskReads.get(0).atNs() != DiskReads.AT_QUIET;
    if ((!loans.isEmpty() || guests.stream().anyMatch(GuestPlan::borrows))
        && ((!diskReads.isEmpty() && !diskReadsTimed) || !gpuPingPongs.isEmpty())) {
      // Those start a workload at the rack's quiet, which pending loan steps keep away.
      f.error(LoansSection.KEY, "loans (and a VM guest's actions that borrow) run beside gpu-copies, and beside"
          + " disk-reads whose first workload gives at (a model time after the borrow), not beside gpu-ping-pong"
          + " or untimed disk-reads (each of their workloads starts once the rack is quiet): give the first"
          + " disk-reads an at, or the workloads another scenario");
    }
    if (deviceWorkloads > 1) {
      // Each holds the rack at model times of its own to start its workloads: one per scenario.
      f.error("gpu-copies, disk-reads and gpu-ping-pong each run their workloads on a schedule of their own:"
          + " give one of them per scenario");
    }

    if (!problems.isEmpty() || !topologyProblems.isEmpty() || topology == null) {
      return null;
    }
    return new Scenario(name, description, file.display, topology, mode, seed, length, multiJvm, traffic, faults,
        invariants, figures, nicStream, controlPlane.takeover(), controlPlane.baseline(), controlRequests,
        campaign, run.reproducible(), file.wallTime.sorted(), settings, gpuCopies,
        diskReads, gpuPingPongs, loans, guests);
  }

  /** The scenario's name, or the file's name without {@code .conf} when it has none. */
  private String name(Fields f) {
    String name = f.string("name", false);
    if (name != null && !ScenarioFile.NAME.matcher(name).matches()) {
      f.error("name", "name '" + name + "' must be letters, digits, '_', '-' or '.' (it names the run's folder)");
    }
    if (name == null) {
      String base = Path.of(file.display).getFileName().toString();
      name = base.endsWith(".conf") ? base.substring(0, base.length() - 5) : base;
      // The file's name names the run's folder, and the folder goes into the journal's H2 URL:
      // a name such as "x;INIT=..." would be read as SQL to run.
      if (!ScenarioFile.NAME.matcher(name).matches()) {
        problems.add(file.display, -1, "name", "missing, and the file name '" + JournalPaths.printable(name)
            + "' cannot stand for it: a scenario's name must be letters, digits, '_', '-' or '.' (it names"
            + " the run's folder); add name = ... or rename the file");
      }
    }
    return name;
  }

  private Mode mode(Fields f) {
    if (options.mode() != null) {
      return options.mode();
    }
    String text = f.string("mode", false);
    if (text == null) {
      return Mode.SINGLE_JVM;
    }
    Optional<Mode> m = Mode.parse(text);
    if (m.isEmpty()) {
      f.error("mode", "mode=" + text + " not in {single-jvm, multi-jvm}");
      return Mode.SINGLE_JVM;
    }
    return m.get();
  }

  private long seed(Fields f) {
    if (options.seed() != null) {
      return options.seed();
    }
    String text = f.string("seed", false);
    if (text == null) {
      return DEFAULT_SEED;
    }
    try {
      return Long.parseLong(text.replace("_", ""));
    } catch (NumberFormatException e) {
      f.error("seed", "seed=" + text + " is not a whole number");
      return DEFAULT_SEED;
    }
  }

}
