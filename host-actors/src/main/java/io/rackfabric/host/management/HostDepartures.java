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
import java.time.Duration;
import java.util.List;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * The MH's part in a compute host leaving the rack ({@link HostLossRule}): when both of a CH's
 * cables failed, it asks the management hosts' controller to remove the host (Device Lending: the
 * host's offers and loans end with it), at the model time its AER driver handled the second error.
 * It asks every controller of the pair it follows, whatever the order they were started in: the
 * one on this node and the pair's other host, which the control plane's boot names to it wherever
 * it runs. The master serves it, a backup or fenced host answers NOT_MASTER, so the removal reaches
 * the master whichever host that is (after a take-over or a switchover too). A controller that
 * stops (its JVM died) is asked no more, and an answer it still owed is not waited for. Under the
 * kernel the endpoint's call that brought the error stays open until every controller asked has
 * answered, as a control-plane request's call does, so the removal enters the journal at its model
 * time, before anything later (a borrower's return of a device the dead host lent). Not
 * thread-safe: the MH actor's own.
 */
final class HostDepartures {

  /** A stalled controller (not a stopped one: that is learnt at once) lets a held call go after this, in wall time. */
  private static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(60);

  private final ActorContext<Command> context;
  private final String id;
  private final HostLossRule rule;
  /** The controllers of the pair on this node, by actor name: the same set whatever their start order. */
  private final TreeMap<String, ActorRef<ControlPlaneHost.Command>> controllers = new TreeMap<>();
  /** Answers still owed, by controller name. */
  private final TreeMap<String, Integer> owed = new TreeMap<>();
  private int pending;
  private GuestCall held;

  HostDepartures(ActorContext<Command> context, String id, HostLossRule rule) {
    this.context = context;
    this.id = id;
    this.rule = rule;
  }

  /** From now on removals go to {@code controller} too (a management host's controller), watched until it stops. */
  void follow(ActorRef<ControlPlaneHost.Command> controller) {
    if (!controller.equals(controllers.put(controller.path().name(), controller))) {
      context.watch(controller);
    }
  }

  /**
   * {@code controller} stopped: it is asked no more, and the answers it owed are not waited for;
   * returns the held call when nothing else is pending, else null.
   */
  GuestCall stopped(ActorRef<?> controller) {
    String name = controller.path().name();
    if (!controller.equals(controllers.get(name))) {
      return null;
    }
    controllers.remove(name);
    Integer n = owed.remove(name);
    context.getLog().info("MH [{}] the controller {} stopped{}", id, name,
        n == null ? "" : ": its " + n + " answer(s) to removals are not waited for");
    if (n != null) {
      pending -= n;
    }
    return release();
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
      for (var c : controllers.entrySet()) {
        String name = c.getKey(); // an ask per controller: its answer names it (one adapter per class would not)
        pending++;
        owed.merge(name, 1, Integer::sum);
        context.ask(OperationResult.class, c.getValue(), ANSWER_TIMEOUT,
            to -> new ControlPlaneHost.Submit(new Controller.RemoveHost(lost.host(), lost.at(), to)),
            (r, failure) -> new HostRemovalAnswered(lost.host(), name, r, failure));
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
    Integer n = owed.get(msg.controller());
    if (n == null) {
      return null; // from a controller that stopped meanwhile: no longer waited for
    }
    if (n == 1) {
      owed.remove(msg.controller());
    } else {
      owed.put(msg.controller(), n - 1);
    }
    pending--;
    OperationResult r = msg.result();
    if (r == null) {
      context.getLog().warn("MH [{}] no answer from the controller {} to the removal of {}: {}", id, msg.controller(),
          msg.host(), String.valueOf(msg.failure()));
    } else if (r.accepted()) {
      context.getLog().info("MH [{}] the controller removed {} at model {} ns: {}", id, msg.host(), r.at(),
          List.copyOf(r.events()));
    } else if (r.status() != Controller.Status.NOT_MASTER) {
      context.getLog().warn("MH [{}] the controller did not remove {}: {} {}", id, msg.host(), r.status(), r.detail());
    }
    return release();
  }

  /** The held call once no answer is pending, else null. */
  private GuestCall release() {
    if (pending == 0 && held != null) {
      GuestCall call = held;
      held = null;
      return call;
    }
    return null;
  }
}
