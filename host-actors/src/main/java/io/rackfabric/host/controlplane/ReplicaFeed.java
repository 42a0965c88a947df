package io.rackfabric.host.controlplane;

import io.rackfabric.host.controlplane.ControlPlaneHost.Replicate;
import io.rackfabric.persistence.controller.ControllerEvent;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * What the backup hands its replica: the master's operations, each a {@link Replicate}, go to the
 * replica as they come while it has no write going; those that come during a write wait and go
 * together once it is done, as one write of all their events. So under load the replica writes
 * batches instead of one event per journal write, and each operation still waits for its own
 * events to be persisted before it is acknowledged. A batch is a run of operations whose numbers
 * follow on; anything else goes in a batch of its own, for the replica to judge as before (a gap,
 * a resend).
 *
 * <p>Which operations share a write depends on wall time; what the replica ends up holding, and
 * what each operation is answered, does not. Not thread-safe: the host's own.
 */
final class ReplicaFeed {

  /** Operations whose events go to the replica in one write, numbered from {@link #firstSeqNr}. */
  record Batch(List<Replicate> requests) {

    Batch {
      if (requests.isEmpty()) {
        throw new IllegalArgumentException("requests=" + requests + ": a batch has at least one operation");
      }
      requests = List.copyOf(requests);
    }

    long firstSeqNr() {
      return requests.get(0).firstSeqNr();
    }

    List<ControllerEvent> events() {
      List<ControllerEvent> events = new ArrayList<>();
      requests.forEach(r -> events.addAll(r.events()));
      return events;
    }
  }

  private final ArrayDeque<Replicate> waiting = new ArrayDeque<>();
  private int writing;

  /** An operation came from the master: the batches to send the replica now (none while it writes). */
  List<Batch> arrived(Replicate request) {
    waiting.addLast(request);
    return writing == 0 ? flush() : List.of();
  }

  /** The replica answered one batch: the batches to send now, the ones that waited meanwhile. */
  List<Batch> answered() {
    if (writing == 0) {
      throw new IllegalStateException("answered with no batch at the replica");
    }
    writing--;
    return writing == 0 ? flush() : List.of();
  }

  /**
   * Everything that waits, as batches to send now, whatever is being written: what the backup
   * took before its replica's state is read must be in that state.
   */
  List<Batch> flush() {
    List<Batch> batches = new ArrayList<>();
    List<Replicate> run = new ArrayList<>();
    long next = -1;
    while (!waiting.isEmpty()) {
      Replicate r = waiting.pollFirst();
      if (!run.isEmpty() && r.firstSeqNr() != next) {
        batches.add(new Batch(run));
        run = new ArrayList<>();
      }
      run.add(r);
      next = r.firstSeqNr() + r.events().size();
    }
    if (!run.isEmpty()) {
      batches.add(new Batch(run));
    }
    writing += batches.size();
    return batches;
  }

  /** Batches sent and not yet answered. */
  int writing() {
    return writing;
  }

  /** Operations waiting for the replica's write to end. */
  int waiting() {
    return waiting.size();
  }
}
