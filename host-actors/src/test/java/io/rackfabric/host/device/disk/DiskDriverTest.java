package io.rackfabric.host.device.disk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorRef;
import io.rackfabric.fabric.link.PortMessage;
import io.rackfabric.fabric.time.TimeKeeper;
import io.rackfabric.host.device.DeviceRig;
import io.rackfabric.host.device.disk.DiskReadSequence.DiskReadRecord;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** The driver on {@link DiskDeviceTest}'s small rack: the root's guest, reading from the disk below the switch. */
class DiskDriverTest {

  static final ActorTestKit testKit = DeviceRig.kit();
  static final long QUEUES = 0x4000;
  /** More reads than queue entries: both queues wrap and the CQ's phase flips. */
  static final int READS = DiskReadPlan.ENTRIES + 4;

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  static DiskReadPlan plan(long startAt) {
    long capacity = DiskSettings.create(testKit.system().settings().config()).capacityBlocks();
    return new DiskReadPlan(DiskDeviceTest.BAR0.base(), QUEUES, QUEUES, DiskDeviceTest.BUFFER, DiskDeviceTest.BUFFER,
        DiskDeviceTest.MSI, DiskDeviceTest.MSI, DiskReadPlan.randomReads(42, READS, 8, capacity), startAt);
  }

  static DiskDriver.ReadsDone run(DiskDeviceTest.Rack r, long startAt) {
    ActorRef<DiskDriver.Command> driver = r.kit().spawn(DiskDriver.create("rc", r.rc()));
    TestProbe<DiskDriver.ReadsDone> done = r.kit().createTestProbe();
    if (r.keeper() == null) {
      driver.tell(new DiskDriver.Start(plan(startAt), done.ref()));
      return done.receiveMessage(DeviceRig.WAIT);
    }
    TestProbe<TimeKeeper.Status> held = r.kit().createTestProbe();
    r.keeper().tell(new TimeKeeper.HoldBefore(startAt, held.ref()));
    held.receiveMessage(DeviceRig.WAIT);
    driver.tell(new DiskDriver.Start(plan(startAt), done.ref()));
    TestProbe<DiskDriver.ReadsDone> started = r.kit().createTestProbe();
    driver.tell(new DiskDriver.GetProgress(started.ref()));
    assertEquals(0, started.receiveMessage(DeviceRig.WAIT).reads().size());
    TestProbe<TimeKeeper.Confirmed> confirmed = r.kit().createTestProbe();
    r.rc().<PortMessage>unsafeUpcast().tell(new TimeKeeper.Confirm(confirmed.ref()));
    confirmed.receiveMessage(DeviceRig.WAIT);
    r.keeper().tell(new TimeKeeper.Release());
    DiskDriver.ReadsDone d = done.receiveMessage(DeviceRig.WAIT);
    DiskDeviceTest.awaitIdle(r);
    return d;
  }

  @Test
  void shouldRunEveryReadInTurnAndLeaveTheDiskDisabledWhenUnderTheKernel() {
    DiskDeviceTest.Rack rack = DiskDeviceTest.rack(testKit, "dd-", false, true);
    DiskDriver.ReadsDone d = run(rack, 20_000);
    assertEquals("", d.error());
    List<DiskReadRecord> reads = d.reads();
    assertEquals(READS, reads.size());
    assertEquals(plan(20_000).reads().stream().map(DiskReadPlan.Read::lba).toList(),
        reads.stream().map(DiskReadRecord::lba).toList(), "in the plan's order");
    assertEquals(20_000 + DiskReadPlan.SETTLE_NS, reads.get(0).doorbellAt(), "the first doorbell after the set-up");
    DiskSettings settings = DiskSettings.create(testKit.system().settings().config());
    for (int i = 0; i < READS; i++) {
      DiskReadRecord r = reads.get(i);
      assertEquals(CompletionEntry.Status.SUCCESS, r.status(), r.toString());
      assertTrue(r.dataOk(), "the LBA's block landed in the buffer: " + r);
      assertTrue(r.latencyNs() > settings.readLatencyNs(), r.toString());
      if (i > 0) {
        assertEquals(reads.get(i - 1).msiAt(), r.doorbellAt(), "each read goes at the last one's message");
      }
    }
    assertEquals(1, reads.stream().map(DiskReadRecord::latencyNs).distinct().count(),
        "nothing else on the rack: every read takes as long: " + reads);
    DiskDevice.DiskStats s = DiskDeviceTest.stats(testKit, rack.disk());
    assertEquals(READS, s.completed());
    assertEquals(0, s.failed() + s.refused() + s.fetchFailures(), s.toString());
    assertEquals(0, s.status(), "disabled again, no error: " + s);
  }

  @Test
  void shouldGiveTheSameReadTimesWhenRunTwiceUnderTheKernel() {
    assertEquals(run(DiskDeviceTest.rack(testKit, "d1-", true, true), 10_000).reads(),
        run(DiskDeviceTest.rack(testKit, "d2-", true, true), 10_000).reads());
  }

  @Test
  void shouldRunEveryReadWhenRunningFree() {
    DiskDriver.ReadsDone d = run(DiskDeviceTest.rack(testKit, "df-", false, false), 0);
    assertEquals(READS, d.reads().size());
    assertTrue(d.reads().stream().allMatch(r -> r.msiAt() >= r.doorbellAt() && r.dataOk()), d.toString());
  }
}
