package io.rackfabric.loadtests.scenario;

import akka.actor.typed.ActorRef;
import io.rackfabric.cluster.node.ComponentKeys;
import akka.actor.typed.Props;
import io.rackfabric.host.device.gpu.CopySequence.CopyRecord;
import io.rackfabric.host.device.gpu.GpuDevice;
import io.rackfabric.host.device.gpu.GpuDriver;
import io.rackfabric.host.vm.InterruptForwarder;
import io.rackfabric.host.vm.VmSettings;
import io.rackfabric.loadtests.harness.Asks;
import io.rackfabric.loadtests.scenario.api.GpuCopiesResult;
import io.rackfabric.loadtests.scenario.api.RunningRack;
import io.rackfabric.loadtests.scenario.language.GpuCopies;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A scenario's {@code gpu-copies} on a running rack: one {@link GpuDriver} per workload, a guest
 * of its root endpoint, spawned in the rack's JVM (single-JVM runs only, which the loader checks).
 * Under the model-time kernel the rack is held at the latest model time it reached while each
 * driver is handed its plan and its first doorbell's wake is confirmed, so the copies enter the
 * model at their times; the run's first stretch releases the rack.
 */
public final class GpuCopiesRun {

  private static final Duration ASK = Duration.ofSeconds(10);
  /** How often a long wait for the drivers says how far they got. */
  private static final long PROGRESS_NS = 5_000_000_000L;

  private record Driver(GpuCopies spec, ActorRef<GpuDriver.Command> ref,
      CompletableFuture<GpuDriver.CopiesDone> done) {}

  private final RunningRack rack;
  private final List<Driver> drivers;
  private final PrintStream progress;

  private GpuCopiesRun(RunningRack rack, List<Driver> drivers, PrintStream progress) {
    this.rack = rack;
    this.drivers = drivers;
    this.progress = progress;
  }

  /** Starts every workload's driver; returns with the rack still held at their start. */
  public static GpuCopiesRun start(RunningRack rack, List<GpuCopies> workloads, PrintStream progress)
      throws Exception {
    long quiet = rack.quietModelTime();
    long startAt = Math.max(0, quiet);
    rack.holdModelTime(startAt);
    List<Driver> drivers = new ArrayList<>();
    for (GpuCopies w : workloads) {
      if (w.forward() != null) {
        forwarder(rack, w);
      }
      ActorRef<GpuDriver.Command> ref = rack.system().systemActorOf(
          GpuDriver.create(w.driver(), rack.endpoint(w.driver())), "gpu-driver-" + w.name(), Props.empty());
      CompletableFuture<GpuDriver.CopiesDone> done = Asks.<GpuDriver.Command, GpuDriver.CopiesDone>askAsync(
          rack.system(), ref, r -> new GpuDriver.Start(w.plan(startAt), r), Duration.ofDays(1));
      // Answered after the driver asked for its first wake: the wake is at the endpoint before the confirm.
      Asks.<GpuDriver.Command, GpuDriver.CopiesDone>ask(rack.system(), ref, GpuDriver.GetProgress::new, ASK);
      rack.confirmInputs(List.of(w.driver()));
      drivers.add(new Driver(w, ref, done));
      progress.printf("  gpu-copies %s: %s drives %s, %,d copies (%s, %d size(s) from %s to %s, %d each)%n", w.name(),
          w.driver(), w.gpu(), w.copies().size(), w.directions().stream().map(d -> d.label()).toList(),
          w.sizes().size(), GpuCopies.sizeText(w.sizes().get(0)), GpuCopies.sizeText(w.largest()), w.repeat());
    }
    return new GpuCopiesRun(rack, drivers, progress);
  }

  /** The lender-side handler of a VM borrower's interrupts, attached to the lender before the rack goes on. */
  private static void forwarder(RunningRack rack, GpuCopies w) throws Exception {
    GpuCopies.MsiForward f = w.forward();
    ActorRef<InterruptForwarder.Command> ref = rack.system().systemActorOf(
        InterruptForwarder.create(f.lender(), rack.endpoint(f.lender())), "msi-forwarder-" + w.name(), Props.empty());
    long delay = VmSettings.create(rack.system().settings().config()).forwardDelayNs();
    // Answered once the watch is asked for: it is at the endpoint before the confirm.
    Asks.<InterruptForwarder.Command, InterruptForwarder.Forwarded>ask(rack.system(), ref,
        r -> new InterruptForwarder.Start(f.word(), f.to(), delay, r), ASK);
    rack.confirmInputs(List.of(f.lender()));
  }

  /**
   * What the GPU says of copies that failed (an error completion), or "": the device raises its MSI
   * for a failed copy too, so the driver cannot tell, and its time would pass for a bandwidth.
   */
  private String failures(Driver d) throws Exception {
    ActorRef<GpuDevice.Command> gpu = Asks.find(rack.system(), ComponentKeys.gpu(d.spec().gpu()), ASK);
    GpuDevice.GpuStats stats = Asks.<GpuDevice.Command, GpuDevice.GpuStats>ask(rack.system(), gpu,
        GpuDevice.GetStats::new, ASK);
    return stats.copiesFailed() == 0 ? "" : stats.copiesFailed() + " of its copies failed (an error completion;"
        + " GPU " + d.spec().gpu() + " STATUS " + Integer.toHexString(stats.status()) + "): no bandwidth figures";
  }

  /** Waits for every driver (at most {@code timeout}), with a progress line every few seconds. */
  public List<GpuCopiesResult> finish(Duration timeout) throws Exception {
    long start = System.nanoTime();
    long deadline = start + timeout.toNanos();
    List<GpuCopiesResult> out = new ArrayList<>();
    for (Driver d : drivers) {
      out.add(await(d, start, deadline));
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
          return new GpuCopiesResult(d.spec(), done.copies(), done.error().isEmpty() ? failures(d) : done.error());
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
