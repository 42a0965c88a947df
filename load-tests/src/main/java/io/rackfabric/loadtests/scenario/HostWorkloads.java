package io.rackfabric.loadtests.scenario;

import io.rackfabric.loadtests.scenario.api.ControlRequestsResult;
import io.rackfabric.loadtests.scenario.api.DiskReadsResult;
import io.rackfabric.loadtests.scenario.api.GpuCopiesResult;
import io.rackfabric.loadtests.scenario.api.GpuPingPongResult;
import io.rackfabric.loadtests.scenario.api.LoanStepResult;
import io.rackfabric.loadtests.scenario.api.NicStreamResult;
import io.rackfabric.loadtests.scenario.language.Scenario;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;

/**
 * The host software a scenario starts beside its traffic generators (the fabric manager, the NIC
 * streams, the control-plane requests, the GPU copies, disk reads, ping-pongs and loan steps):
 * started before the run's first stretch, and awaited at its end within the run's deadline, each
 * result's error a note of the run.
 */
final class HostWorkloads {

  /** What the workloads gave; an empty list for a workload the scenario does not have. */
  record Results(List<NicStreamResult> streams, List<ControlRequestsResult> requests, List<GpuCopiesResult> copies,
      List<DiskReadsResult> reads, List<GpuPingPongResult> pingPongs, List<LoanStepResult> loans) {

    static final Results NONE = new Results(List.of(), List.of(), List.of(), List.of(), List.of(), List.of());
  }

  private final boolean fabricManager; // told to discover: the run waits for an idle rack at its end
  private final NicStreams streams;
  private final ControlRequestsRun requests;
  private final GpuCopiesRun copies;
  private final DiskReadsRun reads;
  private final GpuPingPongRun pingPongs;
  private final LoanStepsRun loans;

  private HostWorkloads(boolean fabricManager, NicStreams streams, ControlRequestsRun requests, GpuCopiesRun copies,
      DiskReadsRun reads, GpuPingPongRun pingPongs, LoanStepsRun loans) {
    this.fabricManager = fabricManager;
    this.streams = streams;
    this.requests = requests;
    this.copies = copies;
    this.reads = reads;
    this.pingPongs = pingPongs;
    this.loans = loans;
  }

  static HostWorkloads start(LiveRack rack, Scenario scenario, PrintStream progress) throws Exception {
    boolean fabricManager = FabricManagerStart.start(rack, scenario, progress);
    NicStreams streams = scenario.nicStream() == null ? null : NicStreams.start(rack, scenario.nicStream(), progress);
    ControlRequestsRun requests = scenario.controlRequests() == null ? null
        : ControlRequestsRun.start(rack, scenario.controlRequests(), progress);
    if (!scenario.loans().isEmpty()) {
      LoanWindows.gate(rack, scenario.loans(), progress); // before any traffic: closed until borrowed
    }
    GpuCopiesRun copies = scenario.gpuCopies().isEmpty() ? null
        : GpuCopiesRun.start(rack, scenario.gpuCopies(), progress);
    DiskReadsRun reads = scenario.diskReads().isEmpty() ? null
        : DiskReadsRun.start(rack, scenario.diskReads(), scenario.seed(), progress);
    GpuPingPongRun pingPongs = scenario.gpuPingPongs().isEmpty() ? null
        : GpuPingPongRun.start(rack, scenario.gpuPingPongs(), progress);
    LoanStepsRun loans = scenario.loans().isEmpty() && scenario.guests().isEmpty() ? null
        : LoanStepsRun.start(rack, scenario.loans(), scenario.guests(), progress);
    return new HostWorkloads(fabricManager, streams, requests, copies, reads, pingPongs, loans);
  }

  /** Waits for every workload, one after the other, each within what is left of the run's wall time. */
  Results await(RunContext run) throws Exception {
    if (fabricManager) { // its discovery and rediscoveries run to their end in model time
      run.progress.println("  waiting for the fabric manager");
      run.rack.quietModelTime();
    }
    Duration settle = Duration.ofNanos(run.scenario.run().settleNs());
    return new Results(
        await(run, streams, "waiting for the nic-stream's senders", left -> streams.finish(left, settle),
            r -> "nic-stream " + r.host(), NicStreamResult::error),
        await(run, requests, "waiting for the control-plane requests' answers", left -> requests.finish(left),
            r -> "control-requests " + r.host(), ControlRequestsResult::error),
        await(run, copies, "waiting for the gpu-copies' drivers", left -> copies.finish(left),
            r -> "gpu-copies " + r.spec().name(), GpuCopiesResult::error),
        await(run, reads, "waiting for the disk-reads' drivers, one workload after the other",
            left -> reads.finish(left), r -> "disk-reads " + r.spec().name(), DiskReadsResult::error),
        await(run, pingPongs, "running the gpu-ping-pong workloads, one after the other",
            left -> pingPongs.finish(left), r -> "gpu-ping-pong " + r.spec().name(), GpuPingPongResult::error),
        await(run, loans, "waiting for the controller's answers to the loans steps", left -> loans.finish(left),
            r -> "loans", r -> ""));
  }

  /** How a workload's driver finishes within the wall time left to the run. */
  private interface Finishing<R> {
    List<R> finish(Duration left) throws Exception;
  }

  private static <R> List<R> await(RunContext run, Object workload, String waiting, Finishing<R> finishing,
      Function<R, String> who, Function<R, String> error) throws Exception {
    if (workload == null) {
      return List.of();
    }
    run.progress.println("  " + waiting);
    List<R> results = finishing.finish(Duration.ofNanos(Math.max(1, run.deadline() - System.nanoTime())));
    results.stream().filter(r -> !error.apply(r).isEmpty())
        .forEach(r -> run.notes.add(who.apply(r) + ": " + error.apply(r)));
    return results;
  }
}
