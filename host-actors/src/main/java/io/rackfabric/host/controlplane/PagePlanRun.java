package io.rackfabric.host.controlplane;

import akka.actor.typed.ActorRef;
import io.rackfabric.host.controlplane.ControlPlaneClient.PagePlan;
import io.rackfabric.host.controlplane.ControlPlaneClient.PagesDone;
import io.rackfabric.host.controlplane.ControlPlaneClient.RequestRecord;
import io.rackfabric.persistence.controller.Controller;
import io.rackfabric.persistence.controller.ControllerRules;
import io.rackfabric.persistence.controller.PagePermission;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A control-plane driver's page plan ({@link PagePlan}), without actors or timers: the plan and
 * who hears its end, the pages issued so far, which request numbers are the plan's, and their
 * records until the last is in. One plan at a time; the driver sends and paces the requests.
 *
 * <p>Not thread-safe: the driver's actor's own.
 */
final class PagePlanRun {

  /** The next page's request; {@code last} when no page follows it. */
  record Page(Controller.OpenIommuPage request, boolean last) {}

  /** A plan whose every request has its record: {@code replyTo} hears {@code records}. */
  record Finished(ActorRef<PagesDone> replyTo, List<RequestRecord> records) {
    Finished {
      records = List.copyOf(records);
    }
  }

  private final Set<Long> seqs = new HashSet<>();
  private final List<RequestRecord> records = new ArrayList<>();
  private PagePlan plan;
  private ActorRef<PagesDone> replyTo;
  private int issued;

  /** Why {@code p} cannot start now (one runs, or it is malformed), or null when it can. */
  String refusal(PagePlan p) {
    return plan != null ? "a page plan is already running"
        : p.count() < 1 ? "count=" + p.count() + " must be at least 1"
        : p.intervalNs() < 0 ? "interval=" + p.intervalNs() + "ns is negative"
        : p.firstPage() % ControllerRules.PAGE != 0 ? "firstPage=0x" + Long.toHexString(p.firstPage())
            + " is not 4 KiB aligned"
        : null;
  }

  /** Starts {@code p} (one {@link #refusal} accepts); {@code replyTo} hears its records at the end. */
  void start(PagePlan p, ActorRef<PagesDone> replyTo) {
    plan = p;
    this.replyTo = replyTo;
    seqs.clear();
    records.clear();
    issued = 0;
  }

  /** The running plan, or null. */
  PagePlan plan() {
    return plan;
  }

  /** The next page's request, at its time in the plan; null when no plan runs or all are issued. */
  Page issue() {
    if (plan == null || issued >= plan.count()) {
      return null;
    }
    long page = plan.firstPage() + issued * ControllerRules.PAGE;
    long at = plan.startAt() + issued * plan.intervalNs();
    issued++;
    return new Page(new Controller.OpenIommuPage(plan.host(), plan.requester(), page, PagePermission.READ_WRITE,
        at, null), issued >= plan.count());
  }

  /** Request {@code requestSeq} is one of the plan's. */
  void track(long requestSeq) {
    seqs.add(requestSeq);
  }

  /**
   * Keeps {@code r} when it is the record of one of the plan's requests; returns the plan's end
   * when that was its last, else null. The plan is over then: another may start.
   */
  Finished recorded(RequestRecord r) {
    if (plan == null || !seqs.remove(r.requestSeq())) {
      return null;
    }
    records.add(r);
    if (records.size() != plan.count()) {
      return null;
    }
    Finished done = new Finished(replyTo, records);
    plan = null;
    replyTo = null;
    return done;
  }
}
