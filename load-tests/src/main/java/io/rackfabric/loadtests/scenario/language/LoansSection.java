package io.rackfabric.loadtests.scenario.language;

import io.rackfabric.cluster.lending.LoanPlanException;
import io.rackfabric.cluster.lending.LoanPlanner;
import io.rackfabric.cluster.topology.EndpointSpec;
import io.rackfabric.cluster.topology.Fields;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.loadtests.scenario.language.LoanStep.Kind;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * A scenario's {@code loans = [ { step = offer | withdraw | borrow | map | unmap | return, device,
 * by, at, buffer, size, msi, expect } ]}: Device Lending's operations, each sent by a host's
 * control-plane driver to the controller at its model time ({@link LoanStep}). The topology must carry what is
 * asked: a control-plane pair, a device that can be lent ({@code device = gpu | disk}), and for a
 * borrow a loan {@code rack lend} can map (the DMA window comes from there). A borrow sets up the
 * device's MSI path to its MSI word in the borrower's RAM: the step's {@code msi}, else the {@code
 * msi.host} of the borrower's {@code gpu-copies} or {@code disk-reads} on the device (one word; a
 * workload whose MSI its lender forwards has none), else none. Whether the
 * controller accepts a step is the run's business; {@code expect} says which answer is right.
 */
final class LoansSection {

  static final String KEY = "loans";

  private final ScenarioFile file;

  LoansSection(ScenarioFile file) {
    this.file = file;
  }

  List<LoanStep> steps(Fields f, TopologyRef ref, RunLength length, List<GpuCopies> gpuCopies,
      List<DiskReads> diskReads) {
    List<Fields> items = f.objects(KEY, false);
    if (items.isEmpty()) {
      return List.of();
    }
    Topology topology = ref == null ? null : ref.topology();
    if (topology != null && topology.controlPlane() == null) {
      f.error(KEY, "topology " + topology.name() + " has no control-plane section: loans are kept by the"
          + " management hosts' controller (bundled with one and a lendable device: ladon-lending)");
      return List.of();
    }
    if (items.size() > LoanStep.MAX_STEPS) {
      f.error(KEY, items.size() + " steps; at most " + LoanStep.MAX_STEPS);
      return List.of();
    }
    LoanPlanner planner = topology == null ? null : new LoanPlanner(topology);
    List<LoanStep> out = new ArrayList<>();
    for (Fields item : items) {
      LoanStep s = step(item, out.size(), planner, length, gpuCopies, diskReads);
      if (s != null) {
        out.add(s);
      }
    }
    for (int i = 1; i < out.size(); i++) {
      if (out.get(i).atNs() < out.get(i - 1).atNs()) {
        f.error(KEY, "step " + i + " (" + out.get(i).text() + ") comes before step " + (i - 1) + " ("
            + out.get(i - 1).text() + "): list the steps in the order of their times");
        return List.of();
      }
    }
    return out;
  }

  private LoanStep step(Fields s, int index, LoanPlanner planner, RunLength length, List<GpuCopies> gpuCopies,
      List<DiskReads> diskReads) {
    s.allowOnly("step", "device", "by", "at", "buffer", "size", "msi", "expect");
    int before = file.problems.size();
    Kind kind = kind(s);
    String device = s.string("device", true);
    String by = s.string("by", false);
    Long at = s.durationNs("at", null);
    if (at == null && !s.has("at")) {
      s.error("at", "missing (required): the model time after the run's start the step is sent at");
    } else if (at != null && length != null && at >= length.modelEndNs()) {
      s.error("at", "at=" + Durations.text(at) + " is not before the run's end at " + Durations.text(length.modelEndNs()));
    }
    String expect = s.string("expect", false);
    if (expect != null && !expect.equals("accepted") && !expect.equals("rejected")) {
      s.error("expect", "expect=" + expect + " not in {accepted, rejected}");
    }
    if (kind == null || device == null || planner == null || file.problems.size() != before) {
      return null;
    }
    Optional<EndpointSpec> dev = planner.devices().stream().filter(e -> e.id().equals(device)).findFirst();
    if (dev.isEmpty()) {
      s.error("device", "device=" + device + " is not a lendable device of the topology (one with 'device = gpu'"
          + " or 'device = disk'): " + planner.devices().stream().map(EndpointSpec::id).toList());
      return null;
    }
    Optional<String> lender = planner.lenderOf(device);
    if (lender.isEmpty()) {
      s.error("device", "device=" + device + " reaches no host's RAM without an NTB: it has no lender");
      return null;
    }
    boolean byLender = kind == Kind.OFFER || kind == Kind.WITHDRAW;
    String host = by == null ? (byLender ? lender.get() : null) : by;
    if (host == null) {
      s.error("by", "missing (required for " + kind.key() + "): the borrowing host");
      return null;
    }
    List<String> computeHosts = planner.topology().computeHostIds();
    if (!computeHosts.contains(host)) {
      s.error("by", "by=" + host + " is not a compute host of the topology, whose control-plane driver would send"
          + " it: " + computeHosts);
      return null;
    }
    long buffer = 0;
    long size = 0;
    if (kind == Kind.MAP || kind == Kind.UNMAP) {
      Long b = s.address("buffer", true);
      Long z = kind == Kind.MAP ? s.address("size", true) : Long.valueOf(0);
      if (b == null || z == null) {
        return null;
      }
      buffer = b;
      size = z;
    } else {
      s.forbid("only a map or an unmap names a buffer", "buffer", "size");
    }
    long[] window = new long[3];
    if (kind == Kind.BORROW && !host.equals(lender.get())) {
      try {
        LoanPlanner.DmaWindow w = planner.plan(device, host).window();
        window = new long[] {w.deviceSide(), w.size(), w.borrowerSide()};
      } catch (LoanPlanException e) {
        s.error("by", "the topology cannot carry this loan: " + e.getMessage());
        return null;
      }
    }
    long msi = LoanStep.NO_MSI;
    if (kind == Kind.BORROW) {
      msi = msi(s, device, host, gpuCopies, diskReads);
    } else {
      s.forbid("only a borrow sets up an MSI path", "msi");
    }
    if (file.problems.size() != before) {
      return null;
    }
    return new LoanStep(index, kind, device, host, at, window[0], window[1], window[2], msi, buffer, size,
        !"rejected".equals(expect), file.where(s), "");
  }

  /**
   * The borrow's MSI word: its {@code msi}, else the one of the borrower's GPU or disk driver on
   * the device, else none.
   */
  private static long msi(Fields s, String device, String host, List<GpuCopies> gpuCopies,
      List<DiskReads> diskReads) {
    if (s.has("msi")) {
      Long named = s.address("msi", true);
      return named == null ? LoanStep.NO_MSI : named;
    }
    List<Long> words = java.util.stream.Stream.concat(
        gpuCopies.stream().filter(w -> w.driver().equals(host) && w.gpu().equals(device) && w.forward() == null)
            .map(GpuCopies::msiHost),
        diskReads.stream().filter(w -> w.driver().equals(host) && w.disk().equals(device) && w.forward() == null)
            .map(DiskReads::msiHost)).distinct().toList();
    if (words.size() > 1) {
      s.error("device", "the workloads of host=" + host + " on device=" + device + " raise its MSI at "
          + words.stream().map(w -> "0x" + Long.toHexString(w)).toList() + ": a loan has one MSI path;"
          + " give the borrow's msi");
      return LoanStep.NO_MSI;
    }
    return words.isEmpty() ? LoanStep.NO_MSI : words.get(0);
  }

  private static Kind kind(Fields s) {
    String text = s.string("step", true);
    if (text == null) {
      return null;
    }
    for (Kind k : Kind.values()) {
      if (k.key().equals(text)) {
        return k;
      }
    }
    s.error("step", "step=" + text + " not in " + Arrays.stream(Kind.values()).map(Kind::key).toList());
    return null;
  }
}
