package io.rackfabric.loadtests.bench;

import akka.actor.typed.ActorRef;
import io.rackfabric.cluster.topology.TopologyLoader;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.endpoint.TrafficPlan;
import io.rackfabric.loadtests.harness.Asks;
import io.rackfabric.loadtests.report.Figure;
import io.rackfabric.loadtests.scenario.LiveRack;
import io.rackfabric.loadtests.scenario.RackStart;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@code rack bench soak}: one long stream of posted writes through the bundled demo rack in one
 * JVM, under the model-time kernel (ch2 into mem: an NTB, two switches), with the heap used after
 * a full GC sampled along the way. Its figure is the heap's growth per million TLPs after the
 * warm-up (the least-squares slope of heap over TLPs delivered): what a long run costs in memory,
 * to be flat. A benchmark, not a test: it runs for minutes and prints a line every ~10 s.
 */
final class SoakBench {

  /** The demo's flow through an NTB and two switches (rack route ch2 0x180000000). */
  static final String SOURCE = "ch2";
  static final String SINK = "mem";
  static final long ADDRESS = 0x1_8000_0000L;
  /** Model time between two writes: the link stays far from saturation. */
  static final long INTERVAL_NS = 200;
  /** The first fifth of the stream is warm-up (JIT, pools, the first old-generation collections). */
  static final double WARM_UP = 0.2;
  static final long PROGRESS_S = 10;

  /** Heap used after a GC when {@code tlps} had been delivered, {@code wallS} into the stream. */
  record Sample(double wallS, long tlps, long heapBytes) {}

  record Result(List<Sample> samples, long delivered, double wallS, double bytesPerMillion) {

    List<Figure> figures() {
      return List.of(
          new Figure("soak.tlps_delivered", delivered, "TLPs", "count"),
          new Figure("soak.tlps_per_s", delivered / Math.max(1e-3, wallS), "TLPs/s", "wall"),
          new Figure("soak.heap_after_gc_at_end", samples.get(samples.size() - 1).heapBytes(), "bytes", "wall"),
          new Figure("soak.heap_per_million_tlps", bytesPerMillion, "bytes", "wall"));
    }
  }

  private SoakBench() {}

  static Result run(long tlps, Path runDir, PrintStream out) throws Exception {
    out.printf("rack bench soak: %,d posted writes %s -> %s in one JVM, one every %d ns of model time; heap after"
        + " GC every %d s, its slope after the first %.0f%%%n", tlps, SOURCE, SINK, INTERVAL_NS, PROGRESS_S,
        WARM_UP * 100);
    Result r = stream(tlps, runDir, out);
    if (Double.isNaN(r.bytesPerMillion())) {
      out.println("too few heap samples after the warm-up for a slope: give more --tlps");
    }
    return r;
  }

  private static Result stream(long tlps, Path runDir, PrintStream out) throws Exception {
    PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());
    try (LiveRack rack = RackStart.singleJvm(TopologyLoader.load("demo"), runDir, quiet)) {
      long before = rack.endpointStats(SINK).uniqueWrites();
      ActorRef<MemoryEndpoint.Command> source = rack.endpoint(SOURCE);
      TrafficPlan plan = new TrafficPlan(ADDRESS, 1L << 20, 64, tlps, INTERVAL_NS, false, false);
      // As a scenario's stretch starts: the kernel holds until the source has its plan.
      rack.holdModelTime(0);
      CompletableFuture<MemoryEndpoint.TrafficDone> sent = Asks.<MemoryEndpoint.Command, MemoryEndpoint.TrafficDone>
          askAsync(rack.system(), source, r -> new MemoryEndpoint.StartTraffic(plan, r), Duration.ofDays(7));
      CompletableFuture<MemoryEndpoint.WritesReached> arrived = Asks.<MemoryEndpoint.Command,
          MemoryEndpoint.WritesReached>askAsync(rack.system(), rack.endpoint(SINK),
          r -> new MemoryEndpoint.AwaitWrites(before + tlps, r), Duration.ofDays(7));
      rack.confirmInputs(List.of(SOURCE));
      rack.releaseModelTime();
      MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
      List<Sample> samples = new ArrayList<>();
      long t0 = System.nanoTime();
      samples.add(sample(memory, t0, 0));
      while (true) {
        try {
          arrived.get(PROGRESS_S, TimeUnit.SECONDS);
          break;
        } catch (TimeoutException notYet) {
          if (sent.isCompletedExceptionally()) {
            sent.join(); // the source gave up: say why
          }
          Sample s = sample(memory, t0, rack.endpointStats(SINK).uniqueWrites() - before);
          samples.add(s);
          out.printf("  %,.0f s: %,d of %,d TLPs delivered (%.1f%%), heap after GC %,.1f MB%n", s.wallS(), s.tlps(),
              tlps, 100.0 * s.tlps() / tlps, s.heapBytes() / 1e6);
        }
      }
      double wallS = (System.nanoTime() - t0) / 1e9;
      long delivered = rack.endpointStats(SINK).uniqueWrites() - before;
      samples.add(sample(memory, t0, delivered));
      return new Result(samples, delivered, wallS, slopePerMillion(samples, (long) (WARM_UP * tlps)));
    }
  }

  private static Sample sample(MemoryMXBean memory, long t0, long tlps) {
    memory.gc(); // what stays after a full collection is what the run holds on to
    return new Sample((System.nanoTime() - t0) / 1e9, tlps, memory.getHeapMemoryUsage().getUsed());
  }

  /**
   * The least-squares slope of heap over TLPs of the samples at or past {@code warmUp} TLPs, in
   * bytes per million TLPs; NaN with fewer than two such samples (a stream too short to say).
   */
  static double slopePerMillion(List<Sample> samples, long warmUp) {
    List<Sample> after = samples.stream().filter(s -> s.tlps() >= warmUp).toList();
    if (after.size() < 2) {
      return Double.NaN;
    }
    double mx = after.stream().mapToDouble(Sample::tlps).average().orElseThrow();
    double my = after.stream().mapToDouble(Sample::heapBytes).average().orElseThrow();
    double sxy = 0;
    double sxx = 0;
    for (Sample s : after) {
      sxy += (s.tlps() - mx) * (s.heapBytes() - my);
      sxx += (s.tlps() - mx) * (s.tlps() - mx);
    }
    return sxx == 0 ? Double.NaN : sxy / sxx * 1e6;
  }
}
