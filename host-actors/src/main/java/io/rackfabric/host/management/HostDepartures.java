package io.rackfabric.host.management;

import akka.actor.typed.ActorRef;
import akka.actor.typed.javadsl.ActorContext;
import io.rackfabric.fabric.endpoint.GuestCall;
import io.rackfabric.host.controlplane.ControlPlaneHost;
import io.rackfabric.host.failover.HostLog;
import io.rackfabric.host.failover.HostLossRule;
import io.rackfabric.host.management.ManagementHost.Command;
import io.rackfabric.host.management.ManagementHost.HostRemovalAnswered;
import io.rackfabric.persistence.controller.Controller;
import io.rackfabric.persistence.controller.Controller.OperationResult;
import java.util.List;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * The MH's part in a compute host leaving the rack ({@link HostLossRule}): when both of a CH's
 * cables failed, it asks the management hosts' controller to remove the host (Device Lending: the
 * host's offers and loans end with it), at the model time its AER driver handled the second error.
 * It asks every controller of the pair it follows on this node, whatever the order they were
 * started in: the master serves it, a backup or fenced host answers NOT_MASTER, so the removal
 * reaches the master whichever host that is (after a take-over or a switchover too). Under the
 * kernel the endpoint's call that brought the error stays open until every controller asked has
 * answered, as a control-plane request's call does, so the removal enters the journal at its model
 * time, before anything later (a borrower's return of a device the dead host lent). Not
 * thread-safe: the MH actor's own.
 */
final class HostDepartures {

  private final ActorContext<Command> context;
  private final String id;
  private final HostLossRule rule;
  /** The controllers of the pair on this node, by actor name: the same set whatever their start order. */
  private final TreeMap<String, ActorRef<ControlPlaneHost.Command>> controllers = new TreeMap<>();
  private int pending;
  private GuestCall held;

  HostDepartures(ActorContext<Command> context, String id, HostLossRule rule) {
    this.context = context;
    this.id = id;
    this.rule = rule;
  }

  /** From now on removals go to {@code controller} too (a management host's controller on this node). */
  void follow(ActorRef<ControlPlaneHost.Command> controller) {
    controllers.put(controller.path().name(), controller);
  }

  /**
   * A fatal error from {@code source} arrived at model {@code arrivedAt}; true when the source is
   * one of the CHs' cable ports (the error is this rule's). A host left with no plane is logged in
   * {@code log} and removed through the controller.
   */
  boolean fatal(String source, long arrivedAt, Consumer<HostLog.Entry> log) {
    if (!rule.watches(source)) {
      return false;
    }
    rule.fatal(source, arrivedAt).ifPresent(lost -> {
      log.accept(new HostLog.Entry(HostLog.Step.HOST_LOST, lost.ch(), lost.at()));
      if (controllers.isEmpty()) {
        context.getLog().warn("MH [{}] lost CH{} ({}) on both planes at model {} ns; no controller to tell", id,
            lost.ch(), lost.host(), lost.at());
        return;
      }
      context.getLog().warn("MH [{}] lost CH{} ({}) on both planes at model {} ns: the host left; the controller"
          + " removes it", id, lost.ch(), lost.host(), lost.at());
      ActorRef<OperationResult> answer = context.messageAdapter(OperationResult.class,
          r -> new HostRemovalAnswered(lost.host(), r));
      for (ActorRef<ControlPlaneHost.Command> controller : controllers.values()) {
        pending++;
        controller.tell(new ControlPlaneHost.Submit(new Controller.RemoveHost(lost.host(), lost.at(), answer)));
      }
    });
    return true;
  }

  /** Whether {@code call} must wait for the controller's answers (a removal asked for in it, under the kernel). */
  boolean hold(GuestCall call, boolean underKernel) {
    if (underKernel && pending > 0 && held == null) {
      held = call;
      return true;
    }
    return false;
  }

  /** A controller answered a removal; the held call is returned once none is pending. */
  GuestCall answered(HostRemovalAnswered msg) {
    pending--;
    OperationResult r = msg.result();
    if (r.accepted()) {
      context.getLog().info("MH [{}] the controller removed {} at model {} ns: {}", id, msg.host(), r.at(),
          List.copyOf(r.events()));
    } else if (r.status() != Controller.Status.NOT_MASTER) {
      context.getLog().warn("MH [{}] the controller did not remove {}: {} {}", id, msg.host(), r.status(), r.detail());
    }
    if (pending == 0 && held != null) {
      GuestCall call = held;
      held = null;
      return call;
    }
    return null;
  }
}
