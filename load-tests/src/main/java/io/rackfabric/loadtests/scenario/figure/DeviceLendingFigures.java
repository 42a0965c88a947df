package io.rackfabric.loadtests.scenario.figure;

import io.rackfabric.loadtests.report.Figure;
import io.rackfabric.loadtests.scenario.api.FigureType;
import io.rackfabric.loadtests.scenario.api.RunResult;
import io.rackfabric.loadtests.scenario.api.RunResult.TrafficResult;
import java.util.List;
import java.util.Map;

/**
 * {@code device-lending}: the RAM-to-RAM figures of Device Lending (Markussen et al., "Flexible
 * device compositions and dynamic resource sharing in PCIe interconnected clusters using Device
 * Lending", sections 7.2 and 7.3) from three write generators the scenario names by convention,
 * each the only writer into its sink:
 *
 * <ul>
 *   <li>{@code ram-to-ram}: a borrower's root into a lender's RAM through the NTB. Its sink's
 *       least one-way latency (arrival minus origin, model) is {@code
 *       lending.ram_to_ram_one_way_ns}.
 *   <li>{@code across-ntb}: a lender's device into the borrower's RAM through the NTB.
 *   <li>{@code beside-ntb}: that lender's root into the same device.
 * </ul>
 *
 * The last two share the device's link and the lender's switch; besides those, {@code beside-ntb}
 * has the lender's root link and {@code across-ntb} one link alike it (the adapter's slot link back
 * to back, the borrower's root link in the three-way set-up) and the NTB crossing. So their
 * difference, {@code lending.ntb_crossing_ns}, is the crossing: the one NTB chip that stands for
 * the adapter pair, and the cable (docs/device-lending.md). It is measured the other way across
 * the NTB from {@code ram-to-ram}, which the fabric's crossing does not tell apart. The paper's
 * values are printed beside the figures ({@link #paperValues}), never used to compute them.
 */
public final class DeviceLendingFigures implements FigureType {

  static final String RAM_TO_RAM = "ram-to-ram";
  static final String ACROSS = "across-ntb";
  static final String BESIDE = "beside-ntb";

  /** The paper's words per bundled set-up, by figure: for comparison only. */
  private static final Map<String, Map<String, String>> PAPER = Map.of(
      "lending-b2b", Map.of(
          "lending.ram_to_ram_one_way_ns",
          "paper: 550-580 ns (back to back: \"The one-way RAM-to-RAM latency was measured to 550-580 nanoseconds\")",
          "lending.ntb_crossing_ns",
          "paper: 350-370 ns (back to back: \"the NTB adds around 350-370 nanoseconds\")"),
      "lending-3way", Map.of(
          "lending.ram_to_ram_one_way_ns",
          "paper: ~700 ns (borrower to Lender B: \"measured to around 700 nanoseconds\")",
          "lending.ntb_crossing_ns",
          "paper: 350-365 ns (three-way: \"the NTB itself adds 350-365 nanoseconds\")"));

  @Override
  public String name() {
    return "device-lending";
  }

  @Override
  public String summary() {
    return "Device Lending's one-way RAM-to-RAM latency (generator ram-to-ram) and the NTB crossing's share"
        + " (across-ntb minus beside-ntb), model ns, beside the paper's values";
  }

  @Override
  public List<Figure> produce(RunResult run) {
    long ramToRam = leastLatency(run, RAM_TO_RAM);
    long across = leastLatency(run, ACROSS);
    long beside = leastLatency(run, BESIDE);
    return List.of(
        new Figure("lending.ram_to_ram_one_way_ns", ramToRam, "ns", "model"),
        new Figure("lending.ntb_crossing_ns", across - beside, "ns", "model"),
        new Figure("lending.across_ntb_ns", across, "ns", "model"),
        new Figure("lending.beside_ntb_ns", beside, "ns", "model"));
  }

  @Override
  public Map<String, String> paperValues(RunResult run) {
    return PAPER.getOrDefault(run.scenario().topology().topology().name(), Map.of());
  }

  /** The least one-way latency into the generator's sink, which it must write alone. */
  private static long leastLatency(RunResult run, String generator) {
    TrafficResult t = run.traffic().stream().filter(r -> r.spec().name().equals(generator)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("device-lending needs a traffic generator named '"
            + generator + "' (it has: " + run.traffic().stream().map(r -> r.spec().name()).toList() + ")"));
    String sink = t.spec().sink();
    if (!t.spec().writes()) {
      throw new IllegalArgumentException("device-lending: generator '" + generator + "' reads; it must write");
    }
    long writers = run.traffic().stream().filter(r -> r.spec().writes() && r.spec().sink().equals(sink)).count();
    if (writers != 1) {
      throw new IllegalArgumentException("device-lending: sink '" + sink + "' of generator '" + generator + "' has "
          + writers + " writers; its latency must be that generator's alone");
    }
    return SinkLatency.of(run, sink).map(SinkLatency::min).orElseThrow(() -> new IllegalArgumentException(
        "device-lending: no write of generator '" + generator + "' arrived at " + sink));
  }
}
