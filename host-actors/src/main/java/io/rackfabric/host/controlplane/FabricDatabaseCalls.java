package io.rackfabric.host.controlplane;

import akka.actor.typed.ActorRef;
import io.rackfabric.fabric.endpoint.GuestCall;
import io.rackfabric.host.controlplane.ControlPlaneHost.Role;
import io.rackfabric.persistence.controller.Controller;
import io.rackfabric.persistence.controller.Controller.CurrentState;
import io.rackfabric.persistence.controller.Controller.OperationResult;
import java.util.ArrayDeque;
import java.util.Deque;
import org.slf4j.Logger;

/**
 * The fabric manager's topology database in the controller's event-sourced state (the Ladon rack,
 * {@code keep-fabric-database}): the host's endpoint calls it with each change its fabric manager
 * made as primary ({@link GuestCall.FabricDatabaseChanged}), which a master records as an operation
 * like any other (replicated to the backup before it is persisted and answered); the call ends with
 * the answer, so the endpoint goes on only once the backup holds the change. Taking over, the
 * endpoint asks for the database ({@link GuestCall.FabricDatabaseWanted}): the host reads its
 * controller's state, or its replica's on a backup, and tells the endpoint what it holds before it
 * ends the call. A change reaching a host that is not the master is not recorded (answered at once);
 * kept here as a full copy, it is recorded with the first change that reaches the host once it is
 * master (inside that change's call, so at its model time, in the journal's deterministic order).
 * Not thread-safe: the host's actor's own.
 */
final class FabricDatabaseCalls {

  /** What the calls need of their host ({@link HostCore}): whether it serves, its controller, its state. */
  interface Host {
    /** Whether a master must refuse: cut off from its backup, it could not replicate. */
    boolean cutOffMaster(Role role);

    /** Sends {@code op} to the controller (queued or refused as any request). */
    void admit(Controller.Operation op, Role role);

    /** Tells {@code replyTo} the controller's state, or the replica's on a backup. */
    void tellState(ActorRef<CurrentState> replyTo);
  }

  private final String name;
  private final HostGuest guest;
  private final Logger log;
  private final ActorRef<OperationResult> recorded;
  private final ActorRef<CurrentState> stateRead;
  /** Changes sent to the controller, in order (it answers them in order). */
  private final Deque<GuestCall> recording = new ArrayDeque<>();
  /** Calls asking for the database, in order of their state reads. */
  private final Deque<GuestCall> wanting = new ArrayDeque<>();
  private long notRecorded;
  /**
   * What this host's fabric manager changed while the host could not record it (a backup whose
   * fabric manager took over before its control plane did), as a full copy; null: nothing, or
   * deltas with no full copy under them.
   */
  private io.rackfabric.fabric.management.DatabaseDelta unrecorded;

  FabricDatabaseCalls(String name, HostGuest guest, Logger log, ActorRef<OperationResult> recorded,
      ActorRef<CurrentState> stateRead) {
    this.name = name;
    this.guest = guest;
    this.log = log;
    this.recorded = recorded;
    this.stateRead = stateRead;
  }

  /**
   * Takes {@code call} if it is one of these: a change a serving master records through
   * {@code host}, a request for the database it reads from {@code host}'s state. False: not one.
   */
  boolean called(GuestCall call, Host host, Role role) {
    if (call instanceof GuestCall.FabricDatabaseChanged c) {
      if (role != Role.MASTER || host.cutOffMaster(role)) {
        notRecorded++;
        unrecorded = c.change().full() ? c.change() : unrecorded == null ? null : unrecorded.then(c.change());
        log.info("Host [{}] {}: a fabric database change at {} ns is not recorded ({}): not the serving master; {}",
            name, role, c.at(), c.change().summary(), unrecorded == null ? "nothing kept to record later"
                : "recorded with its next change once it serves");
        guest.answer(call);
        return true;
      }
      recording.add(call);
      io.rackfabric.fabric.management.DatabaseDelta change = c.change();
      if (unrecorded != null) { // what changed while it was not master, whole, with this change on top
        change = change.full() ? change : unrecorded.then(change);
        log.info("Host [{}] records with this change what its fabric manager changed while it was not master: {}",
            name, change.summary());
        unrecorded = null;
      }
      host.admit(new Controller.RecordFabricDatabase(name, change, c.at(), c.at(), recorded), role);
      return true;
    }
    if (call instanceof GuestCall.FabricDatabaseWanted) {
      wanting.add(call);
      host.tellState(stateRead);
      return true;
    }
    return false;
  }

  /** The controller answered the oldest change: its call ends. */
  void answered(OperationResult result) {
    GuestCall call = recording.poll();
    if (call == null) {
      return;
    }
    if (!result.accepted()) {
      notRecorded++;
      log.warn("Host [{}]: the fabric database change was not recorded: {} {}", name, result.status(), result.detail());
    }
    guest.answer(call);
  }

  /** The state was read for the oldest request: the endpoint gets its database, then the call ends. */
  void stateRead(CurrentState state) {
    GuestCall call = wanting.poll();
    if (call == null) {
      return;
    }
    var database = state == null ? null : state.state().fabricDatabase().orElse(null);
    String manager = state == null ? null : state.state().fabricManager().orElse(null);
    log.info("Host [{}]: the fabric manager takes over; the controller's state (seqNr {}) holds {}", name,
        state == null ? -1 : state.lastSeqNr(), database == null ? "no fabric database" : database.summary());
    guest.fabricDatabaseKept(manager, database);
    guest.answer(call);
  }

  /** Changes handed to this host that were not recorded (not the serving master, or refused). */
  long notRecorded() {
    return notRecorded;
  }
}
