package io.rackfabric.cluster.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.typesafe.config.ConfigFactory;
import io.rackfabric.cluster.management.DiscoveryRun;
import io.rackfabric.cluster.management.OverFabricDiscovery;
import io.rackfabric.cluster.management.TopologyFabric;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.fabric.management.PacketTrace;
import io.rackfabric.fabric.management.Pi4ReadRequest;
import io.rackfabric.fabric.settings.FabricSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code rack fabric discover --topology F [--from HOST] [--json] [--trace] [--window N]}. */
@Command(name = "fabric",
    description = "the fabric manager (AS-FM): discover --topology F [--from HOST] [--json] [--trace] [--over-fabric]",
    subcommands = {FabricRackCommand.Discover.class})
public final class FabricRackCommand extends PicocliRackCommand {

  @Override
  public Integer call() throws UsageException {
    throw new UsageException("expected 'rack fabric discover --topology F'");
  }

  @Command(name = "discover",
      description = {"discover a topology with the fabric manager's PI-4 reads from one endpoint and check what it"
          + " finds against the topology file",
          "Structural: the reads are answered by the topology's devices as they start (every port trained), not"
          + " carried by the fabric's actors, so there is no model time; it prints the packets by kind and bytes,"
          + " the wall time of the walk, the devices found and every difference from the file."
          + " With --over-fabric the rack is also started in one JVM and discovered over its emulated fabric, in"
          + " model time: the model time taken, the packets, what it found and its differences from the file."
          + " Exit status: 0 no difference, 1 differences (or a discovery over the fabric that did not finish),"
          + " 2 bad arguments."})
  static final class Discover implements Callable<Integer> {

    @ParentCommand
    FabricRackCommand parent;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help")
    boolean help;

    @Option(names = "--topology", required = true, paramLabel = "FILE|NAME",
        description = "a topology file or a bundled name")
    String topology;

    @Option(names = "--from", paramLabel = "HOST",
        description = "the endpoint the fabric manager runs on (default: the control-plane master, else the first"
            + " root, else the first endpoint)")
    String from;

    @Option(names = "--json", description = "print the result as one JSON document instead of text")
    boolean json;

    @Option(names = "--trace", description = "first print every packet in the order it travels (AS-FM Fig. 9)")
    boolean trace;

    @Option(names = "--over-fabric",
        description = "also discover over the emulated fabric, in model time (the rack started in one JVM)")
    boolean overFabric;

    @Option(names = "--window", paramLabel = "N", defaultValue = "64",
        description = "read requests outstanding at once, 1..65536 (default ${DEFAULT-VALUE})")
    int window;

    @Override
    public Integer call() throws UsageException {
      PicocliRackCommand.inRange("--window", window, 1, Pi4ReadRequest.MAX_TRANSACTION + 1);
      Topology t = TopologyArgs.load(topology);
      TopologyFabric fabric;
      try {
        fabric = TopologyFabric.of(t, FabricSettings.create(ConfigFactory.load()));
      } catch (IllegalArgumentException e) {
        throw new UsageException("--topology: " + e.getMessage());
      }
      String fm = from != null ? from : DiscoveryRun.defaultFrom(fabric);
      if (fm == null) {
        throw new UsageException("--topology: " + t.name() + " has no endpoint for the fabric manager to run on");
      }
      DiscoveryRun run;
      PacketTrace lines = new PacketTrace();
      try {
        run = DiscoveryRun.run(fabric, fm, window,
            p -> {
              if (trace && !json) {
                parent.out.println(lines.line(p));
              }
            });
      } catch (IllegalArgumentException e) {
        throw new UsageException("--from: " + e.getMessage());
      }
      OverFabricDiscovery.Result over;
      if (json) {
        over = overFabric ? overFabric(fm) : null;
        Map<String, Object> doc = new LinkedHashMap<>(run.toJson());
        if (over != null) {
          doc.put("overFabric", over.toJson());
        }
        try {
          parent.out.println(new ObjectMapper().writeValueAsString(doc));
        } catch (JsonProcessingException e) {
          throw new IllegalStateException("the discovery's JSON: " + e.getMessage(), e);
        }
      } else {
        parent.out.print(run.toText());
        over = overFabric ? overFabric(fm) : null;
        if (over != null) {
          parent.out.print(over.toText());
        }
      }
      boolean same = run.differences().isEmpty() && (over == null || over.discovered() && over.differences().isEmpty());
      return same ? 0 : 1;
    }

    /**
     * The same discovery over the emulated fabric, from {@code fm} (checked by the structural walk);
     * a file is handed on by its absolute path, the run's folder being its own. Progress goes to
     * the error stream, so that --json stays one document.
     */
    private OverFabricDiscovery.Result overFabric(String fm) throws UsageException {
      OverFabricDiscovery discovery = OverFabricDiscovery.find().orElseThrow(() -> new UsageException(
          "--over-fabric: the scenario runner (module load-tests) is not on the class path"));
      Path file = Path.of(topology);
      String named = Files.isRegularFile(file) ? file.toAbsolutePath().toString() : topology;
      try {
        return discovery.discover(named, fm, window, json ? parent.err : parent.out);
      } catch (IllegalArgumentException e) {
        throw new UsageException("--over-fabric: " + e.getMessage());
      } catch (Exception e) {
        throw new IllegalStateException("--over-fabric: the rack's run failed: " + e.getMessage(), e);
      }
    }
  }
}