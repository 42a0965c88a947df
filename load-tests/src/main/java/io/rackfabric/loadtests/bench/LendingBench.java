package io.rackfabric.loadtests.bench;

import akka.actor.typed.ActorRef;
import akka.actor.typed.ActorSystem;
import akka.actor.typed.Props;
import akka.actor.typed.javadsl.Behaviors;
import akka.persistence.typed.PersistenceId;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.rackfabric.loadtests.harness.Asks;
import io.rackfabric.loadtests.report.Figure;
import io.rackfabric.loadtests.scenario.ScenarioKinds;
import io.rackfabric.loadtests.scenario.ScenarioRunner;
import io.rackfabric.loadtests.scenario.language.Scenario;
import io.rackfabric.loadtests.scenario.language.ScenarioLoader;
import io.rackfabric.loadtests.scenario.language.ScenarioOptions;
import io.rackfabric.persistence.controller.BarRecord;
import io.rackfabric.persistence.controller.Controller;
import io.rackfabric.persistence.controller.Controller.OperationResult;
import io.rackfabric.persistence.controller.LendableKind;
import io.rackfabric.persistence.controller.Replication;
import io.rackfabric.persistence.journal.JournalConfig;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Device Lending's two costs in wall time: the controller's loans, and the DMA sweep of one
 * experiment. Loans: one event-sourced {@link Controller} on the H2 file journal {@link
 * ControllerBench} uses, without replication (so it is the controller and its journal alone); a
 * lender offers a GPU once, then each round the borrower borrows it and returns it, each operation
 * waited for. Sweep: the bundled {@code lending-bandwidth-b2b} scenario (4 KiB to 16 MiB, writes
 * and reads) run in this JVM as {@code rack run} runs it.
 */
final class LendingBench {

  static final String SWEEP_SCENARIO = "lending-bandwidth-b2b";
  /** The target: one experiment's sweep in under a minute of wall time on two cores. */
  static final double SWEEP_TARGET_S = 60;

  private static final Duration WAIT = Duration.ofMinutes(1);
  private static final long GIB = 1L << 30;
  /** Two hosts and the offer. */
  private static final int BOOT_EVENTS = 3;

  /** Loans measured: {@code opsPerS} borrows and returns (each one operation) per wall second. */
  record Loans(int rounds, long operations, double opsPerS) {}

  /** The sweep measured: its wall time and the bandwidth figures it produced (direction x size). */
  record Sweep(double wallS, int points, List<Figure> figures) {}

  private LendingBench() {}

  static Loans loans(int rounds, Path dataDir, PrintStream out) throws Exception {
    Config config = JournalConfig.h2(dataDir, "bench", 2).withFallback(ConfigFactory.load());
    ActorSystem<Void> system = ActorSystem.create(Behaviors.empty(), "lending-bench", config);
    try {
      JournalConfig.createSchema(system).toCompletableFuture().get(1, TimeUnit.MINUTES);
      ActorRef<Controller.Command> controller = system.systemActorOf(Controller.create(
          PersistenceId.ofUniqueId("lending-bench"), 16, Replication.none()), "controller", Props.empty());
      // ch1 borrows, ch2 lends: the values of the persistence tests' sample rack.
      submit(system, controller, r -> new Controller.AddHost("ch1", 0x0100, 32 * GIB, 32 * GIB, 0, r));
      submit(system, controller, r -> new Controller.AddHost("ch2", 0x0200, 64 * GIB, 32 * GIB, 0, r));
      submit(system, controller, r -> new Controller.OfferDevice("gpu0", "ch2", LendableKind.GPU, List.of(
          new BarRecord(0, 0x2000_0000L, 16 << 10, false), new BarRecord(1, 0x4000_0000L, 256 << 20, true)), 0, r));

      out.printf("  %,d rounds of borrow + return through the controller, each waited for...%n", rounds);
      long t0 = System.nanoTime();
      for (int k = 0; k < rounds; k++) {
        long at = 1_000L + 2L * k;
        submit(system, controller, r -> new Controller.BorrowDevice("gpu0", "ch1", null, 0x60_0000_0000L, GIB,
            32 * GIB, at, r));
        submit(system, controller, r -> new Controller.ReturnDevice("gpu0", "ch1", at + 1, r));
      }
      double seconds = (System.nanoTime() - t0) / 1e9;
      Controller.CurrentState state = Asks.ask(system, controller, Controller.GetState::new, WAIT);
      long operations = 2L * rounds;
      if (state.lastSeqNr() != BOOT_EVENTS + operations) {
        throw new IllegalStateException("journal holds " + state.lastSeqNr() + " events, expected "
            + (BOOT_EVENTS + operations));
      }
      return new Loans(rounds, operations, operations / seconds);
    } finally {
      system.terminate();
      system.getWhenTerminated().toCompletableFuture().get(1, TimeUnit.MINUTES);
    }
  }

  /** The bundled sweep's text. */
  static String bundledSweep() throws Exception {
    return ScenarioLoader.text(SWEEP_SCENARIO);
  }

  /** Runs the scenario {@code text} in this JVM; the wall time is parse, rack start, copies and stop. */
  static Sweep sweep(String text, Path runDir, PrintStream out) throws Exception {
    Files.createDirectories(runDir);
    var kinds = ScenarioKinds.standard();
    long t0 = System.nanoTime();
    Scenario s = ScenarioLoader.parse(text, SWEEP_SCENARIO + ".conf", null, kinds, ScenarioOptions.NONE);
    ScenarioRunner.Outcome o = new ScenarioRunner(kinds).run(s, runDir.resolve("run"), out);
    double wallS = (System.nanoTime() - t0) / 1e9;
    List<Figure> bandwidth = o.figures().stream().filter(f -> f.name().endsWith(".bandwidth_MBps")).toList();
    if (bandwidth.isEmpty()) {
      throw new IllegalStateException(SWEEP_SCENARIO + " produced no DMA bandwidth figure: the sweep did not run");
    }
    return new Sweep(wallS, bandwidth.size(), bandwidth);
  }

  private static void submit(ActorSystem<?> system, ActorRef<Controller.Command> controller,
      Function<ActorRef<OperationResult>, Controller.Operation> op) throws Exception {
    OperationResult r = Asks.<Controller.Command, OperationResult>ask(system, controller, op::apply, WAIT);
    if (!r.accepted()) {
      throw new IllegalStateException("operation refused: " + r.status() + " " + r.detail());
    }
  }
}
