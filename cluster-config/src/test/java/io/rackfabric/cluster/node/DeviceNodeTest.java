package io.rackfabric.cluster.node;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import akka.actor.typed.receptionist.Receptionist;
import akka.actor.typed.receptionist.ServiceKey;
import com.typesafe.config.ConfigFactory;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.cluster.topology.TopologyLoader;
import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.endpoint.EndpointEvent;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.link.DataLinkState;
import io.rackfabric.fabric.settings.FabricSettings;
import io.rackfabric.fabric.stats.EndpointStats;
import io.rackfabric.host.device.Pcie;
import io.rackfabric.host.device.disk.CompletionEntry;
import io.rackfabric.host.device.disk.DiskBlocks;
import io.rackfabric.host.device.disk.DiskDevice;
import io.rackfabric.host.device.disk.DiskRegisters;
import io.rackfabric.host.device.disk.SubmissionEntry;
import io.rackfabric.host.device.gpu.GpuDevice;
import io.rackfabric.host.device.gpu.GpuRegisters;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * A node runs the GPU-like device next to an endpoint its topology marks {@code device = gpu}, and
 * the NVMe-like disk next to one marked {@code device = disk}.
 */
class DeviceNodeTest {

  // ListComponents is local only (no serializer): messages are not put through serialization here.
  static final ActorTestKit testKit = ActorTestKit.create(ConfigFactory.load());
  static final Duration WAIT = Duration.ofSeconds(10);

  @AfterAll
  static void stop() {
    testKit.shutdownTestKit();
  }

  /** A root and a GPU ({@code p}rc, {@code p}gpu) below one switch, the GPU's BAR0 {@code bar0Size}. */
  static Topology rack(String p, String bar0Size) throws Exception {
    return rack(p, "gpu", bar0Size);
  }

  /** A root and a {@code device} ({@code p}rc, {@code p}{@code device}) below one switch, its BAR0 {@code bar0Size}. */
  static Topology rack(String p, String device, String bar0Size) throws Exception {
    return TopologyLoader.parse(String.join("\n",
        "rack {",
        "  name = " + p + "rack",
        "  nodes = [ { name = n1, host = \"127.0.0.1\", port = 25521 } ]",
        "  switches = [ { id = " + p + "sw, node = n1, ports = [",
        "    { name = up, number = 0, role = upstream, buses = [0, 1, 2], memory = [\"0x10000000\", \"0x1FFFFFFF\"] }",
        "    { name = down, number = 1, role = downstream, buses = [1, 2, 2], memory = [\"0x10000000\", \"0x101FFFFF\"] }",
        "  ] } ]",
        "  endpoints = [",
        "    { id = " + p + "rc, node = n1, root = true, bars = [ { base = \"0x0\", size = \"1MiB\" } ] }",
        "    { id = " + p + device + ", node = n1, device = " + device + ", bars = [",
        "        { base = \"0x10000000\", size = \"" + bar0Size + "\" }, { base = \"0x10100000\", size = \"1MiB\" } ] }",
        "  ]",
        "  links = [ { a = " + p + "rc, b = " + p + "sw.up }, { a = " + p + "sw.down, b = " + p + device + " } ]",
        "}"), p + "rack.conf");
  }

  static List<String> components(Topology rack) {
    ActorRef<RackNode.Command> node = testKit.spawn(RackNode.create(rack, "n1",
        FabricSettings.create(testKit.system().settings().config())), rack.name());
    TestProbe<List<String>> probe = testKit.createTestProbe();
    node.tell(new RackNode.ListComponents(probe.ref()));
    return probe.receiveMessage(WAIT);
  }

  static <T> ActorRef<T> find(ServiceKey<T> key) {
    TestProbe<Receptionist.Listing> probe = testKit.createTestProbe();
    return probe.awaitAssert(WAIT, () -> {
      testKit.system().receptionist().tell(Receptionist.find(key, probe.ref()));
      Set<ActorRef<T>> refs = probe.receiveMessage().getServiceInstances(key);
      assertEquals(1, refs.size(), key.id() + " registered");
      return refs.iterator().next();
    });
  }


  @Test
  void shouldRunTheGpuNextToItsEndpointAndCopyWhenTheDriverRingsIt() throws Exception {
    assertTrue(components(rack("a-", "4KiB")).contains("a-gpu-gpu"));
    ActorRef<MemoryEndpoint.Command> rc = find(ComponentKeys.endpoint("a-rc"));
    ActorRef<GpuDevice.Command> gpu = find(ComponentKeys.gpu("a-gpu"));
    TestProbe<EndpointStats> up = testKit.createTestProbe();
    up.awaitAssert(WAIT, () -> {
      rc.tell(new MemoryEndpoint.GetStats(up.ref()));
      assertEquals(DataLinkState.DL_ACTIVE, up.receiveMessage().link().state());
      return null;
    });
    TestProbe<GpuDevice.GpuStats> stats = testKit.createTestProbe();
    gpu.tell(new GpuDevice.GetStats(stats.ref()));
    stats.receiveMessage(WAIT); // attached and watching before the driver writes
    TestProbe<EndpointEvent> msi = testKit.createTestProbe();
    rc.tell(new MemoryEndpoint.Watch(new AddressRange(0xF_0000, 0xF_0003), msi.ref()));
    byte[] data = new byte[4096];
    for (int i = 0; i < data.length; i++) {
      data[i] = (byte) (i ^ (i >> 8));
    }
    rc.tell(new MemoryEndpoint.Store(0x1_0000, data));

    // Host RAM at 0x10000 into device memory, MSI into host RAM at 0xF0000.
    rc.tell(new MemoryEndpoint.Write(0x1000_0000L + GpuRegisters.SRC, GpuRegisters.qword(0x1_0000)));
    rc.tell(new MemoryEndpoint.Write(0x1000_0000L + GpuRegisters.DST, GpuRegisters.qword(0x1010_0000L)));
    rc.tell(new MemoryEndpoint.Write(0x1000_0000L + GpuRegisters.LENGTH, GpuRegisters.dword(data.length)));
    rc.tell(new MemoryEndpoint.Write(0x1000_0000L + GpuRegisters.MSI_ADDR, GpuRegisters.qword(0xF_0000)));
    rc.tell(new MemoryEndpoint.Write(0x1000_0000L + GpuRegisters.MSI_DATA, GpuRegisters.dword(0x77)));
    rc.tell(new MemoryEndpoint.Write(0x1000_0000L + GpuRegisters.DOORBELL, GpuRegisters.dword(1)));

    EndpointEvent.MemoryWritten w = (EndpointEvent.MemoryWritten) msi.receiveMessage(WAIT);
    assertArrayEquals(GpuRegisters.dword(0x77), w.data());
    TestProbe<byte[]> peek = testKit.createTestProbe();
    find(ComponentKeys.endpoint("a-gpu")).tell(new MemoryEndpoint.Peek(0x1010_0000L, data.length, peek.ref()));
    assertArrayEquals(data, peek.receiveMessage(WAIT));
  }

  @Test
  void shouldRunNoDeviceLogicWhenBar0IsSmallerThanTheRegisterBar() throws Exception {
    List<String> running = components(rack("b-", "2KiB"));
    assertTrue(running.contains("b-gpu"), "the endpoint runs, as plain memory: " + running);
    assertFalse(running.contains("b-gpu-gpu"), running.toString());
  }

  @Test
  void shouldRunTheDiskNextToItsEndpointAndReadWhenTheDriverRingsIt() throws Exception {
    assertTrue(components(rack("c-", "disk", "4KiB")).contains("c-disk-disk"));
    ActorRef<MemoryEndpoint.Command> rc = find(ComponentKeys.endpoint("c-rc"));
    ActorRef<DiskDevice.Command> disk = find(ComponentKeys.disk("c-disk"));
    TestProbe<EndpointStats> up = testKit.createTestProbe();
    up.awaitAssert(WAIT, () -> {
      rc.tell(new MemoryEndpoint.GetStats(up.ref()));
      assertEquals(DataLinkState.DL_ACTIVE, up.receiveMessage().link().state());
      return null;
    });
    TestProbe<DiskDevice.DiskStats> stats = testKit.createTestProbe();
    disk.tell(new DiskDevice.GetStats(stats.ref()));
    stats.receiveMessage(WAIT); // attached and watching before the driver writes
    TestProbe<EndpointEvent> msi = testKit.createTestProbe();
    rc.tell(new MemoryEndpoint.Watch(new AddressRange(0xF_0000, 0xF_0003), msi.ref()));

    // Queues in host RAM (SQ 0x1000, CQ 0x2000), one READ of 2 blocks into 0x10000.
    rc.tell(new MemoryEndpoint.Store(0x1000, SubmissionEntry.read(9, 0x1_0000, 4321, 2).encode()));
    long bar0 = 0x1000_0000L;
    rc.tell(new MemoryEndpoint.Write(bar0 + DiskRegisters.SQ_BASE, Pcie.qword(0x1000)));
    rc.tell(new MemoryEndpoint.Write(bar0 + DiskRegisters.CQ_BASE, Pcie.qword(0x2000)));
    rc.tell(new MemoryEndpoint.Write(bar0 + DiskRegisters.SQ_SIZE, Pcie.dword(8)));
    rc.tell(new MemoryEndpoint.Write(bar0 + DiskRegisters.CQ_SIZE, Pcie.dword(8)));
    rc.tell(new MemoryEndpoint.Write(bar0 + DiskRegisters.MSI_ADDR, Pcie.qword(0xF_0000)));
    rc.tell(new MemoryEndpoint.Write(bar0 + DiskRegisters.MSI_DATA, Pcie.dword(0x78)));
    rc.tell(new MemoryEndpoint.Write(bar0 + DiskRegisters.ENABLE, Pcie.dword(1)));
    rc.tell(new MemoryEndpoint.Write(bar0 + DiskRegisters.SQ_TAIL, Pcie.dword(1)));

    EndpointEvent.MemoryWritten w = (EndpointEvent.MemoryWritten) msi.receiveMessage(WAIT);
    assertArrayEquals(Pcie.dword(0x78), w.data());
    TestProbe<byte[]> peek = testKit.createTestProbe();
    rc.tell(new MemoryEndpoint.Peek(0x1_0000, 2 * DiskBlocks.BLOCK, peek.ref()));
    assertArrayEquals(new DiskBlocks(4323).read(4321, 2), peek.receiveMessage(WAIT));
    rc.tell(new MemoryEndpoint.Peek(0x2000, CompletionEntry.SIZE, peek.ref()));
    assertEquals(new CompletionEntry(1, 9, CompletionEntry.Status.SUCCESS, true),
        CompletionEntry.decode(peek.receiveMessage(WAIT)));
  }

  @Test
  void shouldRunNoDiskLogicWhenBar0IsSmallerThanTheRegisterBar() throws Exception {
    List<String> running = components(rack("d-", "disk", "2KiB"));
    assertTrue(running.contains("d-disk"), "the endpoint runs, as plain memory: " + running);
    assertFalse(running.contains("d-disk-disk"), running.toString());
  }
}
