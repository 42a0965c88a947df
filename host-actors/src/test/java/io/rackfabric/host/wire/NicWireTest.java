package io.rackfabric.host.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import akka.serialization.Serialization;
import akka.serialization.SerializationExtension;
import akka.serialization.Serializers;
import io.rackfabric.fabric.kryo.KryoSerializer;
import io.rackfabric.fabric.wire.WireRegistrations;
import io.rackfabric.host.nic.EthernetFrame;
import io.rackfabric.host.nic.ExternalReceiver;
import io.rackfabric.host.nic.NicStats;
import io.rackfabric.host.nic.ReceiverReport;
import io.rackfabric.host.nic.SendPlan;
import io.rackfabric.host.nic.SriovNic;
import io.rackfabric.host.nic.StreamSummary;
import io.rackfabric.host.nic.UdpFrames;
import io.rackfabric.host.nic.UdpSender;
import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/** Every host-actors wire class, once through Akka's serialization as it would cross a JVM. */
class NicWireTest {

  static final ActorTestKit testKit = ActorTestKit.create();
  static final Serialization serialization = SerializationExtension.get(testKit.system().classicSystem());

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  static Map<Class<?>, Object> samples(ActorRef<Object> ref) {
    NicStats.VfStats vf = new NicStats.VfStats(1, true, 0xFFF8_0408, 0, 1_000, 0x8_0000_1000L, 64, 3, 4,
        0x8_0000_1400L, 4, 3, 318, 1, 2, 0, 0, 0, 0, 0);
    EthernetFrame frame = new EthernetFrame("nic", 1, UdpFrames.build(1, 9, 100, 64), 130, 5_000, 5_145);
    ReceiverReport.Arrival arrival = new ReceiverReport.Arrival(1, 9, 106, 100, 5_145, 77);
    SendPlan plan = new SendPlan(0, 0x8_E010_0000L, 0x8_0000_0000L, 0x10_0000L, 64, 10, 1_000_000, 64, 0, 1);
    Map<Class<?>, Object> m = new HashMap<>();
    m.put(SriovNic.ConnectWire.class, new SriovNic.ConnectWire(ref.narrow()));
    m.put(SriovNic.GetStats.class, new SriovNic.GetStats(ref.narrow()));
    m.put(SriovNic.ExpectStream.class, new SriovNic.ExpectStream(1, 60_000, 1_000_000, 3000));
    m.put(SriovNic.StreamEnded.class, new SriovNic.StreamEnded(1));
    m.put(NicStats.class, new NicStats("nic", 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, true, 13, List.of(vf)));
    m.put(NicStats.VfStats.class, vf);
    m.put(EthernetFrame.class, frame);
    m.put(ExternalReceiver.DeliverFrame.class, new ExternalReceiver.DeliverFrame(frame));
    m.put(ExternalReceiver.GetReport.class, new ExternalReceiver.GetReport(ref.narrow()));
    m.put(ExternalReceiver.AwaitFrames.class, new ExternalReceiver.AwaitFrames(5, ref.narrow()));
    m.put(ExternalReceiver.FramesReached.class, new ExternalReceiver.FramesReached("rx", 5));
    m.put(ReceiverReport.class, new ReceiverReport("rx", 9, 2, 0, 0, 0, List.of(0, 3)));
    m.put(ExternalReceiver.GetStream.class, new ExternalReceiver.GetStream(3, 40, ref.narrow()));
    StreamSummary.Clock clock = new StreamSummary.Clock(10, 90, 2, new byte[] {1, 2}, 5, new long[] {10, 100},
        new long[] {10, 90}, 2, new long[] {1, 0, 1}, 10);
    m.put(StreamSummary.Clock.class, clock);
    m.put(StreamSummary.class, new StreamSummary(3, 3, 3, 3, 0, 0, clock, clock, 100, 120, new byte[] {3}));
    m.put(ReceiverReport.Arrival.class, arrival);
    m.put(SendPlan.class, plan);
    m.put(UdpSender.Start.class, new UdpSender.Start(plan, ref.narrow()));
    m.put(UdpSender.GetStatus.class, new UdpSender.GetStatus(ref.narrow()));
    m.put(UdpSender.SendDone.class, new UdpSender.SendDone("tx", 10, 10, 0, 1, 2, 3, ""));
    m.put(UdpSender.SenderStatus.class, new UdpSender.SenderStatus("tx", true, 3, 2, 1, 0));
    m.put(UdpSender.FollowRestarts.class, new UdpSender.FollowRestarts(List.of(ref.narrow(), ref.narrow())));
    m.put(io.rackfabric.host.nic.McpMode.class, io.rackfabric.host.nic.McpMode.GM);
    m.put(io.rackfabric.host.nic.FaultCategory.class, io.rackfabric.host.nic.FaultCategory.MCP_RESTART);
    m.put(io.rackfabric.host.nic.FaultPoint.class, io.rackfabric.host.nic.FaultPoint.TOKEN_TAKEN);
    io.rackfabric.host.ftgm.RecoveryEvent event = new io.rackfabric.host.ftgm.RecoveryEvent(5, "nic", "interrupt", -1, "");
    m.put(io.rackfabric.host.ftgm.NicFaultDaemon.OpenVf.class,
        new io.rackfabric.host.ftgm.NicFaultDaemon.OpenVf(1, 0xFFF8_0408, 0, ref.narrow()));
    m.put(io.rackfabric.host.ftgm.NicFaultDaemon.UseCard.class,
        new io.rackfabric.host.ftgm.NicFaultDaemon.UseCard(ref.narrow()));
    m.put(io.rackfabric.host.ftgm.NicFaultDaemon.SetMode.class,
        new io.rackfabric.host.ftgm.NicFaultDaemon.SetMode(io.rackfabric.host.nic.McpMode.GM));
    m.put(io.rackfabric.host.ftgm.NicFaultDaemon.UseController.class,
        new io.rackfabric.host.ftgm.NicFaultDaemon.UseController(ref.narrow()));
    m.put(io.rackfabric.host.ftgm.NicFaultDaemon.GetRecoveries.class,
        new io.rackfabric.host.ftgm.NicFaultDaemon.GetRecoveries(ref.narrow()));
    m.put(io.rackfabric.host.ftgm.NicFaultDaemon.NicRecoveries.class,
        new io.rackfabric.host.ftgm.NicFaultDaemon.NicRecoveries("nic", io.rackfabric.host.nic.McpMode.FTGM,
            List.of(event, event), List.of(new io.rackfabric.host.ftgm.RecoveryBreakdown("nic",
                io.rackfabric.host.nic.McpMode.FTGM, 2, 1, 2, 3, List.of(4L, 5L), 1, 1, List.of(1L, 1L), 4)), false));
    m.put(SriovNic.HangFirmware.class, new SriovNic.HangFirmware(5_000_000));
    m.put(SriovNic.SetInterrupt.class, new SriovNic.SetInterrupt(0xFEE0_0000L, 1));
    m.put(SriovNic.ResetCard.class, new SriovNic.ResetCard(7));
    m.put(SriovNic.ReloadFirmware.class, new SriovNic.ReloadFirmware(8));
    SriovNic.VfEntry entry = new SriovNic.VfEntry(1, 0xFFF8_0408, 0);
    m.put(SriovNic.VfEntry.class, entry);
    m.put(SriovNic.RestoreVfs.class, new SriovNic.RestoreVfs(List.of(entry, entry), 9));
    io.rackfabric.fabric.endpoint.GuestAddress daemon = new io.rackfabric.fabric.endpoint.GuestAddress("mh",
        ref.narrow(), ref.narrow());
    m.put(SriovNic.CheckMagicWord.class, new SriovNic.CheckMagicWord(10, 11, daemon));
    m.put(SriovNic.GetGuestAddress.class, new SriovNic.GetGuestAddress(ref.narrow()));
    m.put(UdpSender.GetGuestAddress.class, new UdpSender.GetGuestAddress(ref.narrow()));
    m.put(SriovNic.MagicWord.class, new SriovNic.MagicWord(false, 11, 4));
    m.put(SriovNic.GetFtgmState.class, new SriovNic.GetFtgmState(ref.narrow()));
    m.put(SriovNic.FtgmState.class, new SriovNic.FtgmState(true, false, -1, 3, 2_370_000, 3_180_000, 0, -1, 0, 0, 0));
    m.put(UdpSender.FaultDetected.class, new UdpSender.FaultDetected(12, io.rackfabric.host.nic.McpMode.FTGM,
        900_000_000, 250, daemon));
    m.put(UdpSender.PortReopened.class, new UdpSender.PortReopened("tx", 1, 12, 900_000_262, 1, 0));
    m.put(io.rackfabric.host.device.gpu.GpuDevice.GetStats.class,
        new io.rackfabric.host.device.gpu.GpuDevice.GetStats(ref.narrow()));
    m.put(io.rackfabric.host.device.gpu.GpuDevice.GpuStats.class,
        new io.rackfabric.host.device.gpu.GpuDevice.GpuStats("gpu", 2, 1, 3, 160, 0x0702, 65_536));
    m.put(io.rackfabric.host.device.disk.DiskDevice.GetStats.class,
        new io.rackfabric.host.device.disk.DiskDevice.GetStats(ref.narrow()));
    m.put(io.rackfabric.host.device.disk.DiskDevice.DiskStats.class,
        new io.rackfabric.host.device.disk.DiskDevice.DiskStats("disk", 7, 1, 2, 0, 40, 0x0801, 16));
    return m;
  }

  @TestFactory
  Stream<DynamicTest> shouldRoundTripEveryHostClassWhenSerializedThroughAkka() {
    TestProbe<Object> probe = testKit.createTestProbe();
    Map<Class<?>, Object> samples = samples(probe.ref());
    return new HostWireRegistrations().registrations().stream().filter(e -> e.type().getName().startsWith("io.rackfabric.host.nic.")
        || e.type().getName().startsWith("io.rackfabric.host.ftgm.NicFaultDaemon")
        || e.type().getName().startsWith("io.rackfabric.host.device.")).map(e -> DynamicTest.dynamicTest(
        e.id() + " " + e.type().getName(), () -> {
          Object sample = samples.get(e.type());
          assertNotNull(sample, "no sample for " + e.type().getName() + ": add one here");
          akka.serialization.Serializer chosen = serialization.findSerializerFor(sample);
          assertEquals(KryoSerializer.IDENTIFIER, chosen.identifier(), e.type().getName());
          byte[] bytes = serialization.serialize(sample).get();
          Object copy = serialization.deserialize(bytes, chosen.identifier(), Serializers.manifestFor(chosen, sample))
              .get();
          assertTrue(deepEquals(sample, copy), "sent " + sample + ", received " + copy);
        }));
  }

  @Test
  void shouldBeFoundThroughTheServiceLoaderWhenOnTheClasspath() {
    assertTrue(ServiceLoader.load(WireRegistrations.class).stream()
        .anyMatch(p -> p.type() == HostWireRegistrations.class));
  }

  /** Records compare byte[] fields by identity; compare by content, recursively. */
  static boolean deepEquals(Object a, Object b) {
    if (a == null || b == null || a.getClass() != b.getClass()) {
      return a == b;
    }
    if (a instanceof byte[] x) {
      return Arrays.equals(x, (byte[]) b);
    }
    if (a instanceof long[] x) {
      return Arrays.equals(x, (long[]) b);
    }
    if (a instanceof List<?> x) {
      List<?> y = (List<?>) b;
      if (x.size() != y.size()) {
        return false;
      }
      for (int i = 0; i < x.size(); i++) {
        if (!deepEquals(x.get(i), y.get(i))) {
          return false;
        }
      }
      return true;
    }
    if (a.getClass().isRecord()) {
      try {
        for (RecordComponent c : a.getClass().getRecordComponents()) {
          if (!deepEquals(c.getAccessor().invoke(a), c.getAccessor().invoke(b))) {
            return false;
          }
        }
        return true;
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException(e);
      }
    }
    return a.equals(b);
  }
}
