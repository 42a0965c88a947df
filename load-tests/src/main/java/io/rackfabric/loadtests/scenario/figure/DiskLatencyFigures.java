package io.rackfabric.loadtests.scenario.figure;

import io.rackfabric.host.device.disk.CompletionEntry;
import io.rackfabric.host.device.disk.DiskReadSequence.DiskReadRecord;
import io.rackfabric.host.device.disk.DiskReadSequence.ResentRead;
import io.rackfabric.host.device.disk.DiskReadSequence.SurpriseRemoval;
import io.rackfabric.host.device.disk.DiskReadSequence.WindowMove;
import io.rackfabric.host.lending.LoanFollower;
import io.rackfabric.loadtests.report.Figure;
import io.rackfabric.loadtests.scenario.api.DiskReadsResult;
import io.rackfabric.loadtests.scenario.api.FigureType;
import io.rackfabric.loadtests.scenario.api.RunResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code disk-latency}: Device Lending's NVMe read latency (Markussen et al., "Flexible device
 * compositions and dynamic resource sharing in PCIe interconnected clusters using Device Lending",
 * "Pass-through NVMe experiments") from the scenario's {@code disk-reads}: per workload {@code
 * disk.W.latency_median_ns}, {@code _min_ns} and {@code _max_ns}, the model time from a read's
 * doorbell to its MSI-X message, over its successful reads; and, when two workloads named {@code
 * local} and {@code borrowed} read one disk, {@code disk.borrowed_minus_local_ns}, the difference of
 * their medians: what lending the disk across the NTB adds to a read; with a workload named {@code
 * vm} (a VM on the borrower, its MSI-X forwarded by the lender's handler) on the same disk, {@code
 * disk.vm_minus_borrowed_ns}, what the interrupt forwarding adds; and for a workload whose disk
 * was removed under it, what the removal cost ({@link #removal}). The paper's words are printed
 * beside it ({@link #paperValues}), never used for it.
 */
public final class DiskLatencyFigures implements FigureType {

  static final String LOCAL = "local";
  static final String BORROWED = "borrowed";
  static final String DIFFERENCE = "disk.borrowed_minus_local_ns";
  static final String VM = "vm";
  static final String VM_DIFFERENCE = "disk.vm_minus_borrowed_ns";

  /** One workload's latencies of its successful reads, model ns. */
  public record Latency(String workload, String disk, int reads, long median, long min, long max) {}

  @Override
  public String name() {
    return "disk-latency";
  }

  @Override
  public String summary() {
    return "per disk-reads workload: median, min and max doorbell-to-MSI-X model latency of its reads; with workloads"
        + " 'local' and 'borrowed' on one disk, the borrowed median minus the local one, beside Device Lending's NVMe"
        + " experiment";
  }

  @Override
  public List<Figure> produce(RunResult run) {
    List<Figure> out = new ArrayList<>();
    for (Latency l : latencies(run)) {
      String p = "disk." + l.workload() + ".";
      out.add(new Figure(p + "reads", l.reads(), "reads", "count"));
      out.add(new Figure(p + "latency_median_ns", l.median(), "ns", "model"));
      out.add(new Figure(p + "latency_min_ns", l.min(), "ns", "model"));
      out.add(new Figure(p + "latency_max_ns", l.max(), "ns", "model"));
    }
    difference(run).ifPresent(d -> out.add(new Figure(DIFFERENCE, d, "ns", "model")));
    difference(run, VM, BORROWED).ifPresent(d -> out.add(new Figure(VM_DIFFERENCE, d, "ns", "model")));
    for (DiskReadsResult r : run.diskReads()) {
      removal(r, out);
      windowMoves(r, out);
    }
    return out;
  }

  /**
   * A workload whose driver saw its disk removed: {@code disk.W.removed_at_ns} (model: the driver's
   * declaration), the reads completed, lost in flight and never started, and the blocks lost; when
   * the controller ended the disk's loan, when ({@code loan_ended_at_ns}) and how long the notice
   * took to reach the borrower ({@code loan_end_notice_ns}).
   */
  private static void removal(DiskReadsResult r, List<Figure> out) {
    SurpriseRemoval s = r.removal();
    if (s == null) {
      return;
    }
    String p = "disk." + r.spec().name() + ".";
    out.add(new Figure(p + "removed_at_ns", s.at(), "ns", "model"));
    out.add(new Figure(p + "reads_completed", r.reads().size(), "reads", "count"));
    out.add(new Figure(p + "reads_lost", s.lost() == null ? 0 : 1, "reads", "count"));
    out.add(new Figure(p + "blocks_lost", s.lost() == null ? 0 : s.lost().blocks(), "blocks", "count"));
    out.add(new Figure(p + "reads_not_started", s.notStarted(), "reads", "count"));
    LoanFollower.LoanEnd end = r.loanEnd();
    if (end != null) {
      out.add(new Figure(p + "loan_ended_at_ns", end.endedAt(), "ns", "model"));
      out.add(new Figure(p + "loan_end_notice_ns", end.noticedAt() - end.endedAt(), "ns", "model"));
    }
  }

  /**
   * A workload whose loan moved under it (its borrower's link fail-over): {@code
   * disk.W.window_moves}, the first move's model time, how far the disk's registers and its DMA
   * addresses moved, the reads submitted again after the disk's reset and their blocks, the reads
   * planned and completed, and the controller's record of the move (both {@link LoanMoveFigures}).
   */
  private static void windowMoves(DiskReadsResult r, List<Figure> out) {
    if (r.windowMoves().isEmpty() && r.loanMoves().isEmpty()) {
      return;
    }
    String p = "disk." + r.spec().name() + ".";
    LoanMoveFigures.driverMoves(p, r.windowMoves(), out);
    List<ResentRead> resent = r.windowMoves().stream().map(WindowMove::resent).filter(x -> x != null).toList();
    out.add(new Figure(p + "reads_resent", resent.size(), "reads", "count"));
    out.add(new Figure(p + "blocks_resent", resent.stream().mapToLong(ResentRead::blocks).sum(), "blocks", "count"));
    out.add(new Figure(p + "reads_planned", r.spec().count(), "reads", "count"));
    if (r.removal() == null) { // else the removal's figures have it
      out.add(new Figure(p + "reads_completed", r.reads().size(), "reads", "count"));
    }
    LoanMoveFigures.recorded(p, r.loanMoves(), out);
  }

  /** Each workload with a successful read: its latencies. */
  public static List<Latency> latencies(RunResult run) {
    List<Latency> out = new ArrayList<>();
    for (DiskReadsResult r : run.diskReads()) {
      List<Long> ns = r.reads().stream().filter(x -> x.status() == CompletionEntry.Status.SUCCESS).map(DiskReadRecord::latencyNs).sorted().toList();
      if (!ns.isEmpty()) {
        int n = ns.size();
        long median = n % 2 == 1 ? ns.get(n / 2) : (ns.get(n / 2 - 1) + ns.get(n / 2)) / 2;
        out.add(new Latency(r.spec().name(), r.spec().disk(), n, median, ns.get(0), ns.get(n - 1)));
      }
    }
    return out;
  }

  /** The borrowed median minus the local one, when both workloads read the same disk. */
  public static Optional<Long> difference(RunResult run) {
    return difference(run, BORROWED, LOCAL);
  }

  /** Workload {@code a}'s median minus workload {@code b}'s, when both read the same disk. */
  static Optional<Long> difference(RunResult run, String a, String b) {
    Map<String, Latency> byName = new LinkedHashMap<>();
    latencies(run).forEach(l -> byName.put(l.workload(), l));
    Latency first = byName.get(a);
    Latency second = byName.get(b);
    if (first == null || second == null || !first.disk().equals(second.disk())) {
      return Optional.empty();
    }
    return Optional.of(first.median() - second.median());
  }

  @Override
  public Map<String, String> paperValues(RunResult run) {
    Map<String, String> out = new LinkedHashMap<>();
    if (difference(run).isPresent()) {
      out.put(DIFFERENCE, "paper (Optane 900P, 8 blocks at random offsets, back to back): \"an increase of a"
          + " little less than 1 microsecond\"; the NTB reached twice, for the commands and for the completion:"
          + " \"This adds 700-730 nanoseconds\"");
    }
    if (difference(run, VM, BORROWED).isPresent()) {
      out.put(VM_DIFFERENCE, "paper (Fig. 19, VMRem against NatRem): \"passing the disk to a VM running on the"
          + " borrower (VMRem), only increases the latency slightly compared to the physical borrower (NatRem)\";"
          + " no number in the text");
    }
    return out;
  }
}
