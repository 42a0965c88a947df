package io.rackfabric.loadtests.scenario;

import akka.actor.typed.ActorRef;
import akka.actor.typed.ActorSystem;
import io.rackfabric.fabric.link.PortMessage;
import io.rackfabric.fabric.time.TimeKeeper;
import io.rackfabric.loadtests.harness.Asks;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The run's model-time kernel as the run driver uses it: holds and limits, members' confirmations
 * and pauses, the rack's quiet and the one start of its host software, and the members the kernel
 * forgets when they stop. Without a kernel (a free-running rack) each call does nothing, or says
 * there is no model time. Thread-safe as far as the driver's threads need: {@link #hostStart} is
 * decided once.
 */
final class RackClock {

  /** Resolves a kernel member by its id: an endpoint, or a port "switch.port". */
  @FunctionalInterface
  interface Members {
    ActorRef<PortMessage> member(String id) throws Exception;
  }

  private static final Duration ASK = Duration.ofSeconds(5);
  private static final Duration STATUS = Duration.ofSeconds(30);
  /** Everything before a hold runs to completion first; the run's wall limit bounds it. */
  private static final Duration HOLD = Duration.ofMinutes(30);

  private final ActorSystem<?> system;
  private final Members members;
  private volatile ActorRef<TimeKeeper.Command> keeper;
  /** {@link #hostStart}, once asked; -1 before. */
  private long hostStart = -1;

  RackClock(ActorSystem<?> system, Members members) {
    this.system = system;
    this.members = members;
  }

  /** The run's keeper from now on (set by {@link RackStart}); null: the rack runs free of a kernel. */
  void use(ActorRef<TimeKeeper.Command> keeper) {
    this.keeper = keeper;
  }

  /** The run's keeper, or null when the rack runs free of a kernel. */
  ActorRef<TimeKeeper.Command> keeper() {
    return keeper;
  }

  boolean running() {
    return keeper != null;
  }

  /** Holds the rack before {@code until}, once everything earlier is done. */
  void hold(long until) throws Exception {
    if (keeper != null) {
      Asks.<TimeKeeper.Command, TimeKeeper.Status>ask(system, keeper, r -> new TimeKeeper.HoldBefore(until, r), HOLD);
    }
  }

  /** Lets the rack run up to {@code until} and no further, without waiting. */
  void limit(long until) {
    if (keeper != null) {
      keeper.tell(new TimeKeeper.Limit(until));
    }
  }

  /** At the end of a run, before its actors stop: nothing more is granted ({@link TimeKeeper.Limit#freeze}). */
  void freeze() {
    if (keeper != null) {
      keeper.tell(TimeKeeper.Limit.freeze());
    }
  }

  void release() {
    if (keeper != null) {
      keeper.tell(new TimeKeeper.Release());
    }
  }

  /**
   * Has each of {@code ids} report to the keeper what it was handed ({@link #confirmTogether});
   * one that does not answer is an error here (the rack's start, where every member is live).
   */
  void confirmAll(Collection<String> ids) throws Exception {
    List<String> silent = confirmTogether(ids);
    if (!silent.isEmpty()) {
      throw new IllegalStateException("kernel members did not confirm their inputs in " + ASK + ": " + silent);
    }
  }

  /**
   * Has each of {@code ids} report to the keeper what it was handed, the asks sent together and
   * awaited once, however many members; returns the members that did not answer within the ask's
   * time (a frozen JVM, or not found), empty when all did.
   */
  List<String> confirmTogether(Collection<String> ids) throws Exception {
    if (keeper == null) {
      return List.of();
    }
    Map<String, CompletableFuture<TimeKeeper.Confirmed>> asks = new LinkedHashMap<>();
    for (String id : ids) {
      try {
        asks.put(id, Asks.askAsync(system, members.member(id), TimeKeeper.Confirm::new, ASK));
      } catch (Exception e) {
        asks.put(id, CompletableFuture.failedFuture(e)); // not found: it did not answer
      }
    }
    List<String> silent = new ArrayList<>();
    asks.forEach((id, ask) -> {
      if (ask.handle((ok, failure) -> failure == null).join() == Boolean.FALSE) {
        silent.add(id);
      }
    });
    return silent;
  }

  /** The latest model time the quiet rack reached; -1 without a kernel. */
  long quiet() throws Exception {
    if (keeper == null) {
      return -1;
    }
    return Asks.<TimeKeeper.Command, TimeKeeper.Status>ask(system, keeper, TimeKeeper.AwaitIdle::new, HOLD).reached();
  }

  /** The one model time every piece of host software of the run starts at: the rack's first quiet. */
  synchronized long hostStart() throws Exception {
    if (hostStart < 0) {
      hostStart = Math.max(0, quiet());
    }
    return hostStart;
  }

  Optional<TimeKeeper.Status> status() throws Exception {
    if (keeper == null) {
      return Optional.empty();
    }
    return Optional.of(Asks.ask(system, keeper, TimeKeeper.GetStatus::new, STATUS));
  }

  /**
   * Before kernel members stop at model time {@code modelAt}: each reports its last sends and the
   * rack is held until they have all arrived, so that {@link #forget} leaves every count exact.
   * Were they dropped as dead unannounced, their receivers would be balanced leniently and could
   * be handed a live partner's message late (a straggler, at a time that depends on the machine).
   */
  void settleBeforeStop(List<String> stopping, long modelAt) throws Exception {
    if (keeper == null) {
      return;
    }
    confirmAll(stopping);
    hold(modelAt);
  }

  /** The kernel goes on without {@code stopped}, stopped after {@link #settleBeforeStop}. */
  void forget(List<String> stopped) {
    if (keeper != null) {
      keeper.tell(new TimeKeeper.Forget(List.copyOf(stopped)));
    }
  }

  /**
   * Tells the keeper that {@code members}, forgotten after their node's kill, come back at model
   * time {@code at} (their node restarts): completed once they all joined again, or at once with
   * the reason it is refused (see {@link TimeKeeper.ExpectBack}).
   */
  java.util.concurrent.CompletableFuture<TimeKeeper.Back> expectBack(List<String> members, long at, Duration timeout) {
    return Asks.askAsync(system, keeper, r -> new TimeKeeper.ExpectBack(List.copyOf(members), at, r), timeout);
  }

  /** Pauses kernel member {@code member} over model time [from, until). */
  void pause(String member, long from, long until) throws Exception {
    Asks.<PortMessage, TimeKeeper.Confirmed>ask(system, members.member(member),
        r -> new TimeKeeper.Pause(from, until, r), ASK);
  }
}
