package io.rackfabric.host.device.gpu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.endpoint.EndpointEvent;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.link.LinkParameters;
import io.rackfabric.fabric.link.PortMessage;
import io.rackfabric.fabric.routing.BridgeRegisters;
import io.rackfabric.fabric.routing.PortConfig;
import io.rackfabric.fabric.routing.PortRole;
import io.rackfabric.fabric.routing.RoutingTable;
import io.rackfabric.fabric.settings.FabricSettings;
import io.rackfabric.fabric.stats.EndpointStats;
import io.rackfabric.fabric.switchchip.SwitchChip;
import io.rackfabric.fabric.time.JoinKeeper;
import io.rackfabric.fabric.time.TimeKeeper;
import io.rackfabric.fabric.tlp.Bdf;
import io.rackfabric.fabric.tlp.CompletionStatus;
import io.rackfabric.host.device.DeviceRig;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * The GPU-like device on a small fabric: a root (host RAM) and the GPU's endpoint below one
 * switch. The driver, a test here, programs BAR0 through the fabric from the root; the device
 * copies host RAM into its memory and back, and posts its MSI into host RAM when done.
 */
class GpuDeviceTest {

  static final ActorTestKit testKit = DeviceRig.kit();
  static final Duration WAIT = DeviceRig.WAIT;
  static final LinkParameters GEN3X4 = LinkParameters.gen3x4();
  static final AddressRange RAM = new AddressRange(0, 0xF_FFFFL);
  static final AddressRange BAR0 = AddressRange.ofSize(0x1000_0000L, 4096);
  static final AddressRange BAR1 = AddressRange.ofSize(0x1010_0000L, 0x10_0000L);
  static final AddressRange PEER_BAR = AddressRange.ofSize(0x1100_0000L, 0x10_0000L);
  static final long SOURCE = 0x1_0000;
  static final long TARGET = 0x8_0000;
  static final long MSI = 0xF_0000;

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  /** The small rack: {@code keeper} null when it runs free. */
  record Rack(ActorTestKit kit, ActorRef<MemoryEndpoint.Command> rc, ActorRef<MemoryEndpoint.Command> gpu,
      ActorRef<MemoryEndpoint.Command> peer, ActorRef<GpuDevice.Command> device, ActorRef<TimeKeeper.Command> keeper, TestProbe<EndpointEvent> msi) {}

  /** What a copy in and a copy out came to, in model time. */
  record Outcome(long inAt, long inMsiAt, long outAt, long outMsiAt) {}

  /**
   * rc (root, RAM) - up [sw] down - gpu (BAR0 registers, BAR1 device memory), and a plain memory
   * endpoint on the switch's third port: sw.other - peer (one BAR).
   */
  static Rack rack(ActorTestKit kit, String p, boolean underKernel) {
    FabricSettings settings = FabricSettings.create(kit.system().settings().config());
    RoutingTable table = new RoutingTable(List.of(
        new PortConfig("up", 0, PortRole.UPSTREAM, 1,
            new BridgeRegisters(0, 1, 3, new AddressRange(0x1000_0000L, 0x1FFF_FFFFL), null), null),
        new PortConfig("down", 1, PortRole.DOWNSTREAM, 1,
            new BridgeRegisters(1, 2, 2, new AddressRange(0x1000_0000L, 0x10FF_FFFFL), null), null),
        new PortConfig("other", 2, PortRole.DOWNSTREAM, 1,
            new BridgeRegisters(1, 3, 3, PEER_BAR, null), null)),
        List.of());
    ActorRef<SwitchChip.Command> chip = kit.spawn(SwitchChip.create(p + "sw", table, List.of(
        new SwitchChip.PortLink(0, GEN3X4, p + "rc"), new SwitchChip.PortLink(1, GEN3X4, p + "gpu"),
        new SwitchChip.PortLink(2, GEN3X4, p + "peer")), settings), p + "sw");
    ActorRef<MemoryEndpoint.Command> rc = kit.spawn(MemoryEndpoint.create(p + "rc", Bdf.of(0, 0, 0), true,
        List.of(RAM), GEN3X4, p + "sw.up", settings), p + "rc");
    ActorRef<MemoryEndpoint.Command> gpu = kit.spawn(MemoryEndpoint.create(p + "gpu", Bdf.of(2, 0, 0), false,
        List.of(BAR0, BAR1), GEN3X4, p + "sw.down", settings), p + "gpu");
    ActorRef<MemoryEndpoint.Command> peer = kit.spawn(MemoryEndpoint.create(p + "peer", Bdf.of(3, 0, 0), false,
        List.of(PEER_BAR), GEN3X4, p + "sw.other", settings), p + "peer");
    for (ActorRef<MemoryEndpoint.Command> ep : List.of(rc, gpu, peer)) {
      DeviceRig.awaitActive(kit, ep);
    }
    ActorRef<TimeKeeper.Command> keeper = null;
    if (underKernel) {
      keeper = kit.spawn(TimeKeeper.create(Set.of(p + "sw.up", p + "sw.down", p + "sw.other", p + "rc", p + "gpu",
          p + "peer")), p + "keeper");
      chip.tell(new SwitchChip.Synchronize(keeper));
      for (ActorRef<MemoryEndpoint.Command> ep : List.of(rc, gpu, peer)) {
        ep.<PortMessage>unsafeUpcast().tell(new JoinKeeper(keeper));
      }
      TestProbe<TimeKeeper.Status> idle = kit.createTestProbe();
      keeper.tell(new TimeKeeper.AwaitIdle(idle.ref()));
      assertEquals(6, idle.receiveMessage(WAIT).joined());
    }
    ActorRef<GpuDevice.Command> device = kit.spawn(GpuDevice.create(p + "gpu", gpu, GpuBars.of(List.of(BAR0, BAR1)),
        GpuSettings.create(kit.system().settings().config()), settings.maxPayload()), p + "device");
    stats(kit, device); // the device has attached and watches BAR0 before the driver writes
    TestProbe<EndpointEvent> msi = kit.createTestProbe();
    rc.tell(new MemoryEndpoint.Watch(new AddressRange(MSI, MSI + 3), msi.ref()));
    return new Rack(kit, rc, gpu, peer, device, keeper, msi);
  }

  static GpuDevice.GpuStats stats(ActorTestKit kit, ActorRef<GpuDevice.Command> device) {
    TestProbe<GpuDevice.GpuStats> probe = kit.createTestProbe();
    device.tell(new GpuDevice.GetStats(probe.ref()));
    return probe.receiveMessage(WAIT);
  }

  static byte[] pattern(int length, int seed) {
    byte[] b = new byte[length];
    for (int i = 0; i < length; i++) {
      b[i] = (byte) (i * 31 + seed + (i >> 8));
    }
    return b;
  }


  /**
   * The driver's register writes from the root, each a posted write through the switch, at model
   * time {@code at}: held for under the kernel, so they enter the model then (free-running: now).
   */
  static void program(Rack r, long at, long src, long dst, int length, int msiData) {
    long base = BAR0.base();
    DeviceRig.at(r.kit(), r.keeper(), r.rc(), at, stamp -> {
      r.rc().tell(new MemoryEndpoint.Write(base + GpuRegisters.SRC, GpuRegisters.qword(src), stamp));
      r.rc().tell(new MemoryEndpoint.Write(base + GpuRegisters.DST, GpuRegisters.qword(dst), stamp));
      r.rc().tell(new MemoryEndpoint.Write(base + GpuRegisters.LENGTH, GpuRegisters.dword(length), stamp));
      r.rc().tell(new MemoryEndpoint.Write(base + GpuRegisters.MSI_ADDR, GpuRegisters.qword(MSI), stamp));
      r.rc().tell(new MemoryEndpoint.Write(base + GpuRegisters.MSI_DATA, GpuRegisters.dword(msiData), stamp));
      r.rc().tell(new MemoryEndpoint.Write(base + GpuRegisters.DOORBELL, GpuRegisters.dword(1), stamp));
    });
  }

  /** The MSI the copy posted: its data checked; when it landed in host RAM. */
  static long awaitMsi(Rack r, int msiData) {
    EndpointEvent.MemoryWritten w = assertInstanceOf(EndpointEvent.MemoryWritten.class, r.msi().receiveMessage(WAIT));
    assertArrayEquals(GpuRegisters.dword(msiData), w.data());
    return w.arrivedAt();
  }

  static byte[] peek(Rack r, ActorRef<MemoryEndpoint.Command> ep, long address, int length) {
    TestProbe<byte[]> probe = r.kit().createTestProbe();
    ep.tell(new MemoryEndpoint.Peek(address, length, probe.ref()));
    return probe.receiveMessage(WAIT);
  }

  static TimeKeeper.Status awaitIdle(Rack r) {
    return DeviceRig.awaitIdle(r.kit(), r.keeper());
  }

  /** Host RAM into device memory, then device memory back into host RAM elsewhere, under the kernel. */
  static Outcome roundTrip(Rack r, int length) {
    byte[] data = pattern(length, length);
    r.rc().tell(new MemoryEndpoint.Store(SOURCE, data));
    long inAt = 10_000;
    program(r, inAt, SOURCE, BAR1.base(), length, 0x11);
    long inMsi = awaitMsi(r, 0x11);
    long outAt = awaitIdle(r).reached() + 10_000;
    assertArrayEquals(data, peek(r, r.gpu(), BAR1.base(), length), "host RAM landed in device memory");

    program(r, outAt, BAR1.base(), TARGET, length, 0x22);
    long outMsi = awaitMsi(r, 0x22);
    awaitIdle(r);
    assertArrayEquals(data, peek(r, r.rc(), TARGET, length), "device memory landed in host RAM");
    GpuDevice.GpuStats s = stats(r.kit(), r.device());
    assertEquals(2, s.copiesDone());
    assertEquals(0, s.refused() + s.copiesFailed());
    return new Outcome(inAt, inMsi, outAt, outMsi);
  }

  @Test
  void shouldCopyBothWaysWithAnMsiEachAndTakeLongerForMoreBytesWhenUnderTheKernel() {
    Outcome small = roundTrip(rack(testKit, "k4-", true), 4096);
    Outcome large = roundTrip(rack(testKit, "k64-", true), 64 * 1024);
    GpuSettings gpu = GpuSettings.create(testKit.system().settings().config());

    for (Outcome o : List.of(small, large)) {
      // The doorbell's flight, the setup, the data's flights, the MSI's flight: never less than
      // the setup and the payload's serialization on one link.
      assertTrue(o.inMsiAt() - o.inAt() > gpu.setupNs() + GEN3X4.serializationNs(4096), o.toString());
      assertTrue(o.outMsiAt() - o.outAt() > gpu.setupNs() + GEN3X4.serializationNs(4096), o.toString());
    }
    assertTrue(large.inMsiAt() - large.inAt() >= small.inMsiAt() - small.inAt()
        + GEN3X4.serializationNs(60 * 1024), "in: " + small + " vs " + large);
    assertTrue(large.outMsiAt() - large.outAt() >= small.outMsiAt() - small.outAt()
        + GEN3X4.serializationNs(60 * 1024), "out: " + small + " vs " + large);
  }

  @Test
  void shouldGiveTheSameModelTimesWhenTheSameCopiesRunInFreshSystems() {
    Outcome[] runs = new Outcome[2];
    for (int i = 0; i < runs.length; i++) {
      ActorTestKit fresh = DeviceRig.kit();
      try {
        runs[i] = roundTrip(rack(fresh, "d-", true), 64 * 1024);
      } finally {
        fresh.shutdownTestKit();
      }
    }
    assertEquals(runs[0], runs[1]);
  }

  @Test
  void shouldCopyAndShowDoneInStatusWhenRunningFree() {
    Rack r = rack(testKit, "f-", false);
    byte[] data = pattern(4096, 5);
    r.rc().tell(new MemoryEndpoint.Store(SOURCE, data));
    program(r, -1, SOURCE, BAR1.base() + 0x800, 4096, 0x33);
    awaitMsi(r, 0x33);
    assertArrayEquals(data, peek(r, r.gpu(), BAR1.base() + 0x800, 4096));

    // The driver reads STATUS and BYTES_DONE through the fabric.
    TestProbe<MemoryEndpoint.ReadResult> read = r.kit().createTestProbe();
    r.rc().tell(new MemoryEndpoint.Read(BAR0.base() + GpuRegisters.STATUS, 8, read.ref()));
    MemoryEndpoint.ReadResult status = read.receiveMessage(WAIT);
    assertEquals(CompletionStatus.SUCCESSFUL, status.status());
    ByteBuffer b = ByteBuffer.wrap(status.data()).order(ByteOrder.LITTLE_ENDIAN);
    assertEquals(GpuRegisters.State.DONE.ordinal(), b.getInt(0));
    assertEquals(4096, b.getInt(4));
  }

  @Test
  void shouldRefuseADoorbellWithNoSideInDeviceMemoryAndSayErrorInStatus() {
    Rack r = rack(testKit, "e-", true);
    program(r, 5_000, SOURCE, TARGET, 64, 0x44);
    awaitIdle(r);
    r.msi().expectNoMessage(Duration.ofMillis(100));
    GpuDevice.GpuStats s = stats(r.kit(), r.device());
    assertEquals(1, s.refused());
    assertEquals(GpuRegisters.State.ERROR.ordinal()
        | GpuRegisters.Error.OUTSIDE_DEVICE_MEMORY.ordinal() << 8, s.status());
    ByteBuffer image = ByteBuffer.wrap(peek(r, r.gpu(), BAR0.base() + GpuRegisters.STATUS, 4))
        .order(ByteOrder.LITTLE_ENDIAN);
    assertEquals(s.status(), image.getInt(0), "STATUS in BAR0 as the driver would read it");
  }

  @Test
  void shouldEndTheCopyWithAnErrorAndStillPostTheMsiWhenTheRootAnswersUnsupportedRequest() {
    Rack r = rack(testKit, "ur-", true);
    // Past the root's RAM: the root answers each read with Unsupported Request.
    program(r, 5_000, RAM.limit() + 1 - 1024, BAR1.base(), 4096, 0x55);
    awaitMsi(r, 0x55);
    awaitIdle(r);
    GpuDevice.GpuStats s = stats(r.kit(), r.device());
    assertEquals(1, s.copiesFailed());
    assertEquals(0, s.copiesDone());
    assertEquals(GpuRegisters.State.ERROR.ordinal() | GpuRegisters.Error.COMPLETION_ERROR.ordinal() << 8, s.status());
  }

  @Test
  void shouldWriteDeviceMemoryIntoAnotherDevicesBarWhenTheDestinationIsAPeer() {
    Rack r = rack(testKit, "p2p-", true);
    byte[] data = pattern(8192, 9);
    r.gpu().tell(new MemoryEndpoint.Store(BAR1.base() + 0x1000, data));
    program(r, 5_000, BAR1.base() + 0x1000, PEER_BAR.base() + 0x80, data.length, 0x66);
    awaitMsi(r, 0x66);
    awaitIdle(r);
    assertArrayEquals(data, peek(r, r.peer(), PEER_BAR.base() + 0x80, data.length), "peer to peer, not via the root");
    TestProbe<EndpointStats> stats = r.kit().createTestProbe();
    r.rc().tell(new MemoryEndpoint.GetStats(stats.ref()));
    assertEquals(1, stats.receiveMessage(WAIT).writesReceived(), "the root saw only the MSI");
  }
}
