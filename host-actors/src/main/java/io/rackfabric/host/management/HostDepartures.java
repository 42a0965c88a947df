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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * The MH's part in a compute host leaving the rack ({@link HostLossRule}): when both of a CH's
 * cables failed, it asks the management hosts' controller to remove the host (Device Lending: the
 * host's offers and loans end with it), at the model time its AER driver handled the second error.
 * It asks every controller of the pair it follows, whatever the order they were started in: both
 * hosts', wherever they run and once restarted too (its node finds them in the Receptionist; the
 * control plane's boot names the backup's before the run starts). The master serves it, a backup
 * or fenced host answers NOT_MASTER, so the removal reaches the master whichever host that is
 * (after a take-over or a switchover too). A controller that
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
  /** The controllers of the pair it follows, by actor name: the same set whatever their start order. */
  private final TreeMap<String, ActorRef<ControlPlaneHost.Command>> controllers = new TreeMap<>();
  /** The removals each controller still owes an answer to, by the controller asked (not its name). */
  private final Map<ActorRef<?>, List<Long>> owed = new HashMap<>();
  /** Each removal not answered by every controller asked (none: nothing is pending): its host, answers open, and whether one removed it. */
  private final Map<Long, Removal> removals = new HashMap<>();
  private long removalsAsked;
  private GuestCall held;

  private static final class Removal {
    final String host;
    int open;
    boolean removed;

    Removal(String host) {
      this.host = host;
    }
  }

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
    if (controller.equals(controllers.get(name))) {
      controllers.remove(name);
    }
    List<Long> unanswered = owed.remove(controller);
    if (unanswered == null) {
      return null;
    }
    context.getLog().info("MH [{}] the controller {} stopped: its {} answer(s) to removals are not waited for", id,
        name, unanswered.size());
    unanswered.forEach(r -> closed(r, false));
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
      long removal = ++removalsAsked;
      Removal r = new Removal(lost.host());
      removals.put(removal, r);
      for (ActorRef<ControlPlaneHost.Command> c : controllers.values()) {
        // An ask per controller: its answer names it (one message adapter per class would not).
        r.open++;
        owed.computeIfAbsent(c, k -> new ArrayList<>()).add(removal);
        context.ask(OperationResult.class, c, ANSWER_TIMEOUT,
            to -> new ControlPlaneHost.Submit(new Controller.RemoveHost(lost.host(), lost.at(), to)),
            (result, failure) -> new HostRemovalAnswered(lost.host(), c, removal, result, failure));
      }
    });
    return true;
  }

  /** Whether {@code call} must wait for the controller's answers (a removal asked for in it, under the kernel). */
  boolean hold(GuestCall call, boolean underKernel) {
    if (underKernel && !removals.isEmpty() && held == null) {
      held = call;
      return true;
    }
    return false;
  }

  /** A controller answered a removal; the held call is returned once none is pending. */
  GuestCall answered(HostRemovalAnswered msg) {
    List<Long> unanswered = owed.get(msg.controller());
    if (unanswered == null || !unanswered.remove((Long) msg.removal())) {
      return null; // from a controller that stopped meanwhile: no longer waited for
    }
    if (unanswered.isEmpty()) {
      owed.remove(msg.controller());
    }
    OperationResult r = msg.result();
    String name = msg.controller().path().name();
    if (r == null) {
      context.getLog().warn("MH [{}] no answer from the controller {} to the removal of {}: {}", id, name,
          msg.host(), String.valueOf(msg.failure()));
    } else if (r.accepted()) {
      context.getLog().info("MH [{}] the controller {} removed {} at model {} ns: {}", id, name, msg.host(), r.at(),
          List.copyOf(r.events()));
    } else if (r.status() != Controller.Status.NOT_MASTER) {
      context.getLog().warn("MH [{}] the controller {} did not remove {}: {} {}", id, name, msg.host(), r.status(),
          r.detail());
    }
    closed(msg.removal(), r != null && r.accepted());
    return release();
  }

  /** One answer of removal {@code id} in (or given up); once all are, a removal nobody made is logged. */
  private void closed(long removal, boolean removed) {
    Removal r = removals.get(removal);
    r.removed |= removed;
    if (--r.open == 0) {
      removals.remove(removal);
      if (!r.removed) {
        context.getLog().warn("MH [{}] no controller removed {}: none it follows is the master", id, r.host);
      }
    }
  }

  /** The held call once no answer is pending, else null. */
  private GuestCall release() {
    if (removals.isEmpty() && held != null) {
      GuestCall call = held;
      held = null;
      return call;
    }
    return null;
  }
}
