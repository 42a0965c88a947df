package io.rackfabric.loadtests.scenario.language;

import io.rackfabric.cluster.topology.DeviceKind;
import io.rackfabric.cluster.topology.EndpointSpec;
import io.rackfabric.cluster.topology.Fields;
import io.rackfabric.cluster.topology.RouteExplainer;
import io.rackfabric.cluster.topology.RouteExplanation;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.address.Addresses;
import io.rackfabric.host.device.gpu.GpuCopyPlan;
import java.util.Optional;

/**
 * The two targets of a {@code gpu-copies} workload beside a host buffer, Device Lending's Figure
 * 12 (section 7.2): {@code peer = { gpu, address }}, the copies written straight into another
 * GPU's memory (peer to peer), and {@code via-ram = { gpu, registers, device-memory, buffer, msi
 * }}, each copy written into the host buffer and read out of it by a second GPU. Parsed here and
 * followed through the topology as {@code rack route} does: an address that does not land where
 * it must is an error naming it and where it ends, so nothing is run toward it.
 */
final class GpuCopyTargets {

  static final String PEER = "peer";
  static final String VIA_RAM = "via-ram";

  /** {@code peer}: the GPU written into and its memory as the workload's GPU reaches it. */
  record Peer(String gpu, long address) {}

  private GpuCopyTargets() {}

  /** {@code peer = { gpu, address }}, or null with the problems reported. */
  static Peer peer(Fields w) {
    Fields p = w.object(PEER, true);
    if (p == null) {
      return null;
    }
    p.allowOnly("gpu", "address");
    String gpu = p.string("gpu", true);
    Long address = p.address("address", true);
    return gpu == null || address == null ? null : new Peer(gpu, address);
  }

  /** {@code via-ram = { gpu, registers, device-memory, buffer, msi }}, or null with the problems reported. */
  static GpuCopies.ViaRam viaRam(Fields w) {
    Fields v = w.object(VIA_RAM, true);
    if (v == null) {
      return null;
    }
    v.allowOnly("gpu", "registers", "device-memory", "buffer", "msi");
    String gpu = v.string("gpu", true);
    Long registers = v.address("registers", true);
    Long deviceMemory = v.address("device-memory", true);
    Long buffer = v.address("buffer", true);
    Long msi = v.address("msi", true);
    if (gpu == null || registers == null || deviceMemory == null || buffer == null || msi == null) {
      return null;
    }
    return new GpuCopies.ViaRam(gpu, new GpuCopyPlan.Bounce(registers, deviceMemory, buffer, msi));
  }

  /**
   * The peer is another GPU, and the workload's GPU writing at {@code peer.address} lands in its
   * BAR1, the largest copy's last byte too, at the matching offset.
   */
  static void checkPeer(Fields w, Topology topology, GpuCopies spec) {
    Fields p = w.object(PEER, true);
    Optional<EndpointSpec> peer = otherGpu(p, topology, spec.driver(), spec.peer(), spec.gpu());
    if (peer.isEmpty()) {
      return;
    }
    AddressRange bar1 = peer.get().bars().get(1);
    RouteExplainer routes = new RouteExplainer(topology);
    long largest = spec.largest();
    RouteExplanation first = routes.explain(spec.gpu(), spec.bufferGpu(), false);
    if (!landsIn(first, spec.peer(), bar1)) {
      p.error("address", "address=" + Addresses.hex(spec.bufferGpu()) + ": a write from " + spec.gpu() + " is "
          + first.ending() + "; it must reach " + spec.peer() + "'s BAR1 " + bar1);
      return;
    }
    long lastByte = spec.bufferGpu() + largest - 1;
    RouteExplanation last = routes.explain(spec.gpu(), lastByte, false);
    if (!landsIn(last, spec.peer(), bar1) || last.outcome().address() != first.outcome().address() + largest - 1) {
      p.error("address", "address=" + Addresses.hex(spec.bufferGpu()) + ": the largest copy's last byte ("
          + Addresses.hex(lastByte) + ", " + GpuCopies.sizeText(largest) + ") from " + spec.gpu() + " is "
          + last.ending() + "; it must reach " + spec.peer() + " at " + Addresses.hex(first.outcome().address()
          + largest - 1) + ", inside its BAR1 " + bar1);
    }
  }

  /**
   * The via-RAM reader is another GPU that the driver reaches at its BAR0, whose memory holds the
   * largest copy, and that reads the host buffer and writes the MSI where the workload's GPU does.
   */
  static void checkViaRam(Fields w, Topology topology, GpuCopies spec) {
    Fields v = w.object(VIA_RAM, true);
    GpuCopies.ViaRam r = spec.viaRam();
    Optional<EndpointSpec> reader = otherGpu(v, topology, spec.driver(), r.gpu(), spec.gpu());
    if (reader.isEmpty()) {
      return;
    }
    DeviceRoutes routes = new DeviceRoutes(v, topology, spec.driver(), r.gpu(), "gpu");
    routes.registersAtBar0(r.bounce().registers(), reader.get().bars().get(0), "SRC");
    GpuCopiesSection.checkInBar1(v, r.gpu(), reader.get().bars().get(1), r.bounce().deviceMemory(), spec.largest());
    routes.areaTowardHost("buffer", r.bounce().bufferGpu(), spec.bufferHost(), spec.largest(), true, "the buffer");
    routes.towardHost("msi", r.bounce().msiGpu(), spec.msiHost(), 0, false, "the MSI");
  }

  /** {@code gpu} as a GPU endpoint with a BAR1, not {@code own}; else reported on {@code f}. */
  private static Optional<EndpointSpec> otherGpu(Fields f, Topology topology, String driver, String gpu, String own) {
    if (gpu.equals(own)) {
      f.error("gpu", "gpu=" + gpu + " is the workload's own GPU: the copies go from one GPU to another");
      return Optional.empty();
    }
    return new DeviceRoutes(f, topology, driver, gpu, "gpu").endpoints(DeviceKind.GPU, 2, "GPUs");
  }

  private static boolean landsIn(RouteExplanation r, String target, AddressRange bar) {
    return r.delivered() && target.equals(r.target()) && bar.contains(r.outcome().address());
  }
}
