package io.rackfabric.cluster.cli;

import io.rackfabric.cluster.topology.RouteExplainer;
import io.rackfabric.cluster.topology.RouteExplanation;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.cluster.topology.TopologyException;
import io.rackfabric.cluster.topology.TopologyLoader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code rack route --topology F --from C --addr A [--read]}: explains where a memory request goes
 * in a topology's initial state. Exit 0 when it is delivered (every copy, for multicast), 1 when it
 * ends in an Unsupported Request or a drop, 2 for bad arguments or a bad topology.
 */
@Command(name = "route",
    description = {"explain where a TLP goes: --topology F --from C --addr A [--read] [--iommu HOST]",
        "Explains, hop by hop, where a memory write (or with --read a read) of ADDRESS issued by COMPONENT"
        + " goes. Exit status: 0 delivered, 1 Unsupported Request or dropped, 2 bad arguments."})
public final class RouteRackCommand extends PicocliRackCommand {

  @Option(names = "--topology", required = true, paramLabel = "FILE|NAME",
      description = "a topology file or a bundled name")
  String topology;

  @Option(names = "--from", required = true, paramLabel = "COMPONENT",
      description = "an endpoint id, or switch.port for a request entering that switch through that port")
  String from;

  @Option(names = "--addr", required = true, paramLabel = "ADDRESS", converter = SizeConverter.class,
      description = "hex (0xB0040) or a size (32GiB)")
  long address;

  @Option(names = "--read", description = "a memory read instead of a write")
  boolean read;

  @Option(names = "--iommu", paramLabel = "HOST",
      description = "this host's IOMMU on: its devices' requests to each other go through its root (repeatable)")
  java.util.List<String> iommu = java.util.List.of();

  @Override
  public Integer call() throws UsageException {
    Topology t;
    try {
      t = TopologyLoader.loadFileOrBundled(topology);
    } catch (TopologyException e) {
      e.problems().forEach(err::println);
      throw new UsageException("the topology has problems; see 'rack topology check'");
    }
    for (String host : iommu) {
      try {
        t = io.rackfabric.cluster.topology.HostIommu.enable(t, host);
      } catch (IllegalArgumentException e) {
        throw new UsageException("--iommu: " + e.getMessage());
      }
    }
    RouteExplanation explanation;
    try {
      explanation = new RouteExplainer(t).explain(from, address, read);
    } catch (IllegalArgumentException e) {
      throw new UsageException("--from: " + e.getMessage());
    }
    out.print(explanation.toText());
    return explanation.delivered() ? 0 : 1;
  }
}
