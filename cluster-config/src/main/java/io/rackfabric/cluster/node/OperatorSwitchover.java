package io.rackfabric.cluster.node;

import akka.actor.typed.ActorRef;
import akka.actor.typed.ActorSystem;
import akka.actor.typed.Props;
import akka.actor.typed.javadsl.Adapter;
import akka.actor.typed.javadsl.AskPattern;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.receptionist.Receptionist;
import akka.actor.typed.receptionist.ServiceKey;
import io.rackfabric.cluster.topology.ControlPlaneSpec;
import io.rackfabric.host.controlplane.ControlPlaneHost;
import io.rackfabric.host.controlplane.ControlPlaneHost.HostStatus;
import io.rackfabric.host.controlplane.SwitchoverBreakdown;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/**
 * A managed switchover asked from outside the rack (Multi-peer "Redundancy": quiesce, switch,
 * resume), by an {@link OperatorMember}: finds the pair's hosts through the Receptionist as the
 * nodes do ({@link ComponentKeys#controlPlaneHost}), waits for a pair still booting, asks the master
 * ({@link SwitchoverChoice}) for {@link ControlPlaneHost.Switchover} at no particular model time
 * (whenever the master's clock stands), and reads the breakdown the old master kept. Every wait
 * ends at one wall-clock deadline: this is an operator's command, no emulated decision.
 */
public final class OperatorSwitchover {

  private OperatorSwitchover() {}

  /**
   * What came of it.
   *
   * @param ok the switchover was made
   * @param from the host asked (empty when none was)
   * @param breakdown the switchover's steps as the old master kept them (null unless ok, or when it
   *     did not answer for them)
   * @param detail the host's answer, or why nothing was asked
   * @param rolesBefore the pair's roles when asked, e.g. "mmh MASTER, bmh BACKUP"
   * @param rolesAfter the pair's roles afterwards (empty when nothing was asked)
   */
  public record Outcome(boolean ok, String from, String to, SwitchoverBreakdown breakdown, String detail,
      String rolesBefore, String rolesAfter) {

    static Outcome refused(String detail, String rolesBefore) {
      return new Outcome(false, "", "", null, detail, rolesBefore, "");
    }
  }

  /**
   * Runs the switchover from {@code system}, a member of the rack's cluster.
   *
   * @param to the host that should be master afterwards (one of the pair's ids), or null: the
   *     current master's backup
   * @param deadline {@link System#nanoTime()} by which everything must have answered
   */
  public static Outcome run(ActorSystem<?> system, ControlPlaneSpec pair, String to, long deadline)
      throws InterruptedException {
    // A host that is not running is never listed: the search takes at most half of what is left,
    // so that the listed one still has time to answer (a master without its backup gives its reason).
    long now = System.nanoTime();
    Map<String, ActorRef<ControlPlaneHost.Command>> hosts = find(system, pair, now + (deadline - now) / 2);
    if (hosts.isEmpty()) {
      return Outcome.refused("neither " + pair.master() + " nor " + pair.backup() + " is listed in the rack within"
          + " the time-out (are the management hosts' nodes running?)", "");
    }
    HostStatus master = status(system, hosts.get(pair.master()), deadline);
    HostStatus backup = status(system, hosts.get(pair.backup()), deadline);
    if (SwitchoverChoice.booting(master, backup)) {
      String notBooted = awaitBoot(system, deadline);
      if (notBooted != null) {
        return Outcome.refused(notBooted, SwitchoverChoice.roles(pair, master, backup));
      }
      master = status(system, hosts.get(pair.master()), deadline);
      backup = status(system, hosts.get(pair.backup()), deadline);
    }
    String before = SwitchoverChoice.roles(pair, master, backup);
    SwitchoverChoice.Choice choice = SwitchoverChoice.of(pair, master, backup, to);
    if (choice instanceof SwitchoverChoice.Refuse r) {
      return Outcome.refused(r.reason(), before);
    }
    SwitchoverChoice.Ask ask = (SwitchoverChoice.Ask) choice;
    ActorRef<ControlPlaneHost.Command> from = hosts.get(ask.from());
    ControlPlaneHost.RoleChanged changed;
    try {
      changed = ask(system, from, r -> new ControlPlaneHost.Switchover(false, r), deadline);
    } catch (Exception e) {
      return new Outcome(false, ask.from(), ask.to(), null, "no answer from " + ask.from() + " to the switchover"
          + " within the time-out: it may still be handing over (" + e.getClass().getSimpleName() + ")", before, "");
    }
    String after = SwitchoverChoice.roles(pair, status(system, hosts.get(pair.master()), deadline),
        status(system, hosts.get(pair.backup()), deadline));
    if (!changed.ok()) {
      return new Outcome(false, ask.from(), ask.to(), null, changed.detail(), before, after);
    }
    SwitchoverBreakdown made = null;
    try {
      ControlPlaneHost.Takeovers kept = OperatorSwitchover.<ControlPlaneHost.Command, ControlPlaneHost.Takeovers>ask(
          system, from, ControlPlaneHost.GetTakeovers::new, deadline);
      List<SwitchoverBreakdown> all = kept.switchovers();
      made = all.isEmpty() ? null : all.get(all.size() - 1); // the last one it handed over in: this one
    } catch (Exception e) {
      // made, but the old master did not answer for its steps: reported without them
    }
    return new Outcome(true, ask.from(), ask.to(), made, changed.detail(), before, after);
  }

  /** Both hosts once the Receptionist lists both, or whichever is listed at {@code deadline}, by id. */
  private static Map<String, ActorRef<ControlPlaneHost.Command>> find(ActorSystem<?> system, ControlPlaneSpec pair,
      long deadline) throws InterruptedException {
    Map<String, ActorRef<ControlPlaneHost.Command>> byId = new HashMap<>();
    Map<ServiceKey<ControlPlaneHost.Command>, ActorRef<ControlPlaneHost.Command>> listed = listed(system,
        List.of(ComponentKeys.controlPlaneHost(pair.master()), ComponentKeys.controlPlaneHost(pair.backup())), deadline);
    for (String id : List.of(pair.master(), pair.backup())) {
      ActorRef<ControlPlaneHost.Command> ref = listed.get(ComponentKeys.controlPlaneHost(id));
      if (ref != null) {
        byId.put(id, ref);
      }
    }
    return byId;
  }

  /**
   * The first instance of each of {@code keys} once the Receptionist lists all of them (a
   * subscription: the listings reach this member by the receptionist's gossip), or those listed at
   * the deadline.
   */
  private static <T> Map<ServiceKey<T>, ActorRef<T>> listed(ActorSystem<?> system, List<ServiceKey<T>> keys,
      long deadline) throws InterruptedException {
    Map<ServiceKey<T>, ActorRef<T>> found = new HashMap<>();
    CompletableFuture<Void> all = new CompletableFuture<>();
    ActorRef<Receptionist.Listing> watcher = system.systemActorOf(Behaviors.setup(ctx -> {
      keys.forEach(k -> ctx.getSystem().receptionist().tell(Receptionist.subscribe(k, ctx.getSelf())));
      return Behaviors.receiveMessage(listing -> {
        for (ServiceKey<T> key : keys) {
          if (listing.isForKey(key)) {
            synchronized (found) {
              listing.getServiceInstances(key).stream().findFirst().ifPresent(r -> found.put(key, r));
              if (found.size() == keys.size()) {
                all.complete(null);
              }
            }
          }
        }
        return Behaviors.same();
      });
    }), "operator-find-" + System.nanoTime(), Props.empty());
    try {
      all.get(remainingMs(deadline), TimeUnit.MILLISECONDS);
    } catch (TimeoutException | ExecutionException e) {
      // those listed by now
    } finally {
      system.classicSystem().stop(Adapter.toClassic(watcher));
    }
    synchronized (found) {
      return Map.copyOf(found);
    }
  }

  /** Null once the pair's boot ended booted; else why not (failed, or not booted by the deadline). */
  private static String awaitBoot(ActorSystem<?> system, long deadline) {
    try {
      ActorRef<ControlPlaneBoot.Command> boot =
          listed(system, List.of(ComponentKeys.controlPlaneBoot()), deadline).get(ComponentKeys.controlPlaneBoot());
      if (boot == null) {
        return "the pair is booting and its boot (on the master's node) is not listed in the rack by the time-out";
      }
      ControlPlaneBoot.BootProgress p = ask(system, boot, ControlPlaneBoot.AwaitBooted::new, deadline);
      return p.booted() ? null : "the pair's boot failed at " + p.step() + ": " + p.failure();
    } catch (Exception e) {
      return "the pair is still booting (Figure 4) at the time-out";
    }
  }

  private static HostStatus status(ActorSystem<?> system, ActorRef<ControlPlaneHost.Command> host, long deadline) {
    if (host == null) {
      return null;
    }
    try {
      return ask(system, host, ControlPlaneHost.GetStatus::new, deadline);
    } catch (Exception e) {
      return null;
    }
  }

  private static <Q, R> R ask(ActorSystem<?> system, ActorRef<Q> target, Function<ActorRef<R>, Q> message,
      long deadline) throws Exception {
    long ms = remainingMs(deadline);
    return AskPattern.<Q, R>ask(target, message::apply, Duration.ofMillis(ms), system.scheduler())
        .toCompletableFuture().get(ms + 1000, TimeUnit.MILLISECONDS);
  }

  /** What is left until {@code deadline}, at least 1 ms (an ask of 0 is refused). */
  private static long remainingMs(long deadline) {
    return Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
  }
}
