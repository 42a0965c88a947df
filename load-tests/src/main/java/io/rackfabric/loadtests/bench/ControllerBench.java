package io.rackfabric.loadtests.bench;

import akka.actor.typed.ActorRef;
import akka.actor.typed.ActorSystem;
import akka.actor.typed.Props;
import akka.actor.typed.javadsl.Adapter;
import akka.actor.typed.javadsl.Behaviors;
import akka.persistence.jdbc.query.javadsl.JdbcReadJournal;
import akka.persistence.query.PersistenceQuery;
import akka.persistence.typed.PersistenceId;
import akka.stream.javadsl.Sink;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.rackfabric.host.controlplane.ControlPlaneHost;
import io.rackfabric.host.controlplane.ControlPlaneSettings;
import io.rackfabric.host.controlplane.TakeoverBreakdown;
import io.rackfabric.loadtests.harness.Asks;
import io.rackfabric.persistence.controller.Controller;
import io.rackfabric.persistence.controller.Controller.OperationResult;
import io.rackfabric.persistence.controller.ControllerEvent;
import io.rackfabric.persistence.controller.InlineStages;
import io.rackfabric.persistence.controller.PagePermission;
import io.rackfabric.persistence.controller.Replication;
import io.rackfabric.persistence.journal.JournalConfig;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.IntFunction;

/**
 * The controller against the bare journal it stands on, in one JVM on an H2 file journal: a
 * paired MMH and BMH take {@code events} IOMMU page operations (each persisted by both before it is
 * acknowledged); the MMH's software then stops and the BMH takes over, replaying the change log
 * over its template image (the emulator's own take-over time and replay rate, as in a real run);
 * then a host with an empty journal rejoins the new master as its backup and receives its whole
 * journal and state ({@link RejoinTransfer}); finally a fresh controller recovers the MMH's
 * journal, against the bare read of the same events.
 * Between the two, the write baseline: the events the pair persisted, written again to the same
 * journal by a plain persistent actor with the same number in flight.
 */
public final class ControllerBench {

  /** Requests the MMH may have unacknowledged at once: under its max-in-flight. */
  static final int WINDOW = 32;
  private static final Duration WAIT = Duration.ofMinutes(5);
  private static final long GIB = 1L << 30;
  /** Two hosts, the end of enumeration, the template image. */
  private static final int BOOT_EVENTS = 4;

  /**
   * What one run measured (wall clock).
   *
   * @param replicatedOpsPerS operations acknowledged per second, each persisted by the MMH and the BMH
   * @param bareWriteEventsPerS the same events persisted per second by a plain persistent actor on
   *     the same journal, with the same number in flight ({@link BareJournalWriter})
   * @param rejoin the state transfer to a host that rejoined the new master after the take-over
   * @param recoveryEventsPerS change-log events a fresh controller folds per second on recovery
   * @param bareReadEventsPerS the same events read from the journal without a controller
   */
  public record Result(int events, double replicatedOpsPerS, double bareWriteEventsPerS, TakeoverBreakdown takeover,
      RejoinTransfer rejoin, double recoveryEventsPerS, double bareReadEventsPerS) {}

  /** Issue 16's targets: replicated ops against the bare write, take-over replay against the bare read. */
  static final double REPLICATED_TARGET = 0.5;
  static final double REPLAY_TARGET = 0.8;
  /** The take-over's wall-time target at {@link #TAKEOVER_TARGET_EVENTS} events, scaling linearly. */
  static final double TAKEOVER_TARGET_S = 0.5;
  static final int TAKEOVER_TARGET_EVENTS = 10_000;

  private ControllerBench() {}

  /** One line saying which of the targets a run of {@code events} met. */
  /**
   * @param readBack change-log events the take-over read back from the journal: with none (resumed
   *     from the backup's held state) there is no replay whose rate a target could judge
   */
  static String verdicts(int events, double replicatedRatio, double replayRatio, long readBack,
      double takeoverWallS) {
    double takeoverTarget = TAKEOVER_TARGET_S * events / TAKEOVER_TARGET_EVENTS;
    String replay = readBack == 0
        ? "take-over replay: none (0 events read back, resumed from the backup's held state)"
        : String.format("take-over replay %.2f of the bare read (>= %.1f: %s)", replayRatio, REPLAY_TARGET,
            met(replayRatio >= REPLAY_TARGET));
    return String.format("%,d events: replicated ops %.2f of the bare write (>= %.1f: %s), %s, take-over wall"
            + " %.3f s (<= %.2f s: %s)", events, replicatedRatio, REPLICATED_TARGET,
        met(replicatedRatio >= REPLICATED_TARGET), replay, takeoverWallS, takeoverTarget,
        met(takeoverWallS <= takeoverTarget));
  }

  private static String met(boolean ok) {
    return ok ? "met" : "NOT met";
  }

  public static Result run(int events, Path dataDir, PrintStream out) throws Exception {
    Config config = JournalConfig.h2(dataDir, "bench", 2).withFallback(ConfigFactory.load());
    ActorSystem<Void> system = ActorSystem.create(Behaviors.empty(), "controller-bench", config);
    try {
      JournalConfig.createSchema(system).toCompletableFuture().get(1, TimeUnit.MINUTES);
      ControlPlaneSettings settings = ControlPlaneSettings.create(config);
      ActorRef<ControlPlaneHost.Command> bmh = system.systemActorOf(ControlPlaneHost.create("bmh",
          ControlPlaneHost.Role.BACKUP, PersistenceId.ofUniqueId("controller-bmh"), settings, List.of()), "bmh",
          Props.empty());
      ActorRef<ControlPlaneHost.Command> mmh = system.systemActorOf(ControlPlaneHost.create("mmh",
          ControlPlaneHost.Role.BOOTING, PersistenceId.ofUniqueId("controller-mmh"), settings, List.of()), "mmh",
          Props.empty());
      ControlPlaneHost.RoleChanged paired = Asks.ask(system, mmh, r -> new ControlPlaneHost.BecomeMaster(bmh, r), WAIT);
      if (!paired.ok()) {
        throw new IllegalStateException("the MMH and the BMH did not pair: " + paired.detail());
      }
      submit(system, mmh, r -> new Controller.AddHost("ch1", 0x0100, 64 * GIB, 64 * GIB, 0, r));
      submit(system, mmh, r -> new Controller.AddHost("ch2", 0x0200, 128 * GIB, 64 * GIB, 0, r));
      submit(system, mmh, r -> new Controller.CompleteEnumeration("mmh", 0, r));
      submit(system, mmh, r -> new Controller.TakeTemplateImage(0, r));

      out.printf("  %,d IOMMU page operations through the paired MMH and BMH (%d in flight)...%n", events, WINDOW);
      ControllerEvent[] persisted = new ControllerEvent[events];
      double writeSeconds = windowed(events, k -> {
        long page = 64 * GIB + k * 4096L;
        long at = 1_000L + k;
        return InlineStages.of(Asks.<ControlPlaneHost.Command, OperationResult>askAsync(system, mmh,
                r -> new ControlPlaneHost.Submit(new Controller.OpenIommuPage("ch1", 0x0200, page,
                    PagePermission.READ_WRITE, at, r)), WAIT))
            .thenApply(res -> {
              if (!res.accepted() || res.events().size() != 1) {
                return res.status() + " " + res.detail() + " with " + res.events().size() + " events";
              }
              persisted[k] = res.events().get(0);
              return null;
            });
      });

      out.printf("  the bare write baseline: the same %,d events persisted by a plain persistent actor (%d in flight)...%n",
          events, WINDOW);
      ActorRef<BareJournalWriter.Command> writer = system.systemActorOf(
          BareJournalWriter.create(PersistenceId.ofUniqueId("bare-writer")), "bare-writer", Props.empty());
      double bareWriteSeconds = windowed(events, k -> InlineStages.of(
          Asks.<BareJournalWriter.Command, BareJournalWriter.Written>askAsync(system, writer,
              r -> new BareJournalWriter.Write(persisted[k], r), WAIT))
          .thenApply(w -> w.seqNr() == k + 1 ? null : "written as seqNr " + w.seqNr()));

      out.println("  the MMH's software stops; the BMH takes over...");
      CompletableFuture<TakeoverBreakdown> took = new CompletableFuture<>();
      ActorRef<TakeoverBreakdown> watcher = system.systemActorOf(Behaviors.<TakeoverBreakdown>receiveMessage(b -> {
        took.complete(b);
        return Behaviors.stopped();
      }), "takeover-watch", Props.empty());
      bmh.tell(new ControlPlaneHost.SubscribeTakeovers(watcher));
      system.classicSystem().stop(Adapter.toClassic(mmh));
      TakeoverBreakdown takeover = took.get(5, TimeUnit.MINUTES);

      out.println("  a host with an empty journal rejoins the BMH as its backup: the events in chunks, the state checked by its digest...");
      RejoinTransfer rejoin = RejoinTransfer.measure(system, bmh, events + BOOT_EVENTS, settings, WAIT);

      out.println("  a fresh controller recovers the MMH's journal; the bare journal read of the same events...");
      long r0 = System.nanoTime();
      ActorRef<Controller.Command> again = system.systemActorOf(Controller.create(
          PersistenceId.ofUniqueId("controller-mmh"), 16, Replication.none()), "recovered", Props.empty());
      Controller.CurrentState recovered = Asks.ask(system, again, Controller.GetState::new, WAIT);
      double recoverySeconds = (System.nanoTime() - r0) / 1e9;
      if (recovered.lastSeqNr() != events + BOOT_EVENTS) {
        throw new IllegalStateException("recovered " + recovered.lastSeqNr() + " events, expected "
            + (events + BOOT_EVENTS));
      }
      JdbcReadJournal reader = PersistenceQuery.get(system)
          .getReadJournalFor(JdbcReadJournal.class, JdbcReadJournal.Identifier());
      long b0 = System.nanoTime();
      long read = reader.currentEventsByPersistenceId("controller-mmh", BOOT_EVENTS + 1, Long.MAX_VALUE)
          .runWith(Sink.fold(0L, (n, e) -> n + 1), system).toCompletableFuture().get(5, TimeUnit.MINUTES);
      double bareSeconds = (System.nanoTime() - b0) / 1e9;
      return new Result(events, events / writeSeconds, events / bareWriteSeconds, takeover, rejoin,
          events / recoverySeconds, read / bareSeconds);
    } finally {
      system.terminate();
      system.getWhenTerminated().toCompletableFuture().get(1, TimeUnit.MINUTES);
    }
  }

  /**
   * Sends {@code count} asks, the k-th by {@code send.apply(k)}, with at most {@link #WINDOW}
   * unanswered, and returns the wall seconds from the first send to the last answer. Each answer
   * completes with null, or with what went wrong, which fails the run. The sends make their
   * futures with {@link InlineStages}, so that no thread is started per answer, on either side of
   * a ratio.
   */
  private static double windowed(int count, IntFunction<CompletableFuture<String>> send) throws InterruptedException {
    Semaphore window = new Semaphore(WINDOW);
    AtomicReference<String> failure = new AtomicReference<>();
    long t0 = System.nanoTime();
    for (int k = 0; k < count && failure.get() == null; k++) {
      window.acquire();
      int n = k;
      send.apply(k).whenComplete((problem, err) -> {
        if (err != null || problem != null) {
          failure.compareAndSet(null, "request " + n + ": " + (err != null ? err.toString() : problem));
        }
        window.release();
      });
    }
    window.acquire(WINDOW);
    double seconds = (System.nanoTime() - t0) / 1e9;
    if (failure.get() != null) {
      throw new IllegalStateException("a request failed: " + failure.get());
    }
    return seconds;
  }

  private static void submit(ActorSystem<?> system, ActorRef<ControlPlaneHost.Command> master,
      Function<ActorRef<OperationResult>, Controller.Operation> op) throws Exception {
    OperationResult r = Asks.<ControlPlaneHost.Command, OperationResult>ask(system, master,
        reply -> new ControlPlaneHost.Submit(op.apply(reply)), WAIT);
    if (!r.accepted()) {
      throw new IllegalStateException("boot operation refused: " + r.status() + " " + r.detail());
    }
  }
}
