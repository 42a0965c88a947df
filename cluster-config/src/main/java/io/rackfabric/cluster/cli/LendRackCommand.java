package io.rackfabric.cluster.cli;

import io.rackfabric.cluster.lending.LoanPlanException;
import io.rackfabric.cluster.lending.LoanPlanner;
import io.rackfabric.cluster.topology.EndpointSpec;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.cluster.topology.TopologyException;
import io.rackfabric.cluster.topology.TopologyLoader;
import io.rackfabric.persistence.replay.JournalReader;
import io.rackfabric.persistence.replay.Journals;
import io.rackfabric.persistence.replay.Replay;
import io.rackfabric.persistence.replay.ReplayException;
import io.rackfabric.persistence.replay.ReplayText;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code rack lend --topology F [--device D] [--borrower B]}: which devices of a topology can be
 * lent to which hosts (Device Lending), and through which addresses: each BAR as the borrower
 * reaches it, the DMA window into the borrower's RAM; or why a loan cannot be made. Exit 0 when
 * every loan asked about can be made (with neither option: when some can), 1 when not, 2 for bad
 * arguments or a bad topology.
 *
 * <p>{@code rack lend --journal DIR [--id ID]}: the offers, loans and DMA buffer mappings a
 * controller's journal holds at its end (a run's {@code data} folder), for each controller in it
 * or the one named. Exit 0, 2 for a journal that is missing, in use, corrupt or foreign.
 */
@Command(name = "lend",
    description = {"list the loans a topology can carry: --topology F [--device D] [--borrower B];"
        + " or the offers and loans a controller's journal holds: --journal DIR [--id ID]",
        "For each lendable device (an endpoint with 'device = gpu' or 'device = disk'), its lender and, for each"
        + " other host, the addresses through which that host would reach its BARs and the DMA window through"
        + " which it would reach the host's RAM, checked by routing through the topology; or why not."
        + " Exit status: 0 the loans asked about can be made, 1 some cannot, 2 bad arguments."})
public final class LendRackCommand extends PicocliRackCommand {

  @Option(names = "--topology", paramLabel = "FILE|NAME",
      description = "a topology file or a bundled name")
  String topology;

  @Option(names = "--journal", paramLabel = "DIR",
      description = "a controller journal file (<node>.mv.db) or a data folder (a run's data): its offers and loans")
  String journal;

  @Option(names = "--id", paramLabel = "ID", description = "with --journal: one controller's persistence id")
  String id;

  @Option(names = "--device", paramLabel = "ID", description = "only this device")
  String device;

  @Option(names = "--borrower", paramLabel = "HOST", description = "only loans to this host")
  String borrower;

  @Override
  public Integer call() throws UsageException {
    if ((topology == null) == (journal == null)) {
      throw new UsageException("give --topology (the loans it can carry) or --journal (the loans a controller"
          + " holds), one of them");
    }
    if (journal != null) {
      if (device != null || borrower != null) {
        throw new UsageException("--device and --borrower go with --topology, not --journal");
      }
      return held();
    }
    if (id != null) {
      throw new UsageException("--id goes with --journal");
    }
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

  /** Each controller's (or the named one's) offers, loans and mappings at the journal's end. */
  private int held() throws UsageException {
    try (Journals journals = Journals.open(Path.of(journal))) {
      List<String> ids = id != null ? List.of(id) : List.copyOf(journals.ids());
      for (String which : ids) {
        JournalReader reader = journals.require(which);
        long last = reader.summary(which).map(x -> x.highestSeqNr()).orElse(0L);
        out.print(ReplayText.lending(Replay.stateAt(reader, which, last)));
      }
      return 0;
    } catch (ReplayException e) {
      throw new UsageException(e.getMessage());
    }
  }
}
