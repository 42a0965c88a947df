package io.rackfabric.host.device.gpu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import com.typesafe.config.ConfigFactory;
import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.endpoint.EndpointEvent;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.host.device.DeviceRig;
import io.rackfabric.host.vm.InterruptForwarder;
import io.rackfabric.host.vm.VmSettings;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * The lender-side interrupt handler of a VM borrower (host-actors {@link InterruptForwarder}) on
 * {@link GpuDeviceTest}'s small rack: the GPU's MSI lands in the root's RAM, the forwarder on the
 * root writes it on to the memory endpoint beside the GPU, which stands in for the borrower.
 */
class InterruptForwarderTest {

  static final ActorTestKit testKit = DeviceRig.kit();

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  /** The model time from the MSI landing at the root to the forwarded write landing at the peer. */
  static long forwardedAfter(String prefix, long delayNs) {
    GpuDeviceTest.Rack r = GpuDeviceTest.rack(testKit, prefix, true);
    ActorRef<InterruptForwarder.Command> forwarder = testKit.spawn(InterruptForwarder.create("rc", r.rc()));
    TestProbe<InterruptForwarder.Forwarded> started = testKit.createTestProbe();
    long to = GpuDeviceTest.PEER_BAR.base() + 0x40;
    forwarder.tell(new InterruptForwarder.Start(GpuDeviceTest.MSI, to, delayNs, started.ref()));
    assertEquals(0, started.receiveMessage(DeviceRig.WAIT).count());
    TestProbe<EndpointEvent> atPeer = testKit.createTestProbe();
    r.peer().tell(new MemoryEndpoint.Watch(AddressRange.ofSize(to, 4), atPeer.ref()));

    GpuDeviceTest.program(r, 10_000, GpuDeviceTest.SOURCE, GpuDeviceTest.BAR1.base(), 64, 0x5A);
    long msiAt = GpuDeviceTest.awaitMsi(r, 0x5A);
    EndpointEvent.MemoryWritten w = assertInstanceOf(EndpointEvent.MemoryWritten.class,
        atPeer.receiveMessage(DeviceRig.WAIT));
    assertArrayEquals(GpuRegisters.dword(0x5A), w.data(), "the MSI's data, forwarded");
    GpuDeviceTest.awaitIdle(r);
    forwarder.tell(new InterruptForwarder.GetForwarded(started.ref()));
    assertEquals(1, started.receiveMessage(DeviceRig.WAIT).count());
    return w.arrivedAt() - msiAt;
  }

  @Test
  void shouldForwardTheMsiLaterByExactlyTheDelayWhenUnderTheKernel() {
    long soon = forwardedAfter("if1-", 1_000);
    long later = forwardedAfter("if2-", 4_000);
    assertEquals(3_000, later - soon, "the handler's wait, then the same write through the switch");
    assertTrue(soon > 1_000, "the write still crosses the switch: " + soon);
  }

  @Test
  void shouldAddBothPlaceholdersWhenReadFromTheSettings() {
    VmSettings s = VmSettings.create(ConfigFactory.parseString(
        "rackfabric.host.vm { lender-handler-latency = 3us, guest-injection-latency = 500ns }"));
    assertEquals(3_500, s.forwardDelayNs());
    assertEquals(4_000, VmSettings.create(ConfigFactory.load()).forwardDelayNs(), "the defaults, 2us each");
  }

  @Test
  void shouldNameTheSettingWhenALatencyIsNegative() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new VmSettings(-1, 0));
    assertEquals("rackfabric.host.vm: lender-handler-latency=-1ns is negative", e.getMessage());
  }
}
