package io.rackfabric.host.controlplane;

import akka.Done;
import io.rackfabric.persistence.controller.ControllerEvent;
import io.rackfabric.persistence.controller.Replication;
import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * The replication step of a master that may gain a backup while it serves: none after a take-over,
 * the link to a rejoined backup once its state transfer is persisted. The host changes it only
 * while nothing is in flight (the master quiesces to admit a backup), so every operation is
 * replicated to the backup that held the state it was decided on; volatile because the controller
 * calls it on its own thread.
 */
final class BackupLink implements Replication {

  private volatile Replication target = Replication.none();
  /** The running controller replicates through this link (started by a take-over). */
  private boolean controllerUses;
  private boolean linked;

  /** A controller starts with {@code replication}: whether it is this link decides what a rejoin may do. */
  void controllerStarts(Replication replication) {
    controllerUses = replication == this;
    if (controllerUses) {
      unlink();
    }
  }

  /** Whether a backup can be linked in: the controller replicates through this link and none is linked. */
  boolean canAdmit() {
    return controllerUses && !linked;
  }

  /** From the next operation on, every one is replicated by {@code replication} (to the rejoined backup). */
  void link(Replication replication) {
    target = replication;
    linked = true;
  }

  /** No backup any more: persisted and acknowledged at once. */
  void unlink() {
    target = Replication.none();
    linked = false;
  }

  @Override
  public CompletionStage<Done> replicate(long firstSeqNr, List<ControllerEvent> events) {
    return target.replicate(firstSeqNr, events);
  }
}
