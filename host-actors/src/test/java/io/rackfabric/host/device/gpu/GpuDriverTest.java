package io.rackfabric.host.device.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import io.rackfabric.fabric.link.PortMessage;
import io.rackfabric.fabric.time.TimeKeeper;
import io.rackfabric.host.device.gpu.CopySequence.CopyRecord;
import io.rackfabric.host.device.gpu.CopySequence.LostCopy;
import io.rackfabric.host.device.gpu.CopySequence.SurpriseRemoval;
import io.rackfabric.host.device.gpu.GpuCopyPlan.Copy;
import io.rackfabric.host.device.gpu.GpuCopyPlan.Direction;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** The driver on {@link GpuDeviceTest}'s small rack: the root's guest, programming the GPU below the switch. */
class GpuDriverTest {

  static final ActorTestKit testKit = io.rackfabric.host.device.DeviceRig.kit();
  static final List<Copy> COPIES = List.of(new Copy(4096, Direction.WRITE), new Copy(4096, Direction.READ),
      new Copy(32 * 1024, Direction.WRITE), new Copy(32 * 1024, Direction.READ));

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  static GpuCopyPlan plan(long startAt) {
    return new GpuCopyPlan(GpuDeviceTest.BAR0.base(), GpuDeviceTest.BAR1.base(), GpuDeviceTest.TARGET,
        GpuDeviceTest.TARGET, GpuDeviceTest.MSI, GpuDeviceTest.MSI, COPIES, startAt);
  }

  static GpuDriver.CopiesDone run(GpuDeviceTest.Rack r, long startAt) {
    return run(r, plan(startAt), GpuDriver.create("rc", r.rc()));
  }

  static GpuDriver.CopiesDone run(GpuDeviceTest.Rack r, GpuCopyPlan plan, Behavior<GpuDriver.Command> behavior) {
    long startAt = plan.startAt();
    ActorRef<GpuDriver.Command> driver = r.kit().spawn(behavior);
    TestProbe<GpuDriver.CopiesDone> done = r.kit().createTestProbe();
    if (r.keeper() == null) {
      driver.tell(new GpuDriver.Start(plan, done.ref()));
      return done.receiveMessage(GpuDeviceTest.WAIT);
    }
    TestProbe<TimeKeeper.Status> held = r.kit().createTestProbe();
    r.keeper().tell(new TimeKeeper.HoldBefore(startAt, held.ref()));
    held.receiveMessage(GpuDeviceTest.WAIT);
    driver.tell(new GpuDriver.Start(plan, done.ref()));
    TestProbe<GpuDriver.CopiesDone> started = r.kit().createTestProbe();
    driver.tell(new GpuDriver.GetProgress(started.ref()));
    assertEquals(0, started.receiveMessage(GpuDeviceTest.WAIT).copies().size());
    TestProbe<TimeKeeper.Confirmed> confirmed = r.kit().createTestProbe();
    r.rc().<PortMessage>unsafeUpcast().tell(new TimeKeeper.Confirm(confirmed.ref()));
    confirmed.receiveMessage(GpuDeviceTest.WAIT);
    r.keeper().tell(new TimeKeeper.Release());
    GpuDriver.CopiesDone d = done.receiveMessage(GpuDeviceTest.WAIT);
    GpuDeviceTest.awaitIdle(r);
    return d;
  }

  @Test
  void shouldRunEveryCopyInTurnFromTheStartAtModelTimesWhenUnderTheKernel() {
    GpuDeviceTest.Rack rack = GpuDeviceTest.rack(testKit, "dk-", true);
    GpuDriver.CopiesDone d = run(rack, 20_000);
    assertEquals("", d.error());
    assertEquals(COPIES.size(), d.copies().size());
    assertEquals(20_000, d.copies().get(0).doorbellAt(), "the first doorbell at the plan's start");
    for (int i = 0; i < COPIES.size(); i++) {
      CopyRecord c = d.copies().get(i);
      assertEquals(COPIES.get(i).bytes(), c.bytes());
      assertEquals(COPIES.get(i).direction(), c.direction());
      assertTrue(c.durationNs() > 0, c.toString());
      if (i > 0) {
        assertEquals(d.copies().get(i - 1).msiAt(), c.doorbellAt(), "each copy goes at the last one's MSI");
      }
    }
    assertTrue(d.copies().get(2).durationNs() > d.copies().get(0).durationNs(), "more bytes take longer: " + d);
    assertEquals(COPIES.size(), GpuDeviceTest.stats(testKit, rack.device()).copiesDone());
  }

  @Test
  void shouldGiveTheSameCopyTimesWhenRunTwiceUnderTheKernel() {
    assertEquals(run(GpuDeviceTest.rack(testKit, "d1-", true), 10_000).copies().stream()
            .map(CopyRecord::durationNs).toList(),
        run(GpuDeviceTest.rack(testKit, "d2-", true), 10_000).copies().stream().map(CopyRecord::durationNs).toList());
  }

  @Test
  void shouldRunEveryCopyWhenRunningFree() {
    GpuDriver.CopiesDone d = run(GpuDeviceTest.rack(testKit, "df-", false), 0);
    assertEquals(COPIES.size(), d.copies().size());
    assertTrue(d.copies().stream().allMatch(c -> c.msiAt() >= c.doorbellAt()), d.toString());
  }

  /** Inside the switch's upstream window, claimed by none of its downstream ports: no device answers there. */
  static final long NOWHERE = 0x1200_0000L;

  @Test
  void shouldReportASurpriseRemovalAtTheWatchdogWhenNoGpuAnswers() {
    GpuDeviceTest.Rack rack = GpuDeviceTest.rack(testKit, "dr-", true);
    long watchdog = 50_000;
    GpuCopyPlan nowhere = new GpuCopyPlan(NOWHERE, GpuDeviceTest.BAR1.base(), GpuDeviceTest.TARGET,
        GpuDeviceTest.TARGET, GpuDeviceTest.MSI, GpuDeviceTest.MSI, COPIES, 30_000);
    GpuDriver.CopiesDone d = run(rack, nowhere, GpuDriver.create("rc", rack.rc(), new GpuDriverSettings(watchdog)));

    assertEquals("", d.error());
    assertEquals(List.of(), d.copies(), "no copy completed");
    SurpriseRemoval r = d.removal();
    assertEquals(List.of(new LostCopy(4096, Direction.WRITE, 30_000)), r.lost(), "the first copy was in flight");
    assertEquals(COPIES.size() - 1, r.notStarted());
    assertTrue(r.at() > 30_000 + watchdog, "after the probe's round trip: " + r);
    assertTrue(r.at() < 30_000 + 2 * watchdog, "answered, not timed out: " + r);
    assertTrue(r.reason().contains("UNSUPPORTED_REQUEST"), r.reason());
  }

  @Test
  void shouldFinishWithNoRemovalWhenEveryMsiComesBeforeTheWatchdog() {
    GpuDeviceTest.Rack rack = GpuDeviceTest.rack(testKit, "dw-", true);
    GpuDriver.CopiesDone d = run(rack, plan(10_000), GpuDriver.create("rc", rack.rc(), new GpuDriverSettings(50_000)));
    assertNull(d.removal());
    assertEquals(COPIES.size(), d.copies().size());
  }
}
