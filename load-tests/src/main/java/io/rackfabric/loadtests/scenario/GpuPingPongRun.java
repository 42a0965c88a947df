package io.rackfabric.loadtests.scenario;

import akka.actor.typed.ActorRef;
import io.rackfabric.cluster.node.ComponentKeys;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.host.device.gpu.GpuDevice;
import io.rackfabric.host.device.gpu.GpuDevice.PingPongReport;
import io.rackfabric.host.device.gpu.PingPongKernel;
import io.rackfabric.loadtests.harness.Asks;
import io.rackfabric.loadtests.scenario.api.GpuPingPongResult;
import io.rackfabric.loadtests.scenario.api.RunningRack;
import io.rackfabric.loadtests.scenario.language.GpuPingPong;
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
 * A scenario's {@code gpu-ping-pong} on a running rack, one workload after the other (a GPU runs
 * one ping-pong at a time, and the paper measured each scenario alone). The ping-pong is
 * device-initiated, so no driver on a root is needed: at a model time at which the rack is held,
 * the run programs both GPUs' PP registers directly ({@link GpuDevice.Program}: the writes a
 * driver's stores would make, applied in a call of each GPU's endpoint at that time), confirms both
 * endpoints and lets the rack go. The first workload starts before the run's first stretch (which
 * releases the rack), each next one once the rack is quiet after the last. Via RAM the two counter
 * words are zeroed in the host's RAM first, so a workload never sees the last one's counters.
 * Single JVM (the loader checks): the GPUs are found through the Receptionist.
 */
public final class GpuPingPongRun {

  private static final Duration ASK = Duration.ofSeconds(10);
  /** How often a long wait says how far the ping-pong got. */
  private static final long PROGRESS_NS = 5_000_000_000L;

  private record Launched(GpuPingPong spec, long startAt, CompletableFuture<PingPongReport> ping,
      CompletableFuture<PingPongReport> pong) {}

  private final RunningRack rack;
  private final List<GpuPingPong> workloads;
  private final Map<String, ActorRef<GpuDevice.Command>> gpus;
  private final PrintStream progress;
  private final Launched first;

  private GpuPingPongRun(RunningRack rack, List<GpuPingPong> workloads, Map<String, ActorRef<GpuDevice.Command>> gpus,
      PrintStream progress) throws Exception {
    this.rack = rack;
    this.workloads = workloads;
    this.gpus = gpus;
    this.progress = progress;
    this.first = launch(workloads.get(0));
  }

  /** Finds the GPUs and starts the first workload; returns with the rack still held at its start. */
  public static GpuPingPongRun start(RunningRack rack, List<GpuPingPong> workloads, PrintStream progress)
      throws Exception {
    Map<String, ActorRef<GpuDevice.Command>> gpus = new HashMap<>();
    for (GpuPingPong w : workloads) {
      for (String id : List.of(w.ping(), w.pong())) {
        if (!gpus.containsKey(id)) {
          gpus.put(id, Asks.find(rack.system(), ComponentKeys.gpu(id), ASK));
        }
      }
    }
    return new GpuPingPongRun(rack, workloads, gpus, progress);
  }

  /** Programs both GPUs of {@code w} at the quiet model time; the rack stays held there. */
  private Launched launch(GpuPingPong w) throws Exception {
    long startAt = Math.max(0, rack.quietModelTime());
    rack.holdModelTime(startAt);
    if (w.via() == GpuPingPong.Via.RAM) {
      ActorRef<MemoryEndpoint.Command> host = rack.endpoint(w.ramHost());
      host.tell(new MemoryEndpoint.Store(w.ramToPong(), new byte[4]));
      host.tell(new MemoryEndpoint.Store(w.ramToPing(), new byte[4]));
      // Answered after both stores: the words are zero before any GPU can read them.
      Asks.<MemoryEndpoint.Command, byte[]>ask(rack.system(), host, r -> new MemoryEndpoint.Peek(w.ramToPing(), 4, r),
          ASK);
    }
    CompletableFuture<PingPongReport> pong = program(w.pong(), startAt, w.pongRegisters());
    CompletableFuture<PingPongReport> ping = program(w.ping(), startAt, w.pingRegisters());
    rack.confirmInputs(List.of(w.pong(), w.ping()));
    progress.printf("  gpu-ping-pong %s: %s pings %s via %s, %,d rounds from model %.6f s%n", w.name(), w.ping(),
        w.pong(), w.via().label(), w.count(), startAt / 1e9);
    return new Launched(w, startAt, ping, pong);
  }

  private CompletableFuture<PingPongReport> program(String gpu, long at, List<GpuDevice.RegisterWrite> writes)
      throws Exception {
    ActorRef<GpuDevice.Command> ref = gpus.get(gpu);
    CompletableFuture<PingPongReport> done = Asks.<GpuDevice.Command, PingPongReport>askAsync(rack.system(), ref,
        r -> new GpuDevice.Program(at, writes, r), Duration.ofDays(1));
    // Answered after the Program: its wake is at the endpoint before the confirm.
    Asks.<GpuDevice.Command, GpuDevice.GpuStats>ask(rack.system(), ref, GpuDevice.GetStats::new, ASK);
    return done;
  }

  /** Runs the workloads to the end, one after the other, within {@code timeout} in all. */
  public List<GpuPingPongResult> finish(Duration timeout) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    List<GpuPingPongResult> out = new ArrayList<>();
    for (int i = 0; i < workloads.size(); i++) {
      Launched l;
      if (i == 0) {
        l = first;
      } else {
        l = launch(workloads.get(i));
        rack.releaseModelTime();
      }
      GpuPingPongResult r = await(l, deadline);
      out.add(r);
      if (!r.error().isEmpty() && System.nanoTime() >= deadline) {
        workloads.subList(i + 1, workloads.size()).forEach(w -> out.add(new GpuPingPongResult(w, List.of(), 0, 0, -1,
            "not started: the run's wall limit was reached")));
        break;
      }
    }
    return out;
  }

  private GpuPingPongResult await(Launched l, long deadline) throws Exception {
    long start = System.nanoTime();
    PingPongReport ping = null;
    PingPongReport pong = null;
    while (ping == null || pong == null) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return new GpuPingPongResult(l.spec(), ping == null ? List.of() : ping.roundNs(), 0, 0, l.startAt(),
            "not finished within the run's wall limit");
      }
      try {
        if (ping == null) {
          ping = l.ping().get(Math.min(left, PROGRESS_NS), TimeUnit.NANOSECONDS);
        }
        if (pong == null) {
          pong = l.pong().get(Math.min(left, PROGRESS_NS), TimeUnit.NANOSECONDS);
        }
      } catch (TimeoutException notYet) {
        progress.printf("    %.1f s: gpu-ping-pong %s still running%n", (System.nanoTime() - start) / 1e9,
            l.spec().name());
      }
    }
    List<String> errors = new ArrayList<>();
    for (PingPongReport r : List.of(ping, pong)) {
      if (r.state() != PingPongKernel.State.DONE) {
        errors.add(r.id() + ": " + (r.error().isEmpty() ? r.state().name().toLowerCase() : r.error()));
      }
    }
    return new GpuPingPongResult(l.spec(), ping.roundNs(), ping.reads(), pong.reads(), l.startAt(),
        String.join("; ", errors));
  }
}
