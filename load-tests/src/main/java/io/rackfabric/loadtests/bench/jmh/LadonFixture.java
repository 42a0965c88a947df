package io.rackfabric.loadtests.bench.jmh;

import io.rackfabric.cluster.topology.LadonRackGenerator;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.fabric.routing.RoutingTable;
import io.rackfabric.host.memory.GlobalMemoryLayout;

/**
 * The rack the benchmarks take their tables from: the generated Ladon rack with the paper's
 * layout (L = 32 GiB, P = 1 TiB) and as many compute hosts as data-plane fail-over leaves room
 * for, so its NTB chips are as full as a real rack gets them: an upstream port, one NTB port per
 * compute host, and the plane's multicast group every posted write is checked against first.
 */
final class LadonFixture {

  /** The most compute hosts the paper's layout takes with fail-over: P / L - 3. */
  static final int COMPUTE_HOSTS = 29;
  /** The primary-plane NTB chip, whose ports 1..N are the compute hosts' NTB ports. */
  static final String NTB_CHIP = "nt-pri";
  static final int UPSTREAM_PORT = 0;
  static final int PAYLOAD = 64;

  private LadonFixture() {}

  static GlobalMemoryLayout layout() {
    return GlobalMemoryLayout.paper(COMPUTE_HOSTS);
  }

  static Topology rack() {
    return LadonRackGenerator.generate(layout(), LadonRackGenerator.Placement.SINGLE_NODE);
  }

  static RoutingTable ntbChip() {
    return rack().routingTable(NTB_CHIP);
  }
}
