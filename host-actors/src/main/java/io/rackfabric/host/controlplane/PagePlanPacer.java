package io.rackfabric.host.controlplane;

import io.rackfabric.host.controlplane.ControlPlaneClient.OpenPages;
import io.rackfabric.host.controlplane.ControlPlaneClient.PagesDone;
import io.rackfabric.host.controlplane.ControlPlaneClient.RequestRecord;
import io.rackfabric.persistence.controller.Controller.Status;
import java.util.List;
import org.slf4j.Logger;

/**
 * How a host's control-plane driver ({@link ControlPlaneClient}) paces its page plan ({@link
 * ControlPlaneClient.PagePlan}), without the actor: a plan is refused or started ({@link
 * PagePlanRun}), its first request goes at its start in model time or at once on the wall clock,
 * and each request asks its transport for the next one's turn, one interval later, until the last.
 *
 * <p>Not thread-safe: the driver's actor's own.
 */
final class PagePlanPacer {

  private final String name;
  private final ClientRequests requests;
  private final Logger log;

  PagePlanPacer(String name, ClientRequests requests, Logger log) {
    this.name = name;
    this.requests = requests;
    this.log = log;
  }

  /** Starts {@code msg}'s plan, or answers its requester why not; true when it started. */
  boolean open(OpenPages msg) {
    PagePlanRun pages = requests.pages();
    String problem = pages.refusal(msg.plan());
    if (problem != null) {
      log.error("Client [{}]: OpenPages refused: {}", name, problem);
      msg.replyTo().tell(new PagesDone(name, List.of(new RequestRecord(0, msg.plan().startAt(), -1,
          Status.REJECTED, problem, 0, 0, false))));
      return false;
    }
    pages.start(msg.plan(), msg.replyTo());
    return true;
  }

  /** True when a plan runs (one that waits for the driver to begin, say). */
  boolean running() {
    return requests.pages().plan() != null;
  }

  /** The plan's first request: at its start in model time ({@code modelTime} not null), at once on the wall clock. */
  void start(ClientTransport transport, ModelTimeTransport modelTime) {
    if (modelTime != null) {
      transport.nextPage(Math.max(requests.pages().plan().startAt(), modelTime.now()), 0);
    } else {
      issueNext(transport);
    }
  }

  /** The plan's next request is due: submitted, and the one after it asked for; the plan stops after its last. */
  void issueNext(ClientTransport transport) {
    PagePlanRun pages = requests.pages();
    PagePlanRun.Page page = pages.issue();
    if (page == null) {
      if (transport != null) {
        transport.stopPages();
      }
      return;
    }
    if (!page.last()) {
      long interval = pages.plan().intervalNs();
      transport.nextPage(page.request().at() + interval, interval);
    }
    requests.submit(page.request(), true, null, null);
  }
}
