package io.rackfabric.loadtests.cli;

import io.rackfabric.cluster.cli.PicocliRackCommand;
import io.rackfabric.cluster.cli.UsageException;
import io.rackfabric.cluster.node.ClusterSettings;
import io.rackfabric.loadtests.scenario.RunCommand;
import io.rackfabric.loadtests.scenario.ScenarioKinds;
import io.rackfabric.loadtests.scenario.language.FaultRates;
import io.rackfabric.loadtests.scenario.language.Mode;
import io.rackfabric.loadtests.scenario.language.ScenarioLoader;
import io.rackfabric.loadtests.scenario.language.ScenarioOptions;
import io.rackfabric.loadtests.scenario.language.ScenarioSettings;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code rack run SCENARIO [flags]} and {@code rack run --replay RUN_DIR [flags]}: picocli parses
 * the flags, this class checks them (usage errors exit 2) and {@link RunCommand} loads, checks or
 * runs the scenario (its exit statuses are this command's).
 */
@Command(name = "run", sortOptions = false,
    // Two forms, which picocli's generated synopsis of twelve flags would not tell apart.
    customSynopsis = {"rack run SCENARIO [--json OUT] [--mode M] [--seed N]",
        "         [--transport T [--tls-dir KEYS]] [--fault-rates KIND=P,...]",
        "         [--set rackfabric.KEY=VALUE]... [--run-dir DIR [--reuse-run-dir]]",
        "         [--check]",
        "   or: rack run --replay RUN_DIR [--json OUT] [--tls-dir KEYS]",
        "         [--run-dir DIR [--reuse-run-dir]] [--check]",
        "   or: rack run --kinds"},
    description = {"run a scenario: topology, traffic, faults, invariants (SCENARIO.conf or a bundled name);"
        + " or a recorded run again (--replay RUN_DIR)",
        "Exit 0 when every invariant held, 1 when one failed, 2 for bad flags or a bad scenario (nothing started),"
        + " 3 when the run needs network namespaces this machine cannot make; 130 or 143 when interrupted."})
public final class RunRackCommand extends PicocliRackCommand {

  // A list checked in call(), so that a missing or extra scenario gets the message naming the bundled ones.
  @Parameters(paramLabel = "SCENARIO", arity = "0..*", completionCandidates = Bundled.class,
      description = "a scenario file (SCENARIO.conf) or a bundled name: ${COMPLETION-CANDIDATES}")
  List<String> scenario = new ArrayList<>();

  @Option(names = "--json", paramLabel = "OUT",
      description = "also write the run's figures, invariants and faults as JSON to OUT (the document result.json"
          + " holds)")
  Path json;

  @Option(names = "--mode", paramLabel = "single-jvm|multi-jvm", completionCandidates = Modes.class,
      description = "the rack in this JVM, or as node JVMs over Artery (default: the scenario's mode)")
  String mode;

  @Option(names = "--seed", paramLabel = "N",
      description = "the seed of every random draw of the run: random-faults, fault times given as ranges"
          + " (default: the scenario's seed)")
  Long seed;

  @Option(names = "--transport", paramLabel = "aeron-udp|tcp|tls-tcp", completionCandidates = Transports.class,
      description = "Artery's transport between the node JVMs of a multi-jvm run (default: the scenario's"
          + " multi-jvm.transport)")
  String transport;

  @Option(names = "--tls-dir", paramLabel = "KEYS",
      description = "the folder 'rack keys' made, for a multi-jvm run over tls-tcp (default: the configured"
          + " stores)")
  String tlsDir;

  @Option(names = "--fault-rates", paramLabel = "KIND=P,...",
      description = "the chance P, from 0 to 1, that each fault of KIND happens; kinds not named keep every fault"
          + " (default: every fault happens)")
  String faultRates;

  @Option(names = "--set", paramLabel = "rackfabric.KEY=VALUE",
      description = "a rackfabric.* setting of every JVM of the run, over the scenario's settings block;"
          + " repeatable, checked before anything starts (default: none)")
  List<String> set = new ArrayList<>();

  @Option(names = "--check", description = "only load and check the scenario (or the record), print its fault"
      + " schedule and run nothing")
  boolean check;

  @Option(names = "--kinds", description = "list every fault, invariant and figure kind with its keys, and exit")
  boolean kinds;

  @Option(names = "--run-dir", paramLabel = "DIR",
      description = "the run's folder: its copy of the scenario, result.json, report.html, logs, journal"
          + " (default: target/rack-runs/NAME-TIME, for a replay NAME-replay-TIME)")
  Path runDir;

  @Option(names = "--reuse-run-dir", description = "delete the journal (data/*.mv.db) an earlier run left in"
      + " --run-dir first; without it such a folder is refused")
  boolean reuseRunDir;

  @Option(names = "--replay", paramLabel = "RUN_DIR",
      description = "run the run recorded in RUN_DIR again: its scenario copy, mode, seed, settings and faults at"
          + " their recorded model times; says whether its figures came out as recorded")
  String replay;

  /** The bundled scenarios, for the help text and bash completion. */
  static final class Bundled implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      return ScenarioLoader.BUNDLED.iterator();
    }
  }

  /** The modes, for bash completion. */
  static final class Modes implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      return Arrays.stream(Mode.values()).map(Mode::toString).iterator();
    }
  }

  /** Artery's transports, for bash completion. */
  static final class Transports implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      return ClusterSettings.TRANSPORTS.iterator();
    }
  }

  @Override
  public Integer call() throws Exception {
    if (reuseRunDir && runDir == null) {
      throw new UsageException("--reuse-run-dir needs --run-dir DIR (the folder whose journal to delete)");
    }
    if (kinds) {
      RunCommand.printKinds(out);
      return 0;
    }
    RunCommand.Options options = new RunCommand.Options(json, runDir, reuseRunDir, check);
    if (replay != null) {
      String taken = mode != null ? "mode" : seed != null ? "seed" : transport != null ? "transport"
          : faultRates != null ? "fault-rates" : !set.isEmpty() ? "set" : null;
      if (taken != null) {
        throw new UsageException("--replay takes the mode, seed, transport, settings and faults from the record;"
            + " drop --" + taken);
      }
      if (!scenario.isEmpty()) {
        throw new UsageException("--replay takes the scenario from the run's folder; drop " + scenario);
      }
      return new RunCommand().replay(replay, tlsDir, options, out, err);
    }
    if (scenario.size() != 1) {
      throw new UsageException("expected one scenario file or bundled name (bundled: "
          + String.join(", ", ScenarioLoader.BUNDLED) + "), got " + scenario);
    }
    return new RunCommand().run(scenario.get(0), overrides(), options, out, err);
  }

  /** The flags that change the scenario's own values, checked. */
  private ScenarioOptions overrides() throws UsageException {
    Mode m = null;
    if (mode != null) {
      m = Mode.parse(mode).orElseThrow(() -> new UsageException("--mode=" + mode + " not in {single-jvm, multi-jvm}"));
    }
    if (transport != null && !ClusterSettings.TRANSPORTS.contains(transport)) {
      throw new UsageException(ClusterSettings.transportNotKnown("--transport", transport));
    }
    Map<String, Double> rates = Map.of();
    if (faultRates != null) {
      try {
        rates = FaultRates.parse(faultRates, ScenarioKinds.standard());
      } catch (IllegalArgumentException e) {
        throw new UsageException("--" + e.getMessage());
      }
    }
    Map<String, String> settings;
    try {
      settings = ScenarioSettings.parseFlags(set);
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    return new ScenarioOptions(m, seed, transport, rates, tlsDir, settings);
  }
}
