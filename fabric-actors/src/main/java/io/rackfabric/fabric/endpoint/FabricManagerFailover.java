package io.rackfabric.fabric.endpoint;

import io.rackfabric.fabric.management.Candidacy;
import io.rackfabric.fabric.management.DatabaseDelta;
import io.rackfabric.fabric.management.DatabaseReplica;
import io.rackfabric.fabric.management.DatabaseShipper;
import io.rackfabric.fabric.management.ElectionClaim;
import io.rackfabric.fabric.management.FabricManagerDriver;
import io.rackfabric.fabric.management.FabricManagerReport;
import io.rackfabric.fabric.management.FmDatabaseResync;
import io.rackfabric.fabric.management.FmDatabaseUpdate;
import io.rackfabric.fabric.management.FmHeartbeat;
import io.rackfabric.fabric.management.TopologyDatabase;
import io.rackfabric.fabric.time.PortTime;
import io.rackfabric.fabric.tlp.FabricMessage;
import java.util.List;
import org.slf4j.Logger;

/**
 * A fabric-manager candidate's fail-over, on its endpoint: as primary, heartbeats to the secondary
 * and its topology database shipped to it (and recorded in the controller's state where a keeper
 * is registered); as secondary, the watch on the primary, the copy kept, and the take-over when the
 * watch expires (from the controller's database, else the copy, else a discovery); once a take-over
 * serves, a new secondary appointed ({@link io.rackfabric.fabric.management.SecondaryAppointment})
 * and watched over like the first. Not thread-safe: the endpoint actor's own, through
 * {@link EndpointManagement}.
 */
final class FabricManagerFailover {

  /** What the fail-over needs of its endpoint's management: the wire and a discovery. */
  interface Endpoint {
    /** Puts {@code message} on the endpoint's link. */
    void offer(FabricMessage message);

    /** Puts what a driver step gave on the link and applies its writes to the own device (at {@code at}). */
    void offerAll(List<FabricMessage> messages, long at);

    /** Starts a discovery of the whole fabric at model {@code at}. */
    void discover(long at);
  }

  private final String id;
  private final PortTime time;
  private final ManagementSetup setup;
  private final Candidacy candidacy;
  private final FabricManagerDriver driver;
  private final Endpoint endpoint;
  private final Logger log;
  /** The primary's heartbeats to the secondary have begun. */
  private boolean beating;
  private long heartbeatSequence;
  private final DatabaseShipper shipper;
  private final DatabaseReplica replica = new DatabaseReplica();
  /** The database changes (the driver's count) sent to the secondary so far. */
  private long shippedChanges;
  /** Devices re-read and event routes written on taking over from the kept database (-1: it did not). */
  private int takeoverRereads = -1;
  private long takeoverEventRouteWrites;
  /** The database kept in the controller's state (Ladon rack). */
  private final ControllerDatabase controllerDatabase;
  /** A take-over waiting for the controller's database: its model time, and the dead primary (-1: none waits). */
  private long takeoverAt = -1;
  private long takeoverDead;
  private boolean takeoverFromController;

  FabricManagerFailover(String id, PortTime time, ManagementSetup setup, Candidacy candidacy,
      FabricManagerDriver driver, int maxPayload, GuestSide guests, Endpoint endpoint, Logger log) {
    this.id = id;
    this.time = time;
    this.setup = setup;
    this.candidacy = candidacy;
    this.driver = driver;
    this.endpoint = endpoint;
    this.log = log;
    this.shipper = new DatabaseShipper(maxPayload);
    this.controllerDatabase = new ControllerDatabase(guests, maxPayload);
  }

  /**
   * A step of the driver ended at model {@code at}: a changed database is shipped (and recorded),
   * heartbeats begin once the discovery has found the secondary, and a secondary just appointed gets
   * a full copy and heartbeats.
   */
  void afterDriverStep(long at) {
    shipDatabase(at);
    beatOnceDiscovered(at);
    driver.takeAppointed().ifPresent(appointee -> {
      candidacy.appoint(appointee, at, driver.appointment().devicesRead());
      log.info("Endpoint [{}] appoints serial {} the new secondary fabric manager at {} ns ({} endpoints read, {}"
          + " candidates)", id, Long.toHexString(appointee.serial()), at, driver.appointment().devicesRead(),
          driver.appointment().candidatesFound());
      shipDatabase(at); // a full copy: nothing was shipped to it
      beatOnceDiscovered(at);
    });
  }

  /** A write reached this candidate's device at model {@code at}: it may have appointed it secondary. */
  void written(long at) {
    if (candidacy.appointedIf(at)) {
      log.info("Endpoint [{}] is appointed the secondary fabric manager at {} ns (primary serial {})", id, at,
          Long.toHexString(candidacy.partner().serial()));
    }
  }

  /**
   * The primary's discovery has found the secondary: its heartbeats begin, one every heartbeat
   * interval of model time, along the route the discovery found.
   */
  private void beatOnceDiscovered(long at) {
    if (!beating && candidacy.role() == Candidacy.Role.PRIMARY && candidacy.partner() != null
        && driver.database().knows(candidacy.partner().serial())) {
      beating = true;
      heartbeat(at);
    }
  }

  /** The heartbeat is due at model {@code at}. */
  void heartbeat(long at) {
    if (candidacy.role() != Candidacy.Role.PRIMARY) {
      return;
    }
    if (candidacy.partner() == null) {
      return; // no secondary to tell (one that took over has none until it appoints one)
    }
    driver.database().device(candidacy.partner().serial()).filter(d -> d.route().hops() > 0).ifPresent(d -> {
      candidacy.heartbeatSent();
      endpoint.offer(FabricMessage.send(new FmHeartbeat(heartbeatSequence++, shipper.lastNumber()), d.route().turns(),
          at));
    });
    // a periodic timer: background, so it keeps no released rack from going idle
    time.scheduleBackground(at + setup.heartbeatNs(), EndpointManagement.ElectionDue.HEARTBEAT);
  }

  /** A heartbeat reached the secondary: it watches from its arrival for the watch timeout. */
  void watch(FabricMessage heartbeat, long arrival) {
    if (candidacy.role() != Candidacy.Role.SECONDARY || !heartbeat.arrived()) {
      return;
    }
    candidacy.heartbeatArrived(heartbeat.originAt(), arrival);
    if (replica.onHeartbeat(((FmHeartbeat) heartbeat.packet()).databaseNumber())) {
      askFullCopy(heartbeat, arrival);
    }
    time.cancel(EndpointManagement.ElectionDue.WATCH);
    time.scheduleBackground(arrival + setup.watchTimeoutNs(), EndpointManagement.ElectionDue.WATCH);
  }

  /**
   * The primary's discovery or a rediscovery changed its database: the secondary gets the change
   * (a full copy first, or when it asked for one; then deltas), along the route its heartbeats take.
   */
  void shipDatabase(long at) {
    if (candidacy.role() == Candidacy.Role.PRIMARY) {
      controllerDatabase.record(driver, at);
    }
    if (!setup.keepDatabase() || candidacy.role() != Candidacy.Role.PRIMARY || candidacy.partner() == null
        || driver.databaseChanges() <= shippedChanges) {
      return;
    }
    TopologyDatabase.Device secondary = driver.database().device(candidacy.partner().serial()).orElse(null);
    if (secondary == null || secondary.route().hops() == 0) {
      return;
    }
    shippedChanges = driver.databaseChanges();
    for (FmDatabaseUpdate u : shipper.changes(driver.database())) {
      endpoint.offer(FabricMessage.send(u, secondary.route().turns(), at));
    }
  }

  /** A database message reached the secondary at model {@code arrival}. */
  void keep(FabricMessage message, long arrival) {
    if (candidacy.role() != Candidacy.Role.SECONDARY || candidacy.partner() == null || !message.arrived()) {
      return;
    }
    if (replica.onUpdate((FmDatabaseUpdate) message.packet())) {
      askFullCopy(message, arrival);
    }
  }

  /** The secondary saw a gap: it asks the primary for a full copy, back along the way {@code from} came. */
  private void askFullCopy(FabricMessage from, long at) {
    log.info("Endpoint [{}] saw a gap in the fabric manager's database at {} ns: asks for a full copy", id, at);
    endpoint.offer(FabricMessage.send(new FmDatabaseResync(replica.expected()), from.replyTurns(0), at));
  }

  /** The secondary asked for a full copy: it leaves at once. */
  void resync(FabricMessage message, long arrival) {
    if (candidacy.role() != Candidacy.Role.PRIMARY || !message.arrived() || !driver.started()
        || driver.databaseChanges() == 0) {
      return;
    }
    shipper.resync();
    shippedChanges = driver.databaseChanges() - 1; // ship what it has now, whole
    shipDatabase(arrival);
  }

  /**
   * No heartbeat for the watch timeout: the secondary is the primary from now on. With a usable
   * copy of the old primary's database it takes that over (re-rooted at its own endpoint), re-reads
   * the old primary's neighbors (whose ports its death changed) and re-programs every device's
   * event route to itself; without one (none received, or a gap) it discovers the fabric from its
   * own endpoint, programming every device's event route and activating what waits. Either way,
   * once it serves it appoints a new secondary.
   */
  void takeOver(long at) {
    ElectionClaim old = candidacy.partner();
    if (!candidacy.takeOver(at)) {
      return;
    }
    log.info("Endpoint [{}] takes over as primary fabric manager at {} ns: no heartbeat since {} ns", id, at,
        candidacy.report().watch().lastHeartbeatAt());
    if (driver.started()) {
      return;
    }
    long dead = old == null ? 0 : old.serial();
    driver.appointSecondaryOnceServing(new ElectionClaim(setup.device().candidatePriority(), setup.device().serial()),
        dead);
    if (controllerDatabase.ask(at)) {
      takeoverAt = at; // the keeper answers with the controller's database inside the call
      takeoverDead = dead;
      return;
    }
    takeOverFrom(old == null ? null : kept(), dead, at);
  }

  /**
   * The keeper's answer: the database its controller's state holds ({@code database}, a full copy;
   * null: none). The controller's state is authoritative: with one, the take-over is from it; else
   * from the copy kept over the fabric when it is usable; else a discovery.
   */
  void takeOverKept(String manager, DatabaseDelta database) {
    if (takeoverAt < 0) {
      return;
    }
    long at = takeoverAt;
    takeoverAt = -1;
    TopologyDatabase fromController = ControllerDatabase.database(database);
    if (fromController != null) {
      log.info("Endpoint [{}] takes over the database the controller's state holds (recorded by {}): {}", id,
          manager, database.summary());
      takeoverFromController = true;
      takeOverFrom(fromController, takeoverDead, at);
      return;
    }
    log.info("Endpoint [{}]: the controller's state holds no fabric database", id);
    takeOverFrom(kept(), takeoverDead, at);
  }

  /** The copy kept over the fabric when it is usable, else null. */
  private TopologyDatabase kept() {
    return replica.usable() ? replica.copy() : null;
  }

  /**
   * Takes over {@code copy} (the old primary's database as handed on, not re-rooted; null: none) at
   * model {@code at}: re-rooted at this endpoint, the dead primary's neighbors re-read; without a
   * copy, or one that leaves nothing reachable, a discovery.
   */
  private void takeOverFrom(TopologyDatabase copy, long dead, long at) {
    TopologyDatabase kept = copy == null ? null : copy.rerooted(setup.device().serial(), dead);
    if (kept == null || kept.devices().isEmpty()) {
      log.info("Endpoint [{}] has no usable copy of the fabric manager's database: discovers the fabric", id);
      takeoverFromController = false;
      endpoint.discover(at);
      return;
    }
    List<Long> rereads = copy.neighbors(dead).stream().filter(kept::knows).toList();
    takeoverRereads = rereads.size();
    takeoverEventRouteWrites = kept.devices().stream().filter(d -> d.route().hops() > 0).count();
    log.info("Endpoint [{}] takes over the database it kept ({} devices): re-reads {} device(s) beside the old primary",
        id, kept.devices().size(), rereads.size());
    endpoint.offerAll(driver.resume(kept, rereads, at), at);
    afterDriverStep(at);
  }

  /** The copy's part of the fabric manager's report. */
  FabricManagerReport.DatabaseCopy copyReport() {
    return new FabricManagerReport.DatabaseCopy(shipper.counts(), replica.counts(), takeoverRereads >= 0,
        Math.max(takeoverRereads, 0), takeoverEventRouteWrites, takeoverFromController, controllerDatabase.handed());
  }
}
