package io.rackfabric.fabric.management;

import io.rackfabric.fabric.link.DataLinkState;
import io.rackfabric.fabric.wire.WireMessage;
import java.util.List;

/**
 * What a fabric manager's discovery over the fabric found and cost, in model time (see
 * {@link FabricManagerDriver}): every figure is counted from the packets that travelled or read
 * from the model times they carried.
 *
 * @param fabricManager the endpoint the fabric manager runs on
 * @param startedAt the model time the first read request left (ns); -1 before the discovery started
 * @param discoveredAt the model time the last completion of the discovery arrived (ns); -1 while it runs
 * @param readRequests PI-4 read requests of the discovery and every rediscovery, with their bytes
 * @param completions PI-4 read completions with data taken, with their bytes
 * @param errorCompletions PI-4 read completions with error taken
 * @param writes PI-4 writes sent to program event routes
 * @param activationWrites PI-4 writes that activated a port found in DL_Protected (AS-FM section
 *     2.2), the fabric manager's own port's local write included
 * @param events PI-5 events taken
 * @param devices devices in the topology database, the fabric manager's own included
 * @param links links in it
 * @param problems what the walk could not make sense of
 * @param differences every difference from the topology file at the end of the discovery (empty:
 *     none; null: no file to check against)
 * @param rediscoveries one per PI-5 event acted on, in order
 * @param discoveryReadRequests read requests from the start to {@code discoveredAt}: the
 *     discovery's, or after a take-over from a kept database those of its re-reads
 * @param copy the topology database sent to the secondary or kept by it; null when none was
 * @param election the election as this candidate saw it; null when there was none
 * @param paths the paths it computed and distributed; null when it distributes none
 * @param processingNs model time it spent processing packets and devices ({@link ProcessingCost}), ns
 * @param windows the NTB windows it wrote; null when it writes none
 */
public record FabricManagerReport(String fabricManager, long startedAt, long discoveredAt, long readRequests,
    long readRequestBytes, long completions, long completionBytes, long errorCompletions, long writes, long activationWrites,
    long events,
    int devices, int links, List<String> problems, List<String> differences, List<Rediscovery> rediscoveries,
    long discoveryReadRequests, DatabaseCopy copy, Candidacy.Report election, PathReport paths, long processingNs,
    Windows windows)
    implements WireMessage {

  public FabricManagerReport {
    problems = List.copyOf(problems);
    differences = differences == null ? null : List.copyOf(differences);
    rediscoveries = List.copyOf(rediscoveries);
  }

  /** The same with {@code e} as its election. */
  public FabricManagerReport withElection(Candidacy.Report e) {
    return new FabricManagerReport(fabricManager, startedAt, discoveredAt, readRequests, readRequestBytes, completions,
        completionBytes, errorCompletions, writes, activationWrites, events, devices, links, problems, differences,
        rediscoveries, discoveryReadRequests, copy, e, paths, processingNs, windows);
  }

  /** The same with {@code c} as its database copy. */
  public FabricManagerReport withCopy(DatabaseCopy c) {
    return new FabricManagerReport(fabricManager, startedAt, discoveredAt, readRequests, readRequestBytes, completions,
        completionBytes, errorCompletions, writes, activationWrites, events, devices, links, problems, differences,
        rediscoveries, discoveryReadRequests, c, election, paths, processingNs, windows);
  }

  /**
   * The topology database a primary sent its secondary and a secondary kept (see
   * {@link DatabaseShipper}, {@link DatabaseReplica}).
   *
   * @param sent what this fabric manager sent as primary
   * @param received what it took as secondary
   * @param resumed whether it took over from a kept database (false: it discovered, or did not take over)
   * @param rereads devices it re-read on taking over from the kept database
   * @param eventRouteWrites event routes it re-programmed on taking over from it
   * @param fromController whether the database it took over was the controller's state's (the Ladon
   *     rack), not the copy kept over the fabric
   * @param recorded changes of its database recorded in the controller's state as primary
   */
  public record DatabaseCopy(DatabaseShipper.Counts sent, DatabaseReplica.Counts received, boolean resumed,
      int rereads, long eventRouteWrites, boolean fromController, long recorded)
      implements WireMessage {}

  /**
   * The NTB ports' windows the fabric manager wrote ({@link NtbWindowWriter}).
   *
   * @param ports NTB ports written
   * @param writes PI-4 writes it took (a window each, a header each port)
   * @param lastAt the model time the last of them left; -1 when none did
   * @param notWritten ports of its plan whose chip its database does not have
   * @param differences where its plan differs from what the rack's file programmed
   */
  public record Windows(int ports, long writes, long lastAt, List<String> notWritten, List<String> differences)
      implements WireMessage {

    public Windows {
      notWritten = List.copyOf(notWritten);
      differences = List.copyOf(differences);
    }
  }

  /** The discovery's model time, from the first request leaving to the last completion arriving; -1 unfinished. */
  public long discoveryNs() {
    return discoveredAt < 0 ? -1 : discoveredAt - startedAt;
  }

  /**
   * The partial rediscovery one PI-5 event caused: the device that reported is read again, and
   * only it (and a neighbor a port now leads to that was not known).
   *
   * @param serial the reporting device
   * @param port its port that changed
   * @param state the port's new state
   * @param eventSentAt the model time the device sent the event
   * @param eventAt the model time the event reached the fabric manager
   * @param readRequests read requests the rediscovery took
   * @param completions completions it took
   * @param doneAt the model time its last completion arrived; -1 while it runs
   * @param differences every difference from the topology file once it was done (null: no file)
   * @param devicesAdded devices it found that the database did not have (a port that came up led
   *     to them), each configured as a discovery's
   * @param devicesRemoved devices it left detached, removed from the database with their links
   *     ({@link TopologyDatabase#removeDetached})
   */
  public record Rediscovery(long serial, int port, DataLinkState state, long eventSentAt, long eventAt,
      long readRequests, long completions, long doneAt, List<String> differences, int devicesAdded,
      int devicesRemoved) implements WireMessage {

    public Rediscovery {
      differences = differences == null ? null : List.copyOf(differences);
    }

    /** From the event reaching the fabric manager to the last completion; -1 unfinished. */
    public long ns() {
      return doneAt < 0 ? -1 : doneAt - eventAt;
    }
  }
}
