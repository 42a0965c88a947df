package io.rackfabric.fabric.endpoint;

import akka.actor.typed.ActorRef;
import io.rackfabric.fabric.link.DataLinkState;
import io.rackfabric.fabric.link.LinkEnd;
import io.rackfabric.fabric.link.PortMessage;
import io.rackfabric.fabric.management.Candidacy;
import io.rackfabric.fabric.management.DatabaseReplica;
import io.rackfabric.fabric.management.DatabaseShipper;
import io.rackfabric.fabric.management.ElectionClaim;
import io.rackfabric.fabric.management.FmDatabaseResync;
import io.rackfabric.fabric.management.FmDatabaseUpdate;
import io.rackfabric.fabric.management.TopologyDatabase;
import io.rackfabric.fabric.management.FabricManagerDriver;
import io.rackfabric.fabric.management.FmHeartbeat;
import io.rackfabric.fabric.management.FabricManagerReport;
import io.rackfabric.fabric.management.ManagementAgent;
import io.rackfabric.fabric.management.Pi4ReadCompletion;
import io.rackfabric.fabric.management.Pi5Event;
import io.rackfabric.fabric.settings.FabricSettings;
import io.rackfabric.fabric.time.PortTime;
import io.rackfabric.fabric.tlp.FabricMessage;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;

/**
 * A memory endpoint's management: its device manager, answering PI-4 packets from the endpoint's
 * configuration space (a completion leaves a completion latency after the request arrived), and,
 * on the endpoint the fabric manager runs on, the fabric manager's driver ({@link
 * FabricManagerDriver}), which starts its discovery as one of the endpoint's model-time events (at
 * the time a run's driver names, once the rack is up) and takes the completions and PI-5 events
 * that come back. Not thread-safe: the endpoint actor's own.
 */
final class EndpointManagement {

  /** The fabric manager's discovery is due: one of the endpoint's own model-time events. */
  enum DiscoveryDue implements PortMessage { INSTANCE }

  /** A candidate's claim, and its reading of the outcome, are due (model-time events). */
  enum ElectionDue implements PortMessage { CLAIM, DECIDE, HEARTBEAT, WATCH }

  private final String id;
  private final LinkEnd link;
  private final PortTime time;
  private final FabricSettings settings;
  private final ManagementSetup setup;
  private final ManagementAgent agent;
  private final FabricManagerDriver driver;
  private final Logger log;
  /** The discovery fell due while the link was down: it starts when the link comes up. */
  private boolean startWhenUp;
  /** The candidate's part in the election; null when this endpoint is no candidate. */
  private final Candidacy candidacy;
  /** The claim fell due while the link was not trained: it leaves when it is. */
  private boolean claimWhenUp;
  /** The primary's heartbeats to the secondary have begun. */
  private boolean beating;
  private long heartbeatSequence;
  /** A candidate's copy of the topology database: sent as primary, kept as secondary; null: no candidate. */
  private final DatabaseShipper shipper;
  private final DatabaseReplica replica;
  /** The database changes (the driver's count) sent to the secondary so far. */
  private long shippedChanges;
  /** Devices re-read and event routes written on taking over from the kept database (-1: it did not). */
  private int takeoverRereads = -1;
  private long takeoverEventRouteWrites;
  private final GuestSide guests;
  /** The host software told of each distribution of paths held whole ({@link MemoryEndpoint.WatchPathTable}). */
  private final List<ActorRef<EndpointEvent>> tableWatchers = new ArrayList<>();
  /** The database kept in the controller's state (Ladon rack); null: no candidate. */
  private final ControllerDatabase controllerDatabase;
  /** A take-over waiting for the controller's database: its model time, and the dead primary (-1: none waits). */
  private long takeoverAt = -1;
  private long takeoverDead;
  private boolean takeoverFromController;

  EndpointManagement(String id, LinkEnd link, PortTime time, FabricSettings settings, ManagementSetup setup,
      GuestSide guests, Logger log) {
    this.guests = guests;
    this.id = id;
    this.link = link;
    this.time = time;
    this.settings = settings;
    this.setup = setup;
    this.log = log;
    this.agent = setup.device() == null ? null : ManagementAgent.of(setup.device());
    this.driver = !setup.fabricManager() ? null : new FabricManagerDriver(id, agent.manager().space(), 0,
        setup.window(), setup.check(), setup.distributePaths(), setup.routesPerDestination(), setup.processing());
    this.candidacy = !setup.candidate() ? null
        : new Candidacy(agent.flood(), setup.device().candidatePriority(), setup.device().serial());
    this.shipper = candidacy == null ? null : new DatabaseShipper(settings.maxPayload());
    this.replica = candidacy == null ? null : new DatabaseReplica();
    this.controllerDatabase = candidacy == null ? null : new ControllerDatabase(guests, settings.maxPayload());
  }

  /**
   * The discovery is to start at model {@code at} (at the endpoint's clock when that is later): one
   * of its events under the kernel; free-running, at once. False when no fabric manager runs here
   * or it has started already.
   */
  boolean startAt(long at) {
    if (driver == null || driver.started() || startWhenUp) {
      return false;
    }
    if (candidacy != null && !candidacy.claimed() && time.joined()) {
      time.schedule(setup.claimAtNs(), ElectionDue.CLAIM);
      time.schedule(setup.decideAtNs(), ElectionDue.DECIDE);
    }
    if (time.joined()) {
      time.schedule(at, DiscoveryDue.INSTANCE);
    } else {
      timed(DiscoveryDue.INSTANCE);
    }
    return true;
  }

  /** Takes the endpoint's own event if it is management's. */
  boolean timed(PortMessage event) {
    if (event == ElectionDue.CLAIM) {
      claim(time.now());
      return true;
    }
    if (event == ElectionDue.DECIDE) {
      Candidacy.Role role = candidacy.decide(time.now());
      log.info("Endpoint [{}] is {} fabric manager after the election (at {} ns)", id, role, time.now());
      return true;
    }
    if (event == ElectionDue.HEARTBEAT) {
      heartbeat(time.now());
      return true;
    }
    if (event == ElectionDue.WATCH) {
      takeOver(time.now());
      return true;
    }
    if (event != DiscoveryDue.INSTANCE) {
      return false;
    }
    if (candidacy != null && candidacy.role() != Candidacy.Role.PRIMARY) {
      log.info("Endpoint [{}] does not discover: the election made it {}", id, candidacy.role());
      return true;
    }
    if (!link.isUp()) {
      startWhenUp = true; // from the link's coming up on
    } else {
      start(time.now());
    }
    return true;
  }

  /**
   * The primary's discovery has found the secondary: its heartbeats begin, one every heartbeat
   * interval of model time, along the route the discovery found.
   */
  private void beatOnceDiscovered(long at) {
    if (!beating && candidacy != null && candidacy.role() == Candidacy.Role.PRIMARY && candidacy.partner() != null
        && driver.database().knows(candidacy.partner().serial())) {
      beating = true;
      heartbeat(at);
    }
  }

  private void heartbeat(long at) {
    if (candidacy.role() != Candidacy.Role.PRIMARY) {
      return;
    }
    if (candidacy.partner() == null) {
      return; // no secondary to tell (one that took over has none)
    }
    driver.database().device(candidacy.partner().serial()).filter(d -> d.route().hops() > 0).ifPresent(d -> {
      candidacy.heartbeatSent();
      offer(FabricMessage.send(new FmHeartbeat(heartbeatSequence++, shipper.lastNumber()), d.route().turns(), at));
    });
    // a periodic timer: background, so it keeps no released rack from going idle
    time.scheduleBackground(at + setup.heartbeatNs(), ElectionDue.HEARTBEAT);
  }

  /** A heartbeat reached the secondary: it watches from its arrival for the watch timeout. */
  private void watch(FabricMessage heartbeat, long arrival) {
    if (candidacy == null || candidacy.role() != Candidacy.Role.SECONDARY || !heartbeat.arrived()) {
      return;
    }
    candidacy.heartbeatArrived(heartbeat.originAt(), arrival);
    if (replica.onHeartbeat(((FmHeartbeat) heartbeat.packet()).databaseNumber())) {
      askFullCopy(heartbeat, arrival);
    }
    time.cancel(ElectionDue.WATCH);
    time.scheduleBackground(arrival + setup.watchTimeoutNs(), ElectionDue.WATCH);
  }

  /**
   * The primary's discovery or a rediscovery changed its database: the secondary gets the change
   * (a full copy first, or when it asked for one; then deltas), along the route its heartbeats take.
   */
  private void shipDatabase(long at) {
    if (candidacy != null && candidacy.role() == Candidacy.Role.PRIMARY) {
      controllerDatabase.record(driver, at);
    }
    if (candidacy == null || !setup.keepDatabase() || candidacy.role() != Candidacy.Role.PRIMARY
        || candidacy.partner() == null || driver.databaseChanges() <= shippedChanges) {
      return;
    }
    TopologyDatabase.Device secondary = driver.database().device(candidacy.partner().serial()).orElse(null);
    if (secondary == null || secondary.route().hops() == 0) {
      return;
    }
    shippedChanges = driver.databaseChanges();
    for (FmDatabaseUpdate u : shipper.changes(driver.database())) {
      offer(FabricMessage.send(u, secondary.route().turns(), at));
    }
  }

  /** A database message reached the secondary at model {@code arrival}. */
  private void keep(FabricMessage message, long arrival) {
    if (candidacy == null || candidacy.role() != Candidacy.Role.SECONDARY || candidacy.partner() == null
        || !message.arrived()) {
      return;
    }
    if (replica.onUpdate((FmDatabaseUpdate) message.packet())) {
      askFullCopy(message, arrival);
    }
  }

  /** The secondary saw a gap: it asks the primary for a full copy, back along the way {@code from} came. */
  private void askFullCopy(FabricMessage from, long at) {
    log.info("Endpoint [{}] saw a gap in the fabric manager's database at {} ns: asks for a full copy", id, at);
    offer(FabricMessage.send(new FmDatabaseResync(replica.expected()), from.replyTurns(0), at));
  }

  /** The secondary asked for a full copy: it leaves at once. */
  private void resync(FabricMessage message, long arrival) {
    if (candidacy == null || candidacy.role() != Candidacy.Role.PRIMARY || !message.arrived() || !driver.started()
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
   * own endpoint, programming every device's event route and activating what waits.
   */
  private void takeOver(long at) {
    ElectionClaim old = candidacy == null ? null : candidacy.partner();
    if (candidacy == null || !candidacy.takeOver(at)) {
      return;
    }
    log.info("Endpoint [{}] takes over as primary fabric manager at {} ns: no heartbeat since {} ns", id, at,
        candidacy.report().watch().lastHeartbeatAt());
    if (driver.started()) {
      return;
    }
    long dead = old == null ? 0 : old.serial();
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
  void takeOverKept(String manager, io.rackfabric.fabric.management.DatabaseDelta database) {
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
      start(at);
      return;
    }
    List<Long> rereads = copy.neighbors(dead).stream().filter(kept::knows).toList();
    takeoverRereads = rereads.size();
    takeoverEventRouteWrites = kept.devices().stream().filter(d -> d.route().hops() > 0).count();
    log.info("Endpoint [{}] takes over the database it kept ({} devices): re-reads {} device(s) beside the old primary",
        id, kept.devices().size(), rereads.size());
    offerAll(driver.resume(kept, rereads, at), at);
  }

  /** The candidate claims at model {@code at}, or as soon as its port is trained. */
  private void claim(long at) {
    if (!link.isUp()) {
      claimWhenUp = true;
      return;
    }
    claimWhenUp = false;
    candidacy.claim(at).forEach(this::offer);
  }

  private void start(long at) {
    log.info("Endpoint [{}] fabric manager starts discovery at {} ns", id, at);
    offerAll(driver.start(at), at);
    shipDatabase(at);
  }

  /** A management packet from the link, at model {@code arrival}. */
  void arrived(FabricMessage message, long arrival) {
    boolean forManager = message.packet() instanceof Pi4ReadCompletion || message.packet() instanceof Pi5Event;
    if (message.packet() instanceof ElectionClaim) {
      if (agent != null) {
        agent.onClaim(message, 0, arrival).forEach(this::offer); // an endpoint's one port is the ingress: none
      }
      return;
    }
    if (message.packet() instanceof FmHeartbeat) {
      watch(message, arrival);
      return;
    }
    if (message.packet() instanceof FmDatabaseUpdate) {
      keep(message, arrival);
      return;
    }
    if (message.packet() instanceof FmDatabaseResync) {
      resync(message, arrival);
      return;
    }
    if (forManager && message.arrived() && driver != null) {
      offerAll(driver.onArrival(message, arrival), arrival);
      shipDatabase(arrival);
      beatOnceDiscovered(arrival);
      return;
    }
    if (agent == null) {
      return;
    }
    // an answer leaves a completion latency after the request arrived; a write takes effect on arrival
    long at = message.packet() instanceof io.rackfabric.fabric.management.Pi4Write ? arrival
        : arrival + settings.completionLatencyNs();
    (message.arrived() ? agent.onArrival(message, 0, at)
        : agent.onUnroutable(message, 0, "turn " + message.pointer() + " names port " + message.nextTurn()
            + " of endpoint " + id + ", which has only port 0", at)).ifPresent(this::offer);
    carryOut(arrival);
    announceTable(arrival);
  }

  /** Tells {@code watcher} of every distribution of paths this endpoint comes to hold whole. */
  void watchPathTable(ActorRef<EndpointEvent> watcher) {
    tableWatchers.add(watcher);
  }

  /** A distribution held whole at model {@code at} goes to the watchers (a guest's is called with it). */
  private void announceTable(long at) {
    if (agent == null) {
      return;
    }
    agent.takeTableHeld().ifPresent(table -> {
      EndpointEvent event = new EndpointEvent.PathTableWritten(id, table, at);
      tableWatchers.forEach(w -> guests.tellOrCall(w, event, call -> new GuestCall.Event(call, event)));
    });
  }

  /** Port orders the device manager's writes made: an endpoint has one port, its link. */
  private void carryOut(long at) {
    for (ManagementAgent.PortOrder o : agent.takeOrders()) {
      log.debug("Endpoint [{}] link {} at {} ns by the fabric manager", id, o.active() ? "activated" : "deactivated",
          at);
      link.setActive(o.active(), at);
    }
  }

  /** The endpoint's link changed state at model {@code at}. */
  void linkState(DataLinkState state, long at) {
    if (agent != null && link.counters().linkDowns > 0) {
      agent.onPortState(0, state, at).ifPresent(this::offer);
    }
    if (claimWhenUp && link.isUp()) {
      claim(Math.max(at, time.now()));
    }
    if (startWhenUp && link.isUp()) {
      startWhenUp = false;
      start(Math.max(at, time.now()));
    }
  }

  /**
   * What the fabric manager sends leaves on the link; its writes to its own device (activating its
   * own port) are applied here, at the model time of the step that made them.
   */
  private void offerAll(List<FabricMessage> messages, long at) {
    messages.forEach(this::offer);
    List<io.rackfabric.fabric.management.Pi4Write> local = driver.takeLocalWrites();
    if (!local.isEmpty()) {
      long done = Math.max(at, driver.busyUntil()); // once its processing of the step is over
      local.forEach(w -> agent.applyWrite(w, done));
      carryOut(done);
      announceTable(done);
    }
  }

  private void offer(FabricMessage message) {
    if (!link.isUp() || !link.offer(message, message.originAt(), -1)) { // nothing waits for a retrain
      log.debug("Endpoint [{}] could not send a {}: link down", id, message.packet().getClass().getSimpleName());
    }
  }

  /** The path table this endpoint's device manager holds; null without one. */
  io.rackfabric.fabric.management.PathTableHeld pathTable() {
    return agent == null ? null : agent.pathTable();
  }

  /** The fabric manager's report; null when it does not run here. */
  FabricManagerReport report() {
    if (driver == null) {
      return null;
    }
    FabricManagerReport r = driver.report().withElection(candidacy == null ? null : candidacy.report());
    return shipper == null ? r : r.withCopy(new FabricManagerReport.DatabaseCopy(shipper.counts(), replica.counts(),
        takeoverRereads >= 0, Math.max(takeoverRereads, 0), takeoverEventRouteWrites, takeoverFromController,
        controllerDatabase.handed()));
  }
}
