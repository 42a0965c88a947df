package io.rackfabric.host.device.disk;

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
import io.rackfabric.fabric.switchchip.SwitchChip;
import io.rackfabric.fabric.time.JoinKeeper;
import io.rackfabric.fabric.time.TimeKeeper;
import io.rackfabric.fabric.tlp.Bdf;
import io.rackfabric.fabric.tlp.CompletionStatus;
import io.rackfabric.host.device.DeviceRig;
import io.rackfabric.host.device.Pcie;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * The NVMe-like disk on a small fabric: a root (host RAM holding the queues and the buffers) and
 * the disk's endpoint below one switch, or below two (one switch further away). The driver, a test
 * here, stores commands into the submission queue in its own RAM and rings the disk's doorbells
 * through the fabric; the disk fetches, moves the data, posts the completion and its MSI-X message.
 */
class DiskDeviceTest {

  static final ActorTestKit testKit = DeviceRig.kit();
  static final Duration WAIT = DeviceRig.WAIT;
  static final LinkParameters GEN3X4 = LinkParameters.gen3x4();
  static final AddressRange RAM = new AddressRange(0, 0xF_FFFFL);
  static final AddressRange BAR0 = AddressRange.ofSize(0x1000_0000L, 4096);
  static final AddressRange WINDOW = new AddressRange(0x1000_0000L, 0x1FFF_FFFFL);
  static final long SQ = 0x1000;
  static final long CQ = 0x3000;
  static final int QUEUE = 16;
  static final long BUFFER = 0x1_0000;
  static final long MSI = 0xF_0000;

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  /** The small rack: {@code keeper} null when it runs free. */
  record Rack(ActorTestKit kit, ActorRef<MemoryEndpoint.Command> rc, ActorRef<MemoryEndpoint.Command> endpoint,
      ActorRef<DiskDevice.Command> disk,
      ActorRef<TimeKeeper.Command> keeper, TestProbe<EndpointEvent> msi) {}

  /** One command's outcome: when its doorbell was issued and when its MSI-X message landed. */
  record Outcome(long doorbellAt, long msiAt) {
    long latency() {
      return msiAt - doorbellAt;
    }
  }

  /**
   * rc (root, RAM) - up [sw] down - disk, or with {@code twoSwitches}: rc - up [sw] down - up [sw2]
   * down - disk.
   */
  static Rack rack(ActorTestKit kit, String p, boolean twoSwitches, boolean underKernel) {
    FabricSettings settings = FabricSettings.create(kit.system().settings().config());
    int diskBus = twoSwitches ? 4 : 2;
    List<String> members = new ArrayList<>(List.of(p + "rc", p + "disk", p + "sw.up", p + "sw.down"));
    List<ActorRef<SwitchChip.Command>> chips = new ArrayList<>();
    chips.add(kit.spawn(SwitchChip.create(p + "sw", new RoutingTable(List.of(
        new PortConfig("up", 0, PortRole.UPSTREAM, 1, new BridgeRegisters(0, 1, diskBus, WINDOW, null), null),
        new PortConfig("down", 1, PortRole.DOWNSTREAM, 1, new BridgeRegisters(1, 2, diskBus, WINDOW, null), null)),
        List.of()), List.of(new SwitchChip.PortLink(0, GEN3X4, p + "rc"),
        new SwitchChip.PortLink(1, GEN3X4, twoSwitches ? p + "sw2.up" : p + "disk")), settings), p + "sw"));
    if (twoSwitches) {
      chips.add(kit.spawn(SwitchChip.create(p + "sw2", new RoutingTable(List.of(
          new PortConfig("up", 0, PortRole.UPSTREAM, 1, new BridgeRegisters(2, 3, 4, WINDOW, null), null),
          new PortConfig("down", 1, PortRole.DOWNSTREAM, 1, new BridgeRegisters(3, 4, 4, WINDOW, null), null)),
          List.of()), List.of(new SwitchChip.PortLink(0, GEN3X4, p + "sw.down"),
          new SwitchChip.PortLink(1, GEN3X4, p + "disk")), settings), p + "sw2"));
      members.addAll(List.of(p + "sw2.up", p + "sw2.down"));
    }
    ActorRef<MemoryEndpoint.Command> rc = kit.spawn(MemoryEndpoint.create(p + "rc", Bdf.of(0, 0, 0), true,
        List.of(RAM), GEN3X4, p + "sw.up", settings), p + "rc");
    ActorRef<MemoryEndpoint.Command> ep = kit.spawn(MemoryEndpoint.create(p + "disk", Bdf.of(diskBus, 0, 0), false,
        List.of(BAR0), GEN3X4, (twoSwitches ? p + "sw2" : p + "sw") + ".down", settings), p + "disk");
    DeviceRig.awaitActive(kit, rc);
    DeviceRig.awaitActive(kit, ep);
    ActorRef<TimeKeeper.Command> keeper = null;
    if (underKernel) {
      keeper = kit.spawn(TimeKeeper.create(Set.copyOf(members)), p + "keeper");
      for (ActorRef<SwitchChip.Command> chip : chips) {
        chip.tell(new SwitchChip.Synchronize(keeper));
      }
      for (ActorRef<MemoryEndpoint.Command> e : List.of(rc, ep)) {
        e.<PortMessage>unsafeUpcast().tell(new JoinKeeper(keeper));
      }
      TestProbe<TimeKeeper.Status> idle = kit.createTestProbe();
      keeper.tell(new TimeKeeper.AwaitIdle(idle.ref()));
      assertEquals(members.size(), idle.receiveMessage(WAIT).joined());
    }
    ActorRef<DiskDevice.Command> disk = kit.spawn(DiskDevice.create(p + "disk", ep, DiskBars.of(List.of(BAR0)),
        DiskSettings.create(kit.system().settings().config()), settings.maxPayload()), p + "device");
    stats(kit, disk); // the disk has attached and watches BAR0 before the driver writes
    TestProbe<EndpointEvent> msi = kit.createTestProbe();
    rc.tell(new MemoryEndpoint.Watch(new AddressRange(MSI, MSI + 3), msi.ref()));
    return new Rack(kit, rc, ep, disk, keeper, msi);
  }

  static DiskDevice.DiskStats stats(ActorTestKit kit, ActorRef<DiskDevice.Command> disk) {
    TestProbe<DiskDevice.DiskStats> probe = kit.createTestProbe();
    disk.tell(new DiskDevice.GetStats(probe.ref()));
    return probe.receiveMessage(WAIT);
  }

  /** The driver's register writes from the root, posted through the fabric at model time {@code at}. */
  static void writeRegisters(Rack r, long at, List<RegisterWrite> writes) {
    DeviceRig.at(r.kit(), r.keeper(), r.rc(), at, stamp -> {
      for (RegisterWrite w : writes) {
        r.rc().tell(new MemoryEndpoint.Write(BAR0.base() + w.offset(), w.data(), stamp));
      }
    });
  }

  record RegisterWrite(int offset, byte[] data) {}

  /** The queue pair in host RAM, the MSI-X target, the disk enabled. */
  static void enable(Rack r, long at) {
    writeRegisters(r, at, List.of(
        new RegisterWrite(DiskRegisters.SQ_BASE, Pcie.qword(SQ)),
        new RegisterWrite(DiskRegisters.CQ_BASE, Pcie.qword(CQ)),
        new RegisterWrite(DiskRegisters.SQ_SIZE, Pcie.dword(QUEUE)),
        new RegisterWrite(DiskRegisters.CQ_SIZE, Pcie.dword(QUEUE)),
        new RegisterWrite(DiskRegisters.MSI_ADDR, Pcie.qword(MSI)),
        new RegisterWrite(DiskRegisters.MSI_DATA, Pcie.dword(0x5A)),
        new RegisterWrite(DiskRegisters.ENABLE, Pcie.dword(1))));
  }

  /** Command {@code e} into SQ slot {@code slot} (the host CPU's store into its RAM), then the tail doorbell at {@code at}. */
  static Outcome submit(Rack r, int slot, SubmissionEntry e, long at) {
    r.rc().tell(new MemoryEndpoint.Store(SQ + (long) slot * SubmissionEntry.SIZE, e.encode()));
    writeRegisters(r, at, List.of(new RegisterWrite(DiskRegisters.SQ_TAIL, Pcie.dword(slot + 1))));
    EndpointEvent.MemoryWritten w = assertInstanceOf(EndpointEvent.MemoryWritten.class, r.msi().receiveMessage(WAIT));
    assertArrayEquals(Pcie.dword(0x5A), w.data());
    return new Outcome(at, w.arrivedAt());
  }

  static byte[] peek(Rack r, long address, int length) {
    return peek(r, r.rc(), address, length);
  }

  static byte[] peek(Rack r, ActorRef<MemoryEndpoint.Command> ep, long address, int length) {
    TestProbe<byte[]> probe = r.kit().createTestProbe();
    ep.tell(new MemoryEndpoint.Peek(address, length, probe.ref()));
    return probe.receiveMessage(WAIT);
  }

  static CompletionEntry completion(Rack r, int slot) {
    return CompletionEntry.decode(peek(r, CQ + (long) slot * CompletionEntry.SIZE, CompletionEntry.SIZE));
  }

  static long awaitIdle(Rack r) {
    return DeviceRig.awaitIdle(r.kit(), r.keeper()).reached();
  }

  /** A READ of 1 block, then one of 8, under the kernel; the data and completions checked. */
  static List<Outcome> oneThenEight(Rack r) {
    enable(r, 5_000);
    Outcome one = submit(r, 0, SubmissionEntry.read(0x11, BUFFER, 1234, 1), awaitIdle(r) + 10_000);
    Outcome eight = submit(r, 1, SubmissionEntry.read(0x22, BUFFER + 0x1000, 77_000, 8), awaitIdle(r) + 10_000);
    awaitIdle(r);
    assertArrayEquals(DiskBlocks.pattern(1234), peek(r, BUFFER, DiskBlocks.BLOCK));
    assertArrayEquals(new DiskBlocks(77_008).read(77_000, 8), peek(r, BUFFER + 0x1000, 8 * DiskBlocks.BLOCK));
    assertEquals(new CompletionEntry(1, 0x11, CompletionEntry.Status.SUCCESS, true), completion(r, 0));
    assertEquals(new CompletionEntry(2, 0x22, CompletionEntry.Status.SUCCESS, true), completion(r, 1));
    DiskDevice.DiskStats s = stats(r.kit(), r.disk());
    assertEquals(2, s.completed());
    assertEquals(0, s.failed() + s.refused() + s.fetchFailures());
    return List.of(one, eight);
  }

  @Test
  void shouldTakeLongerForMoreBlocksAndForALongerPathWhenReadingUnderTheKernel() {
    List<Outcome> near = oneThenEight(rack(testKit, "n-", false, true));
    List<Outcome> far = oneThenEight(rack(testKit, "f-", true, true));
    DiskSettings disk = DiskSettings.create(testKit.system().settings().config());
    for (List<Outcome> o : List.of(near, far)) {
      // Never less than the media; 8 blocks carry 7 more blocks over the same last link.
      assertTrue(o.get(0).latency() > disk.readLatencyNs(), o.toString());
      assertTrue(o.get(1).latency() >= o.get(0).latency() + GEN3X4.serializationNs(7 * DiskBlocks.BLOCK),
          o.toString());
    }
    for (int i = 0; i < 2; i++) {
      assertTrue(far.get(i).latency() > near.get(i).latency(), "one switch further: " + near + " vs " + far);
    }
  }

  @Test
  void shouldGiveTheSameModelTimesWhenTheSameCommandsRunInFreshSystems() {
    List<List<Outcome>> runs = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      ActorTestKit fresh = DeviceRig.kit();
      try {
        runs.add(oneThenEight(rack(fresh, "d-", true, true)));
      } finally {
        fresh.shutdownTestKit();
      }
    }
    assertEquals(runs.get(0), runs.get(1));
  }

  @Test
  void shouldReadBackWhatItWroteWhenRunningFree() {
    Rack r = rack(testKit, "w-", false, false);
    enable(r, -1);
    byte[] data = new byte[4 * DiskBlocks.BLOCK];
    for (int i = 0; i < data.length; i++) {
      data[i] = (byte) (i * 29 + 3);
    }
    r.rc().tell(new MemoryEndpoint.Store(BUFFER, data));
    submit(r, 0, SubmissionEntry.write(1, BUFFER, 500, 4), -1);
    submit(r, 1, SubmissionEntry.read(2, BUFFER + 0x4000, 500, 4), -1);
    assertArrayEquals(data, peek(r, BUFFER + 0x4000, data.length));
    assertEquals(CompletionEntry.Status.SUCCESS, completion(r, 0).status());
    assertEquals(CompletionEntry.Status.SUCCESS, completion(r, 1).status());
    assertEquals(4, stats(r.kit(), r.disk()).blocksWritten());

    // The driver reads STATUS and the counters through the fabric.
    TestProbe<MemoryEndpoint.ReadResult> read = r.kit().createTestProbe();
    r.rc().tell(new MemoryEndpoint.Read(BAR0.base() + DiskRegisters.STATUS, 8, read.ref()));
    MemoryEndpoint.ReadResult status = read.receiveMessage(WAIT);
    assertEquals(CompletionStatus.SUCCESSFUL, status.status());
    ByteBuffer b = ByteBuffer.wrap(status.data()).order(ByteOrder.LITTLE_ENDIAN);
    assertEquals(1, b.getInt(0), "enabled, no error");
    assertEquals(2, b.getInt(4), "two commands completed");
  }

  @Test
  void shouldPostAnErrorCompletionAndStillSignalWhenTheBlocksLieBeyondTheDisk() {
    Rack r = rack(testKit, "e-", false, true);
    enable(r, 5_000);
    long capacity = DiskSettings.create(testKit.system().settings().config()).capacityBlocks();
    submit(r, 0, SubmissionEntry.read(0x33, BUFFER, capacity, 1), awaitIdle(r) + 10_000);
    awaitIdle(r);
    assertEquals(new CompletionEntry(1, 0x33, CompletionEntry.Status.LBA_OUT_OF_RANGE, true), completion(r, 0));
    DiskDevice.DiskStats s = stats(r.kit(), r.disk());
    assertEquals(1, s.failed());
    assertEquals(0, s.completed());
  }

  @Test
  void shouldRefuseADoorbellBeyondTheQueueAndSayItInStatus() {
    Rack r = rack(testKit, "b-", false, true);
    enable(r, 5_000);
    writeRegisters(r, awaitIdle(r) + 10_000,
        List.of(new RegisterWrite(DiskRegisters.SQ_TAIL, Pcie.dword(QUEUE))));
    awaitIdle(r);
    r.msi().expectNoMessage(Duration.ofMillis(100));
    DiskDevice.DiskStats s = stats(r.kit(), r.disk());
    assertEquals(1, s.refused());
    assertEquals(1 | DiskRegisters.Error.BAD_DOORBELL.ordinal() << 8, s.status());
    ByteBuffer image = ByteBuffer.wrap(peek(r, r.endpoint(), BAR0.base() + DiskRegisters.STATUS, 4))
        .order(ByteOrder.LITTLE_ENDIAN);
    assertEquals(s.status(), image.getInt(0), "STATUS in BAR0 as the driver would read it");
  }
}
