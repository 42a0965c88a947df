package io.rackfabric.loadtests.scenario;

import akka.actor.typed.ActorRef;
import akka.actor.typed.Props;
import io.rackfabric.host.device.disk.DiskDriver;
import io.rackfabric.host.device.disk.DiskReadSequence.DiskReadRecord;
import io.rackfabric.host.lending.LoanFollower;
import io.rackfabric.loadtests.harness.Asks;
import io.rackfabric.loadtests.scenario.api.DiskReadsResult;
import io.rackfabric.loadtests.scenario.api.RunningRack;
import io.rackfabric.loadtests.scenario.language.DiskReads;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A scenario's {@code disk-reads} on a running rack: one {@link DiskDriver} per workload, a guest
 * of its root endpoint, spawned in the rack's JVM (single-JVM runs only, which the loader checks),
 * the workloads one after the other: two may share a disk, and a disk has one queue pair. Under the
 * model-time kernel the rack is held while a driver is handed its plan and its wakes are confirmed,
 * so its reads enter the model at their times: the first before the run's first stretch (which
 * releases the rack), at the rack's quiet or, with {@code at}, at that model time after the hosts'
 * start (a workload through a loan starts after the borrow); each later one once the rack is quiet
 * after the previous driver finished (its ENABLE=0 has arrived), released again at once.
 */
public final class DiskReadsRun {

  private static final Duration ASK = Duration.ofSeconds(10);
  /** How often a long wait for a driver says how far it got. */
  private static final long PROGRESS_NS = 5_000_000_000L;

  private record Driver(DiskReads spec, ActorRef<DiskDriver.Command> ref, CompletableFuture<DiskDriver.ReadsDone> done,
      ActorRef<LoanFollower.Command> follower) {}

  private final RunningRack rack;
  private final List<DiskReads> workloads;
  private final long seed;
  private final PrintStream progress;
  private Driver first;

  private DiskReadsRun(RunningRack rack, List<DiskReads> workloads, long seed, PrintStream progress) {
    this.rack = rack;
    this.workloads = workloads;
    this.seed = seed;
    this.progress = progress;
  }

  /** Starts the first workload's driver; returns with the rack still held at its start. */
  public static DiskReadsRun start(RunningRack rack, List<DiskReads> workloads, long seed, PrintStream progress)
      throws Exception {
    DiskReadsRun run = new DiskReadsRun(rack, workloads, seed, progress);
    DiskReads w = workloads.get(0);
    if (w.atNs() == DiskReads.AT_QUIET) {
      run.first = run.launch(w, run.heldAtQuiet());
    } else {
      long start = rack.hostStartModelTime();
      rack.holdModelTime(start);
      run.first = run.launch(w, start + w.atNs());
    }
    return run;
  }

  /** The rack's quiet model time, the rack held there. */
  private long heldAtQuiet() throws Exception {
    long at = Math.max(0, rack.quietModelTime());
    rack.holdModelTime(at);
    return at;
  }

  /** Hands {@code w}'s driver its plan from model time {@code startAt}, the rack held. */
  private Driver launch(DiskReads w, long startAt) throws Exception {
    if (w.forward() != null) {
      GpuCopiesRun.forwarder(rack, w.forward(), "disk-" + w.name()); // the lender's handler of a VM's MSI-X
    }
    ActorRef<DiskDriver.Command> ref = rack.system().systemActorOf(
        DiskDriver.create(w.driver(), rack.endpoint(w.driver())), "disk-driver-" + w.name(), Props.empty());
    CompletableFuture<DiskDriver.ReadsDone> done = Asks.<DiskDriver.Command, DiskDriver.ReadsDone>askAsync(
        rack.system(), ref, r -> new DiskDriver.Start(w.plan(startAt, seed), r), Duration.ofDays(1));
    // Answered after the driver asked for its wakes: they are at the endpoint before the confirm.
    Asks.<DiskDriver.Command, DiskDriver.ReadsDone>ask(rack.system(), ref, DiskDriver.GetProgress::new, ASK);
    ActorRef<LoanFollower.Command> follower = LoanFollowers.start(rack, w.disk(), w.driver(), "disk-reads " + w.name(),
        LoanFollower.disk(ref), progress);
    rack.confirmInputs(List.of(w.driver()));
    progress.printf("  disk-reads %s: %s drives %s from model %,d ns, %,d reads of %d blocks%n", w.name(), w.driver(),
        w.disk(), startAt, w.count(), w.blocks());
    return new Driver(w, ref, done, follower);
  }

  /**
   * Waits for every workload in turn (at most {@code timeout} in all), starting each next one once
   * the previous finished, with a progress line every few seconds; a workload not reached in time
   * is reported with no reads.
   */
  public List<DiskReadsResult> finish(Duration timeout) throws Exception {
    long start = System.nanoTime();
    long deadline = start + timeout.toNanos();
    List<DiskReadsResult> out = new ArrayList<>();
    Driver d = first;
    for (int i = 0; i < workloads.size(); i++) {
      if (i > 0) {
        if (!out.get(i - 1).error().isEmpty() || System.nanoTime() >= deadline) {
          out.add(new DiskReadsResult(workloads.get(i), List.of(), "not started: disk-reads "
              + workloads.get(i - 1).name() + " before it did not finish"));
          continue;
        }
        d = launch(workloads.get(i), heldAtQuiet());
        rack.releaseModelTime();
      }
      out.add(await(d, start, deadline));
    }
    // The last driver's CQ head and ENABLE=0 left with its last MSI-X and may still be on their way:
    // the run ends once they have arrived, so its model time and counts do not depend on how soon
    // the driver's answer reached this thread.
    rack.quietModelTime();
    return out;
  }

  private DiskReadsResult await(Driver d, long start, long deadline) throws Exception {
    int planned = d.spec().count();
    while (true) {
      long left = deadline - System.nanoTime();
      if (left > 0) {
        try {
          DiskDriver.ReadsDone done = d.done().get(Math.min(left, PROGRESS_NS), TimeUnit.NANOSECONDS);
          if (done.removal() != null) {
            // The driver declared its disk gone: the read in flight is lost, the rest never started;
            // the removal accounts for them, and the reads before it are whole.
            var r = done.removal();
            progress.printf("  disk-reads %s: surprise removal at model %,d ns after %,d of %,d reads: %s; lost in"
                + " flight %s, %,d not started%n", d.spec().name(), r.at(), done.reads().size(), planned, r.reason(),
                r.lost() == null ? "none" : r.lost(), r.notStarted());
          }
          return new DiskReadsResult(d.spec(), done.reads(), done.error(), done.removal(), done.moves(),
              d.follower() == null ? null : LoanFollowers.followed(rack, d.follower()));
        } catch (TimeoutException notYet) {
          // a progress line, below
        }
      }
      DiskDriver.ReadsDone now = Asks.<DiskDriver.Command, DiskDriver.ReadsDone>ask(rack.system(), d.ref(),
          DiskDriver.GetProgress::new, ASK);
      if (System.nanoTime() >= deadline) {
        return new DiskReadsResult(d.spec(), now.reads(), now.reads().size() + " of " + planned
            + " reads finished within the run's wall limit");
      }
      List<DiskReadRecord> r = now.reads();
      progress.printf("    %.1f s: disk-reads %s: %,d of %,d reads done; last MSI-X at model %.6f s%n",
          (System.nanoTime() - start) / 1e9, d.spec().name(), r.size(), planned,
          r.isEmpty() ? 0.0 : r.get(r.size() - 1).msiAt() / 1e9);
    }
  }
}
