package io.rackfabric.cluster.cli;

import io.rackfabric.cluster.lending.LoanPlanException;
import io.rackfabric.cluster.lending.LoanPlanner;
import io.rackfabric.cluster.topology.EndpointSpec;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.cluster.topology.TopologyException;
import io.rackfabric.cluster.topology.TopologyLoader;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code rack lend --topology F [--device D] [--borrower B]}: which devices of a topology can be
 * lent to which hosts (Device Lending), and through which addresses: each BAR as the borrower
 * reaches it, the DMA window into the borrower's RAM; or why a loan cannot be made. Exit 0 when
 * every loan asked about can be made (with neither option: when some can), 1 when not, 2 for bad
 * arguments or a bad topology.
 */
@Command(name = "lend",
    description = {"list the loans a topology can carry: --topology F [--device D] [--borrower B]",
        "For each lendable device (an endpoint with 'device = gpu' or 'device = disk'), its lender and, for each"
        + " other host, the addresses through which that host would reach its BARs and the DMA window through"
        + " which it would reach the host's RAM, checked by routing through the topology; or why not."
        + " Exit status: 0 the loans asked about can be made, 1 some cannot, 2 bad arguments."})
public final class LendRackCommand extends PicocliRackCommand {

  @Option(names = "--topology", required = true, paramLabel = "FILE|NAME",
      description = "a topology file or a bundled name")
  String topology;

  @Option(names = "--device", paramLabel = "ID", description = "only this device")
  String device;

  @Option(names = "--borrower", paramLabel = "HOST", description = "only loans to this host")
  String borrower;

  @Override
  public Integer call() throws UsageException {
    Topology t;
    try {
      t = TopologyLoader.loadFileOrBundled(topology);
    } catch (TopologyException e) {
      e.problems().forEach(err::println);
      throw new UsageException("the topology has problems; see 'rack topology check'");
    }
    LoanPlanner planner = new LoanPlanner(t);
    List<EndpointSpec> devices = planner.devices();
    if (device != null) {
      if (t.endpoint(device).isEmpty()) {
        throw new UsageException("--device: " + device + " is not an endpoint of " + t.name());
      }
      devices = t.endpoint(device).stream().toList();
    }
    if (borrower != null && t.endpoint(borrower).filter(EndpointSpec::root).isEmpty()) {
      throw new UsageException("--borrower: " + borrower + " is not a root (a host) of " + t.name());
    }
    if (devices.isEmpty()) {
      out.println(t.name() + " has no lendable device (mark one with 'device = gpu' or 'device = disk')");
      return 1;
    }
    int made = 0;
    int refused = 0;
    for (EndpointSpec d : devices) {
      String lender = planner.lenderOf(d.id()).orElse(null);
      for (EndpointSpec host : planner.hosts()) {
        if ((borrower != null && !host.id().equals(borrower)) || (borrower == null && host.id().equals(lender))) {
          continue;
        }
        try {
          out.print(LoanPlanner.text(planner.plan(d.id(), host.id())));
          made++;
        } catch (LoanPlanException e) {
          out.println(d.id() + " -> " + host.id() + ": cannot be lent: " + e.getMessage());
          refused++;
        }
      }
    }
    boolean asked = device != null || borrower != null;
    return asked ? (refused == 0 && made > 0 ? 0 : 1) : (made > 0 ? 0 : 1);
  }
}
