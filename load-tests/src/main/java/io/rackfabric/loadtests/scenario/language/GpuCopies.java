package io.rackfabric.loadtests.scenario.language;

import io.rackfabric.host.device.gpu.GpuCopyPlan;
import io.rackfabric.host.device.gpu.GpuCopyPlan.Copy;
import io.rackfabric.host.device.gpu.GpuCopyPlan.Direction;
import java.util.ArrayList;
import java.util.List;

/**
 * One workload of a scenario's {@code gpu-copies}: a GPU driver on a host's root endpoint that
 * runs DMA copies on a GPU ({@code device = gpu}) one after the other (host-actors {@code
 * GpuDriver}), every address checked against the topology by the route explainer.
 *
 * @param name names the workload in figures
 * @param driver the root endpoint the driver is a guest of
 * @param gpu the GPU's endpoint
 * @param registers the GPU's BAR0 as the driver reaches it
 * @param deviceMemory the copies' area of device memory as the GPU sees it (in its BAR1)
 * @param bufferGpu the host buffer as the GPU reaches it; with {@code peer}, the peer's memory as
 *     the GPU reaches it
 * @param bufferHost the host buffer in the driver's RAM; {@link #NO_HOST_BUFFER} with {@code peer}
 * @param msiGpu the MSI's address as the GPU reaches it
 * @param msiHost the MSI's address in the driver's RAM
 * @param sizes transfer sizes, bytes, ascending
 * @param directions write (device memory to the buffer) and/or read (the buffer to device memory)
 * @param repeat copies of each size and direction
 * @param forward the GPU's MSI taken by a handler on its lender and forwarded to the driver (a VM
 *     borrower's interrupt path), or null: the MSI goes straight to the driver's RAM
 * @param where {@code file:line} of the workload
 * @param peer null, or the GPU whose memory (BAR1) the copies write into: peer to peer, no host buffer
 * @param viaRam null, or the second GPU that reads each copy back out of the host buffer
 * @param after null, or the workload after whose end (and the rack's quiet) this one starts
 * @param atNs model time after the run's start of the first doorbell (0: at the start); a
 *     workload through a loan starts once the loan is made, since the borrower reaches the GPU's
 *     BARs only while it holds it
 */
public record GpuCopies(String name, String driver, String gpu, long registers, long deviceMemory, long bufferGpu,
    long bufferHost, long msiGpu, long msiHost, List<Long> sizes, List<Direction> directions, int repeat,
    MsiForward forward, String where, String peer, ViaRam viaRam, String after, long atNs) {

  /** {@code bufferHost} of a peer-to-peer workload: its copies touch no host RAM. */
  public static final long NO_HOST_BUFFER = -1;

  /** The second GPU of copies via RAM, {@code bounce} its addresses in the plan's terms. */
  public record ViaRam(String gpu, GpuCopyPlan.Bounce bounce) {}


  /**
   * A VM borrower's interrupt path (Device Lending, section 5): the GPU's MSI lands at {@code word}
   * in {@code lender}'s RAM; the lender's handler writes it to {@code to}, the lender's address of
   * the driver's MSI word, after the handler's and the guest injection's latency.
   */
  public record MsiForward(String lender, long word, long to) {}

  /** The most copies one workload runs: each is a round of the fabric and its MSI. */
  public static final int MAX_COPIES = 100_000;

  public GpuCopies {
    sizes = List.copyOf(sizes);
    directions = List.copyOf(directions);
  }

  /** Every copy, direction by direction, each size {@code repeat} times, smallest first. */
  public List<Copy> copies() {
    List<Copy> out = new ArrayList<>();
    for (Direction d : directions) {
      for (long size : sizes) {
        for (int i = 0; i < repeat; i++) {
          out.add(new Copy(size, d));
        }
      }
    }
    return out;
  }

  /** The driver's plan, its first doorbell at model time {@code startAt}. */
  public GpuCopyPlan plan(long startAt) {
    return new GpuCopyPlan(registers, deviceMemory, bufferGpu, bufferHost, msiGpu, msiHost, copies(), startAt,
        viaRam == null ? null : viaRam.bounce());
  }

  /** The GPUs whose copy engines the workload runs: its own, and the via-RAM reader. */
  public List<String> driven() {
    return viaRam == null ? List.of(gpu) : List.of(gpu, viaRam.gpu());
  }

  /** Whether the copies write into a host buffer in the driver's RAM (not peer to peer). */
  public boolean hasHostBuffer() {
    return bufferHost != NO_HOST_BUFFER;
  }

  public long largest() {
    return sizes.get(sizes.size() - 1);
  }

  /** A size as the scenario writes it: {@code 4KiB}, {@code 16MiB}, or bytes when not a whole KiB. */
  public static String sizeText(long bytes) {
    String[] units = {"B", "KiB", "MiB", "GiB"};
    int u = 0;
    long v = bytes;
    while (u < units.length - 1 && v >= 1024 && v % 1024 == 0) {
      v /= 1024;
      u++;
    }
    return v + units[u];
  }
}
