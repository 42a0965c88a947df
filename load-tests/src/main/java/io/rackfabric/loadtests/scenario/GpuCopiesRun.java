package io.rackfabric.loadtests.scenario;

import akka.actor.typed.ActorRef;
import io.rackfabric.cluster.node.ComponentKeys;
import akka.actor.typed.Props;
import io.rackfabric.host.device.gpu.CopySequence.CopyRecord;
import io.rackfabric.host.device.gpu.CopySequence.SurpriseRemoval;
import io.rackfabric.host.device.gpu.GpuDevice;
import io.rackfabric.host.device.gpu.GpuDriver;
import io.rackfabric.host.lending.LoanFollower;
import io.rackfabric.host.vm.InterruptForwarder;
import io.rackfabric.host.vm.VmSettings;
import io.rackfabric.loadtests.harness.Asks;
import io.rackfabric.loadtests.scenario.api.GpuCopiesResult;
import io.rackfabric.loadtests.scenario.api.RunningRack;
import io.rackfabric.loadtests.scenario.language.GpuCopies;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A scenario's {@code gpu-copies} on a running rack: one {@link GpuDriver} per workload, a guest
 * of its root endpoint, spawned in the rack's JVM (single-JVM runs only, which the loader checks).
 * Under the model-time kernel the rack is held at the latest model time it reached while each
 * driver is handed its plan and its first doorbell's wake is confirmed, so the copies enter the
 * model at their times; the run's first stretch releases the rack. A workload with {@code after}
 * starts once that one has finished and the rack is quiet, held and released again the same way.
 */
public final class GpuCopiesRun {

  private static final Duration ASK = Duration.ofSeconds(10);
  /** How often a long wait for the drivers says how far they got. */
  private static final long PROGRESS_NS = 5_000_000_000L;

  /** A started workload; {@code failedBefore} its GPUs' failed copies at its start. */
  private record Driver(GpuCopies spec, ActorRef<GpuDriver.Command> ref,
      CompletableFuture<GpuDriver.CopiesDone> done, Map<String, Long> failedBefore,
      ActorRef<LoanFollower.Command> follower) {}

  private final RunningRack rack;
  private final List<GpuCopies> workloads;
  /** Started workloads by name. */
  private final Map<String, Driver> drivers = new HashMap<>();
  private final PrintStream progress;

  private GpuCopiesRun(RunningRack rack, List<GpuCopies> workloads, PrintStream progress) {
    this.rack = rack;
    this.workloads = workloads;
    this.progress = progress;
  }

  /** Starts every workload without {@code after}; returns with the rack still held at their start. */
  public static GpuCopiesRun start(RunningRack rack, List<GpuCopies> workloads, PrintStream progress)
      throws Exception {
    GpuCopiesRun run = new GpuCopiesRun(rack, workloads, progress);
    long startAt = rack.hostStartModelTime();
    rack.holdModelTime(startAt);
    for (GpuCopies w : workloads) {
      if (w.after() == null) {
        run.launch(w, startAt + w.atNs());
      }
    }
    return run;
  }

  /** Hands {@code w}'s driver its plan from model time {@code startAt}, the rack held there. */
  private void launch(GpuCopies w, long startAt) throws Exception {
    if (w.forward() != null) {
      forwarder(rack, w.forward(), w.name());
    }
    Map<String, Long> failedBefore = new HashMap<>();
    for (String gpu : w.driven()) {
      failedBefore.put(gpu, stats(gpu).copiesFailed());
    }
    ActorRef<GpuDriver.Command> ref = rack.system().systemActorOf(
        GpuDriver.create(w.driver(), rack.endpoint(w.driver())), "gpu-driver-" + w.name(), Props.empty());
    CompletableFuture<GpuDriver.CopiesDone> done = Asks.<GpuDriver.Command, GpuDriver.CopiesDone>askAsync(
        rack.system(), ref, r -> new GpuDriver.Start(w.plan(startAt), r), Duration.ofDays(1));
    // Answered after the driver asked for its first wake: the wake is at the endpoint before the confirm.
    Asks.<GpuDriver.Command, GpuDriver.CopiesDone>ask(rack.system(), ref, GpuDriver.GetProgress::new, ASK);
    ActorRef<LoanFollower.Command> follower = LoanFollowers.start(rack, w, ref, progress);
    rack.confirmInputs(List.of(w.driver()));
    drivers.put(w.name(), new Driver(w, ref, done, failedBefore, follower));
    progress.printf("  gpu-copies %s: %s drives %s from model %,d ns, %,d copies (%s, %d size(s) from %s to %s, %d"
        + " each)%n", w.name(), w.driver(), String.join(" and ", w.driven()), startAt, w.copies().size(),
        w.directions().stream().map(d -> d.label()).toList(), w.sizes().size(), GpuCopies.sizeText(w.sizes().get(0)),
        GpuCopies.sizeText(w.largest()), w.repeat());
  }

  private GpuDevice.GpuStats stats(String gpu) throws Exception {
    ActorRef<GpuDevice.Command> ref = Asks.find(rack.system(), ComponentKeys.gpu(gpu), ASK);
    return Asks.<GpuDevice.Command, GpuDevice.GpuStats>ask(rack.system(), ref, GpuDevice.GetStats::new, ASK);
  }

  /** The lender-side handler of a VM borrower's interrupts, attached to the lender before the rack goes on. */
  static void forwarder(RunningRack rack, GpuCopies.MsiForward f, String workload) throws Exception {
    ActorRef<InterruptForwarder.Command> ref = rack.system().systemActorOf(
        InterruptForwarder.create(f.lender(), rack.endpoint(f.lender())), "msi-forwarder-" + workload, Props.empty());
    long delay = VmSettings.create(rack.system().settings().config()).forwardDelayNs();
    // Answered once the watch is asked for: it is at the endpoint before the confirm.
    Asks.<InterruptForwarder.Command, InterruptForwarder.Forwarded>ask(rack.system(), ref,
        r -> new InterruptForwarder.Start(f.word(), f.to(), delay, r), ASK);
    rack.confirmInputs(List.of(f.lender()));
  }

  /**
   * What the GPUs say of copies that failed (an error completion) since the workload started, or
   * "": the device raises its MSI for a failed copy too, so the driver cannot tell, and its time
   * would pass for a bandwidth. A copy the driver rang again after a move of the loan's windows
   * ({@code resent} of them) may have failed on the old path first (its reads refused at the failed
   * link, its MSI lost there): that many failures are the resends' and accounted, not errors.
   */
  private String failures(Driver d, long resent) throws Exception {
    List<String> failed = new ArrayList<>();
    long accounted = resent;
    for (String gpu : d.spec().driven()) {
      GpuDevice.GpuStats stats = stats(gpu);
      long n = stats.copiesFailed() - d.failedBefore().get(gpu);
      long theirs = Math.min(n, accounted);
      accounted -= theirs;
      n -= theirs;
      if (n > 0) {
        failed.add(n + " of its copies on GPU " + gpu + " failed (an error completion; STATUS "
            + Integer.toHexString(stats.status()) + ")");
      }
    }
    return failed.isEmpty() ? "" : String.join("; ", failed) + ": no bandwidth figures";
  }

  /**
   * Waits for every driver in the file's order (at most {@code timeout} in all), starting a
   * workload with {@code after} once that one finished and the rack is quiet, with a progress line
   * every few seconds; one whose {@code after} did not finish is reported with no copies.
   */
  public List<GpuCopiesResult> finish(Duration timeout) throws Exception {
    long start = System.nanoTime();
    long deadline = start + timeout.toNanos();
    Map<String, GpuCopiesResult> results = new HashMap<>();
    List<GpuCopiesResult> out = new ArrayList<>();
    for (GpuCopies w : workloads) {
      if (w.after() != null) {
        GpuCopiesResult before = results.get(w.after());
        if (!before.error().isEmpty() || System.nanoTime() >= deadline) {
          GpuCopiesResult none = new GpuCopiesResult(w, List.of(), "not started: gpu-copies " + w.after()
              + " before it did not finish");
          results.put(w.name(), none);
          out.add(none);
          continue;
        }
        long at = Math.max(0, rack.quietModelTime());
        rack.holdModelTime(at);
        launch(w, at);
        rack.releaseModelTime();
      }
      GpuCopiesResult r = await(drivers.get(w.name()), start, deadline);
      results.put(w.name(), r);
      out.add(r);
    }
    return out;
  }

  private GpuCopiesResult await(Driver d, long start, long deadline) throws Exception {
    int planned = d.spec().copies().size();
    while (true) {
      long left = deadline - System.nanoTime();
      if (left > 0) {
        try {
          GpuDriver.CopiesDone done = d.done().get(Math.min(left, PROGRESS_NS), TimeUnit.NANOSECONDS);
          if (done.removal() != null) {
            // The GPU's failed copies are the lost one's (its reads refused when its lender went):
            // the removal accounts for it, and the copies before it are whole.
            SurpriseRemoval r = done.removal();
            progress.printf("  gpu-copies %s: surprise removal at model %,d ns after %,d of %,d copies: %s; lost in"
                + " flight %s, %,d not started%n", d.spec().name(), r.at(), done.copies().size(), planned, r.reason(),
                r.lost(), r.notStarted());
            LoanFollower.Moves f = LoanFollowers.followed(rack, d.follower());
            return new GpuCopiesResult(d.spec(), done.copies(), done.error(), r, done.moves(), done.staleMsis(),
                f.moves(), f.end());
          }
          long resent = done.moves().stream().filter(m -> m.resent() != null).count();
          return new GpuCopiesResult(d.spec(), done.copies(),
              done.error().isEmpty() ? failures(d, resent) : done.error(),
              null, done.moves(), done.staleMsis(), LoanFollowers.followed(rack, d.follower()).moves(), null);
        } catch (TimeoutException notYet) {
          // a progress line, below
        }
      }
      GpuDriver.CopiesDone now = Asks.<GpuDriver.Command, GpuDriver.CopiesDone>ask(rack.system(), d.ref(),
          GpuDriver.GetProgress::new, ASK);
      if (System.nanoTime() >= deadline) {
        return new GpuCopiesResult(d.spec(), now.copies(), now.copies().size() + " of " + planned
            + " copies finished within the run's wall limit");
      }
      List<CopyRecord> c = now.copies();
      progress.printf("    %.1f s: gpu-copies %s: %,d of %,d copies done; last MSI at model %.6f s%n",
          (System.nanoTime() - start) / 1e9, d.spec().name(), c.size(), planned,
          c.isEmpty() ? 0.0 : c.get(c.size() - 1).msiAt() / 1e9);
    }
  }
}
