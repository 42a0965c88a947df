package io.rackfabric.host.device.gpu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.endpoint.EndpointEvent;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.host.device.DeviceRig;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * The GPU's ping-pong through its actor on {@link GpuDeviceTest}'s small rack, under the kernel:
 * started by {@link GpuDevice.Program} at a held model time, a pong that polls a word of host RAM.
 */
class GpuPingPongDeviceTest {

  static final ActorTestKit testKit = DeviceRig.kit();
  static final long WORD_IN = 0x2_0000;
  static final long WORD_OUT = 0x2_0040;

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  static List<GpuDevice.RegisterWrite> pong(int mode, int count) {
    byte[] all = ByteBuffer.allocate(GpuRegisters.PP_DOORBELL + 4 - GpuRegisters.PP_MODE)
        .order(ByteOrder.LITTLE_ENDIAN).putInt(mode).putInt(count).putLong(WORD_OUT).putLong(WORD_IN).putInt(1).array();
    return List.of(new GpuDevice.RegisterWrite(GpuRegisters.PP_MODE, all));
  }

  @Test
  void shouldPollHostRamUntilTheCounterRisesAndWriteItBackWhenPonging() {
    GpuDeviceTest.Rack r = GpuDeviceTest.rack(testKit, "pp-", true);
    TestProbe<EndpointEvent> out = testKit.createTestProbe();
    r.rc().tell(new MemoryEndpoint.Watch(new AddressRange(WORD_OUT, WORD_OUT + 3), out.ref()));
    TestProbe<GpuDevice.PingPongReport> done = testKit.createTestProbe();
    DeviceRig.at(testKit, r.keeper(), r.gpu(), 1_000, at -> {
      r.device().tell(new GpuDevice.Program(at, pong(2, 1), done.ref()));
      GpuDeviceTest.stats(testKit, r.device()); // the Program's wake is at the endpoint before the confirm
    });
    // The host's CPU stores the counter at 20 us; the polls before it read 0.
    DeviceRig.at(testKit, r.keeper(), r.rc(), 20_000, at -> r.rc().tell(new MemoryEndpoint.Store(WORD_IN,
        GpuRegisters.dword(1))));

    EndpointEvent.MemoryWritten back = (EndpointEvent.MemoryWritten) out.receiveMessage(DeviceRig.WAIT);
    GpuDevice.PingPongReport report = done.receiveMessage(DeviceRig.WAIT);
    DeviceRig.awaitIdle(testKit, r.keeper());

    assertArrayEquals(GpuRegisters.dword(1), back.data());
    assertTrue(back.arrivedAt() > 20_000, "written back after the store: " + back.arrivedAt());
    assertEquals(PingPongKernel.State.DONE, report.state(), report.toString());
    assertEquals(1, report.rounds());
    assertTrue(report.reads() > 2, "polled before and after the store: " + report);
    assertTrue(report.endedAt() > 20_000 && report.endedAt() < back.arrivedAt(), report.toString());
    TestProbe<byte[]> status = testKit.createTestProbe();
    r.gpu().tell(new MemoryEndpoint.Peek(GpuDeviceTest.BAR0.base() + GpuRegisters.PP_STATUS, 8, status.ref()));
    ByteBuffer s = ByteBuffer.wrap(status.receiveMessage(DeviceRig.WAIT)).order(ByteOrder.LITTLE_ENDIAN);
    assertEquals(PingPongKernel.State.DONE.ordinal(), s.getInt(0), "PP_STATUS");
    assertEquals(1, s.getInt(4), "PP_ROUNDS");
  }

  @Test
  void shouldReportARefusalAtOnceAndSayItInStatusWhenTheModeIsBad() {
    GpuDeviceTest.Rack r = GpuDeviceTest.rack(testKit, "ppbad-", true);
    TestProbe<GpuDevice.PingPongReport> done = testKit.createTestProbe();
    DeviceRig.at(testKit, r.keeper(), r.gpu(), 1_000, at -> {
      r.device().tell(new GpuDevice.Program(at, pong(3, 1), done.ref()));
      GpuDeviceTest.stats(testKit, r.device());
    });

    GpuDevice.PingPongReport report = done.receiveMessage(DeviceRig.WAIT);
    assertEquals(PingPongKernel.State.ERROR, report.state());
    assertTrue(report.error().contains("BAD_PING_PONG"), report.error());
    DeviceRig.awaitIdle(testKit, r.keeper());
    assertEquals(GpuRegisters.Error.BAD_PING_PONG.ordinal(), GpuDeviceTest.stats(testKit, r.device()).status() >> 8);
  }
}
