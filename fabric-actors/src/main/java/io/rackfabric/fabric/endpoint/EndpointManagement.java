package io.rackfabric.fabric.endpoint;

import akka.actor.typed.ActorRef;
import io.rackfabric.fabric.link.DataLinkState;
import io.rackfabric.fabric.link.LinkEnd;
import io.rackfabric.fabric.link.PortMessage;
import io.rackfabric.fabric.management.Candidacy;
import io.rackfabric.fabric.management.ElectionClaim;
import io.rackfabric.fabric.management.FmDatabaseResync;
import io.rackfabric.fabric.management.FmDatabaseUpdate;
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
  /** A candidate's fail-over: heartbeats, the database's copy, the take-over; null: no candidate. */
  private final FabricManagerFailover failover;
  private final GuestSide guests;
  /** The host software told of each distribution of paths held whole ({@link MemoryEndpoint.WatchPathTable}). */
  private final List<ActorRef<EndpointEvent>> tableWatchers = new ArrayList<>();
  /** The chosen route to each destination in the last path table held whole: looked up per request. */
  private java.util.Map<Long, io.rackfabric.fabric.management.Route> chosenRoutes = java.util.Map.of();

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
    if (driver != null) {
      driver.writeNtbWindows(setup.ntbWindows());
    }
    this.candidacy = !setup.candidate() ? null
        : new Candidacy(agent.flood(), setup.device().candidatePriority(), setup.device().serial());
    this.failover = candidacy == null ? null : new FabricManagerFailover(id, time, setup, candidacy, driver,
        settings.maxPayload(), guests, new FabricManagerFailover.Endpoint() {
          @Override
          public void offer(FabricMessage message) {
            EndpointManagement.this.offer(message);
          }

          @Override
          public void offerAll(List<FabricMessage> messages, long at) {
            EndpointManagement.this.offerAll(messages, at);
          }

          @Override
          public void discover(long at) {
            start(at);
          }
        }, log);
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
      failover.heartbeat(time.now());
      return true;
    }
    if (event == ElectionDue.WATCH) {
      failover.takeOver(time.now());
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
    if (failover != null) {
      failover.afterDriverStep(at);
    }
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
    if (failover != null && failover(message, arrival)) {
      return;
    }
    if (forManager && message.arrived() && driver != null) {
      offerAll(driver.onArrival(message, arrival), arrival);
      if (failover != null) {
        failover.afterDriverStep(arrival);
      }
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
    if (failover != null && message.packet() instanceof io.rackfabric.fabric.management.Pi4Write) {
      failover.written(arrival);
    }
  }

  /** A fail-over packet goes to the candidate's fail-over; false for any other. */
  private boolean failover(FabricMessage message, long arrival) {
    if (message.packet() instanceof FmHeartbeat) {
      failover.watch(message, arrival);
    } else if (message.packet() instanceof FmDatabaseUpdate) {
      failover.keep(message, arrival);
    } else if (message.packet() instanceof FmDatabaseResync) {
      failover.resync(message, arrival);
    } else {
      return false;
    }
    return true;
  }

  /** The keeper's answer to a take-over's ask: the database the controller's state holds (null: none). */
  void takeOverKept(String manager, io.rackfabric.fabric.management.DatabaseDelta database) {
    if (failover != null) {
      failover.takeOverKept(manager, database);
    }
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
      chosenRoutes = table.chosen().stream().collect(java.util.stream.Collectors.toUnmodifiableMap(
          io.rackfabric.fabric.management.PathTable.Entry::destination,
          io.rackfabric.fabric.management.PathTable.Entry::route));
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

  /**
   * The chosen route to {@code destination} in the last path table this endpoint held whole (a
   * distribution's header applied); null when it holds none or none to that destination.
   */
  io.rackfabric.fabric.management.Route chosenRoute(long destination) {
    return chosenRoutes.get(destination);
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
    return failover == null ? r : r.withCopy(failover.copyReport());
  }
}
