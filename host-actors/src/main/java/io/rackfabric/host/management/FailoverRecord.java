package io.rackfabric.host.management;

import akka.actor.typed.ActorRef;
import io.rackfabric.host.failover.FailoverCoordinator;
import io.rackfabric.host.failover.HostLog;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;

/**
 * What {@link ManagementHost}'s fail-overs leave behind: its {@link HostLog} entries, and each
 * notification round that ended ({@link ManagementHost.FailoverCompleted}), told to every
 * subscriber as it ends. Resends and give-ups are logged as they are recorded.
 */
final class FailoverRecord {

  private final String id;
  private final Logger logger;
  private final List<HostLog.Entry> log = new ArrayList<>();
  private final List<ActorRef<ManagementHost.FailoverCompleted>> watchers = new ArrayList<>();
  private final List<ManagementHost.FailoverCompleted> ended = new ArrayList<>();

  FailoverRecord(String id, Logger logger) {
    this.id = id;
    this.logger = logger;
  }

  /** A step's log entries and ended rounds. */
  void record(FailoverCoordinator.Outcome outcome) {
    log.addAll(outcome.log());
    for (HostLog.Entry e : outcome.log()) {
      if (e.step() == HostLog.Step.NOTIFICATION_RESENT) {
        logger.info("MH [{}] no acknowledgement from CH{}: notification resent at model {} ns",
            id, e.host(), e.modelAt());
      } else if (e.step() == HostLog.Step.NOTIFICATION_ABANDONED) {
        logger.warn("MH [{}] gives up on CH{} at model {} ns: no acknowledgement after every resend",
            id, e.host(), e.modelAt());
      }
    }
    for (FailoverCoordinator.RoundEnded r : outcome.ended()) {
      if (r.completed()) {
        logger.info("MH [{}] fail-over of CH{} complete at model {} ns ({} notification)",
            id, r.failedHost(), r.endedAt(), r.mode());
      } else {
        logger.warn("MH [{}] fail-over of CH{} FAILED at model {} ns: CHs {} never acknowledged",
            id, r.failedHost(), r.endedAt(), r.unacknowledged());
      }
      var done = new ManagementHost.FailoverCompleted(id, r.failedHost(), r.failedPlane(), r.mode(), r.verdictAt(),
          r.endedAt(), r.unacknowledged());
      ended.add(done);
      watchers.forEach(w -> w.tell(done));
    }
  }

  /** One more entry, from outside the fail-over's steps (a host that left the rack). */
  void add(HostLog.Entry entry) {
    log.add(entry);
  }

  /** Tells {@code watcher} each round that ends from now on. */
  void subscribe(ActorRef<ManagementHost.FailoverCompleted> watcher) {
    watchers.add(watcher);
  }

  /** The MH's log so far. */
  HostLog hostLog() {
    return new HostLog(id, 0, log);
  }

  /** The rounds that ended so far, in the order they ended. */
  ManagementHost.Failovers failovers() {
    return new ManagementHost.Failovers(id, ended);
  }
}
