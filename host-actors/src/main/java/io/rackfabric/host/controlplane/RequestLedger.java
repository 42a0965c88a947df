package io.rackfabric.host.controlplane;

import akka.actor.typed.ActorRef;
import io.rackfabric.host.controlplane.ControlPlaneClient.RequestRecord;
import io.rackfabric.persistence.controller.Controller.OperationResult;
import io.rackfabric.persistence.controller.Controller.Status;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What became of a control-plane driver's requests, without actors or timers: who asked for each
 * and when (wall clock), and, once it is answered or given up, its record, kept in that order,
 * and its requester told once.
 *
 * <p>Not thread-safe: the driver's actor's own.
 */
final class RequestLedger {

  private final Map<Long, ActorRef<OperationResult>> requesters = new HashMap<>();
  private final Map<Long, Long> issuedWall = new HashMap<>();
  private final List<RequestRecord> records = new ArrayList<>();

  /**
   * Request {@code requestSeq} was handed over at wall time {@code wallNs};
   * {@code requester} (or null) hears its end.
   */
  void issued(long requestSeq, ActorRef<OperationResult> requester, long wallNs) {
    issuedWall.put(requestSeq, wallNs);
    if (requester != null) {
      requesters.put(requestSeq, requester);
    }
  }

  /**
   * Request {@code open} ended at wall time {@code wallNs}, answered with {@code result}, or given up
   * when that is null: keeps its record and tells its requester (a give-up as NOT_MASTER with
   * {@code detail}). Returns the record.
   */
  RequestRecord closed(RequestQueue.Open open, OperationResult result, int attempts, String detail, long wallNs) {
    Long issued = issuedWall.remove(open.requestSeq());
    long wall = wallNs - (issued == null ? wallNs : issued);
    RequestRecord r = new RequestRecord(open.requestSeq(), open.operation().at(),
        result == null ? -1 : result.at(), result == null ? null : result.status(), detail, attempts, wall,
        // Every applied request persists at least its RequestApplied: an acceptance without events is a repeat.
        result != null && result.accepted() && result.events().isEmpty());
    records.add(r);
    ActorRef<OperationResult> requester = requesters.remove(open.requestSeq());
    if (requester != null) {
      requester.tell(result != null ? result
          : new OperationResult(Status.NOT_MASTER, 0, open.operation().at(), detail, List.of()));
    }
    return r;
  }

  /** The records so far, in the order the requests ended. */
  List<RequestRecord> records() {
    return Collections.unmodifiableList(records);
  }
}
