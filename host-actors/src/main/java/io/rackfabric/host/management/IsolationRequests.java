package io.rackfabric.host.management;

import akka.actor.typed.ActorRef;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.receptionist.Receptionist;
import io.rackfabric.fabric.control.ControlOrigin;
import io.rackfabric.fabric.control.ControlOrigins;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.host.controlplane.ControlPlaneHost;
import io.rackfabric.host.iommu.IsolationControl;
import io.rackfabric.host.iommu.IsolationPlan;
import io.rackfabric.host.management.ManagementHost.CloseIommuPage;
import io.rackfabric.host.management.ManagementHost.Command;
import io.rackfabric.host.management.ManagementHost.ControllerPages;
import io.rackfabric.host.management.ManagementHost.EnableIsolation;
import io.rackfabric.host.management.ManagementHost.FollowController;
import io.rackfabric.host.management.ManagementHost.IsolationApplied;
import io.rackfabric.host.management.ManagementHost.IsolationResult;
import io.rackfabric.host.management.ManagementHost.OpenIommuPage;
import io.rackfabric.host.management.ManagementHost.RootListed;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * The management host's isolation requests, handled on its actor's thread: its own open, close
 * and enable requests, admitted only from the run's driver or the MH's own node (anyone else hears
 * why not), and the controller's persisted page changes become {@link IsolationControl}
 * requests, sent to the target host's root endpoint (found through the Receptionist, wherever it
 * runs) and answered with what the endpoint applied. Part of {@link ManagementHost}, kept apart so
 * that the actor stays about the fail-over.
 */
final class IsolationRequests {

  /** How long the MH waits for a host's root endpoint to apply an IOMMU change (wall time). */
  private static final Duration CHANGE_TIMEOUT = Duration.ofSeconds(10);

  private final ActorContext<Command> context;
  private final String id;
  private final IsolationPlan plan;
  private final IsolationControl isolation;
  private final Map<String, ActorRef<MemoryEndpoint.Command>> roots = new HashMap<>();

  /**
   * @param plan the hosts the MH can isolate; they start isolated (their root endpoints were
   *     created with {@link IsolationControl#initialCheck}) unless the plan is empty
   */
  IsolationRequests(ActorContext<Command> context, String id, IsolationPlan plan, long controlPage) {
    this.context = context;
    this.id = id;
    this.plan = plan == null ? IsolationPlan.none() : plan;
    this.isolation = new IsolationControl(this.plan, controlPage, !this.plan.targets().isEmpty());
    // The hosts' root endpoints may run on other nodes: find them wherever they register. One
    // adapter for all (an actor keeps one per message class); the listing's key names the host.
    ActorRef<Receptionist.Listing> listings = context.messageAdapter(Receptionist.Listing.class, RootListed::new);
    for (IsolationPlan.Target t : this.plan.targets()) {
      context.getSystem().receptionist().tell(Receptionist.subscribe(t.root(), listings));
    }
  }

  void onEnableIsolation(EnableIsolation msg) {
    if (refused(msg, msg.targetHost(), msg.replyTo()) || refusedWithoutRoot(msg.targetHost(), msg.replyTo())) {
      return;
    }
    apply(isolation.enable(msg.targetHost()), true, msg.targetHost(), msg.replyTo());
  }

  void onOpenIommuPage(OpenIommuPage msg) {
    if (refused(msg, msg.targetHost(), msg.replyTo())) {
      return;
    }
    String target = msg.targetHost();
    IsolationControl.Request open =
        isolation.open(target, msg.requesterHost(), msg.pageAddress(), msg.pageCount(), msg.permission());
    if (open.error() == null && refusedWithoutRoot(target, msg.replyTo())) {
      return;
    }
    if (open.error() == null && !isolation.isolated(target)) {
      // The endpoint applies changes in the order the MH sends them: the IOMMU is in before the open.
      apply(isolation.enable(target), true, target, null);
    }
    apply(open, false, target, msg.replyTo());
  }

  void onCloseIommuPage(CloseIommuPage msg) {
    if (refused(msg, msg.targetHost(), msg.replyTo())) {
      return;
    }
    IsolationControl.Request close =
        isolation.close(msg.targetHost(), msg.requesterHost(), msg.pageAddress(), msg.pageCount());
    if (close.error() == null && refusedWithoutRoot(msg.targetHost(), msg.replyTo())) {
      return;
    }
    apply(close, false, msg.targetHost(), msg.replyTo());
  }

  void onFollowController(FollowController msg) {
    Map<Integer, String> hosts = msg.hostsByRequester();
    msg.controller().tell(new ControlPlaneHost.SubscribePageChanges(
        context.messageAdapter(ControlPlaneHost.PagesChanged.class, c -> new ControllerPages(c, hosts))));
  }

  /** The controller persisted page changes: each goes to its host's IOMMU, as the MH's own requests do. */
  void onControllerPages(ControllerPages msg) {
    for (var event : msg.changed().events()) {
      isolation.forEvent(event, msg.hostsByRequester()).ifPresent(c -> {
        if (c.request().error() != null || !roots.containsKey(c.host())) {
          context.getLog().warn("MH [{}] cannot apply the controller's {}: {}", id, event,
              c.request().error() != null ? c.request().error() : "the root endpoint of " + c.host() + " has not registered");
        } else {
          apply(c.request(), false, c.host(), null);
        }
      });
    }
  }

  /**
   * Whether {@code msg} comes from neither the run's driver nor this node: opening a host's memory is
   * theirs to ask; the asker hears why not.
   */
  private boolean refused(Command msg, String targetHost, ActorRef<IsolationResult> replyTo) {
    if (ControlOrigins.admits(context, id, msg, replyTo)) {
      return false;
    }
    replyTo.tell(new IsolationResult(targetHost, false, "refused: " + ControlOrigin.describe(replyTo)
        + " is not the run's driver or this node"));
    return true;
  }

  private boolean refusedWithoutRoot(String host, ActorRef<IsolationResult> replyTo) {
    if (plan.target(host).isEmpty() || roots.containsKey(host)) {
      return false;
    }
    replyTo.tell(new IsolationResult(host, false, "the root endpoint of " + host + " has not registered yet"));
    return true;
  }

  /** Sends a request's change to its host's root endpoint, or answers with its error. */
  private void apply(IsolationControl.Request request, boolean install, String host,
      ActorRef<IsolationResult> replyTo) {
    if (request.error() != null) {
      if (replyTo != null) {
        replyTo.tell(new IsolationResult(host, false, request.error()));
      }
      return;
    }
    context.ask(MemoryEndpoint.AccessCheckResult.class, roots.get(host), CHANGE_TIMEOUT,
        ref -> new MemoryEndpoint.ChangeAccessCheck(request.change(), ref),
        (result, failure) -> new IsolationApplied(host, install, result, failure, replyTo));
  }

  void onIsolationApplied(IsolationApplied msg) {
    boolean accepted = msg.result() != null && msg.result().accepted();
    String detail = msg.result() != null ? msg.result().detail()
        : "no answer from the root endpoint of " + msg.targetHost() + ": " + msg.failure();
    if (msg.install() && !accepted) {
      isolation.enableFailed(msg.targetHost());
      context.getLog().warn("MH [{}] could not install the IOMMU of {}: {}", id, msg.targetHost(), detail);
    } else if (!accepted && msg.replyTo() == null) {
      context.getLog().warn("MH [{}] IOMMU of {} refused the controller's change: {}", id, msg.targetHost(), detail);
    } else {
      context.getLog().debug("MH [{}] IOMMU of {}: {}", id, msg.targetHost(), detail);
    }
    if (msg.replyTo() != null) {
      msg.replyTo().tell(new IsolationResult(msg.targetHost(), accepted, detail));
    }
  }

  void onRootListed(RootListed msg) {
    for (IsolationPlan.Target t : plan.targets()) {
      if (msg.listing().isForKey(t.root())) {
        msg.listing().getServiceInstances(t.root()).stream().findFirst()
            .ifPresentOrElse(ref -> roots.put(t.host(), ref), () -> roots.remove(t.host()));
      }
    }
  }
}
