package io.rackfabric.loadtests.bench;

import akka.actor.typed.ActorRef;
import akka.actor.typed.ActorSystem;
import akka.actor.typed.Props;
import akka.actor.typed.javadsl.Adapter;
import akka.persistence.typed.PersistenceId;
import io.rackfabric.host.controlplane.ControlPlaneHost;
import io.rackfabric.host.controlplane.ControlPlaneHost.RoleChanged;
import io.rackfabric.host.controlplane.ControlPlaneSettings;
import io.rackfabric.loadtests.harness.Asks;
import java.time.Duration;
import java.util.List;

/**
 * The rejoin's state transfer as {@code rack bench controller} measures it (wall clock): a host
 * with an empty journal (a replacement disk: every event is transferred, the most a rejoin moves)
 * starts FENCED and rejoins the master through the protocol a fenced or restarted host uses
 * ({@link ControlPlaneHost.Rejoin}): a sample of its digest chain offered, the master quiesced, its
 * journal read back and checked, its events sent in chunks of {@code rejoin-chunk-events} (each
 * persisted and acknowledged before the next) with its state's digest, written under the joiner's
 * next tenure, checked against the master's state; timed from the request to the joiner's answer
 * that it is the backup.
 *
 * @param transferred events the joiner received and wrote (all of the master's), under its next
 *     tenure's persistence id ({@code controller-mmh-replacement.tenure-2})
 * @param wallS wall seconds from the request to the joiner's answer
 */
record RejoinTransfer(long transferred, double wallS) {

  /** The joiner's first persistence id: none of the pair's, so its journal starts empty. */
  static final String JOINER_ID = "controller-mmh-replacement";

  RejoinTransfer {
    if (transferred < 0) {
      throw new IllegalArgumentException("transferred=" + transferred + " must be at least 0");
    }
    if (!(wallS > 0)) {
      throw new IllegalArgumentException("wallS=" + wallS + " must be above 0");
    }
  }

  /** Events written per wall second. */
  double eventsPerS() {
    return transferred / wallS;
  }

  /**
   * Starts the joiner beside {@code master} in {@code system} and times its rejoin; the master
   * stands at {@code masterLastSeqNr}. The joiner is stopped once timed, so that what the run
   * measures next is the master alone, as before, and the joiner does not take over when the
   * master stops at the run's end.
   */
  static RejoinTransfer measure(ActorSystem<?> system, ActorRef<ControlPlaneHost.Command> master,
      long masterLastSeqNr, ControlPlaneSettings settings, Duration timeout) throws Exception {
    ActorRef<ControlPlaneHost.Command> joiner = system.systemActorOf(ControlPlaneHost.create("mmh-replacement",
        ControlPlaneHost.Role.FENCED, PersistenceId.ofUniqueId(JOINER_ID), settings, List.of()), "mmh-replacement",
        Props.empty());
    long t0 = System.nanoTime();
    try {
      RoleChanged r = Asks.ask(system, joiner, to -> new ControlPlaneHost.Rejoin(master, to), timeout);
      return of(r, masterLastSeqNr, (System.nanoTime() - t0) / 1e9);
    } finally {
      system.classicSystem().stop(Adapter.toClassic(joiner));
    }
  }

  /**
   * What the joiner's answer {@code r}, {@code wallS} after its request, says was transferred; a
   * refused rejoin, or one that ended anywhere but at the master's {@code masterLastSeqNr}, fails
   * the run with the joiner's reason.
   */
  static RejoinTransfer of(RoleChanged r, long masterLastSeqNr, double wallS) {
    if (!r.ok() || r.role() != ControlPlaneHost.Role.BACKUP) {
      throw new IllegalStateException("the rejoin failed: " + r.host() + " is " + r.role() + ": " + r.detail());
    }
    if (r.lastSeqNr() != masterLastSeqNr) {
      throw new IllegalStateException("the joiner ended at lastSeqNr=" + r.lastSeqNr() + ", the master stands at "
          + masterLastSeqNr);
    }
    return new RejoinTransfer(r.lastSeqNr(), wallS);
  }
}
