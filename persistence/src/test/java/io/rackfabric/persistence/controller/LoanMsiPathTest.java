package io.rackfabric.persistence.controller;

import static io.rackfabric.persistence.controller.LoanRulesTest.accept;
import static io.rackfabric.persistence.controller.LoanRulesTest.offered;
import static io.rackfabric.persistence.controller.SampleRack.GIB;
import static io.rackfabric.persistence.controller.SampleRack.MSI_WORD;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.persistence.controller.Controller.BorrowDevice;
import io.rackfabric.persistence.controller.Controller.MoveLoanWindow;
import io.rackfabric.persistence.controller.Controller.Operation;
import io.rackfabric.persistence.controller.Controller.RemoveHost;
import io.rackfabric.persistence.controller.Controller.ReturnDevice;
import io.rackfabric.persistence.controller.ControllerEvent.DeviceLent;
import io.rackfabric.persistence.controller.ControllerEvent.DeviceReturned;
import io.rackfabric.persistence.controller.ControllerEvent.MsiPathClosed;
import io.rackfabric.persistence.controller.ControllerEvent.MsiPathOpened;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A loan's MSI path in the controller: set up with the borrow, torn down with the return ({@link LoanRules}). */
class LoanMsiPathTest {

  /** As in {@link LoanRulesTest}: ch2 offers gpu0 ({@link LoanRulesTest#offered()}), ch1 borrows it here. */
  private static final long WINDOW = 0x60_0000_0000L;
  private static final long REACH = 64 * 1024;

  private static String rejection(ControllerState s, Operation op) {
    Decision d = ControllerRules.decide(s, op);
    assertFalse(d.accepted(), "accepted: " + d.events());
    return d.error();
  }

  /** ch1 borrows gpu0 with a 64 KiB window reaching its 32 GiB, its MSI word at {@code msi}. */
  private static BorrowDevice borrow(String vm, long msi) {
    return new BorrowDevice("gpu0", "ch1", vm, WINDOW, REACH, 32 * GIB, msi, 21_000, null);
  }

  @Test
  void shouldOpenTheMsiPathWithTheBorrowAndCloseItWithTheReturn() {
    Decision lend = ControllerRules.decide(offered(), borrow(null, 32 * GIB + 0x8000));
    assertEquals(List.of(new DeviceLent("gpu0", "ch1", null, WINDOW, REACH, 32 * GIB, 21_000),
        new MsiPathOpened("gpu0", "ch1", 32 * GIB + 0x8000, 21_000)), lend.events());
    ControllerState lent = accept(offered(), borrow(null, 32 * GIB + 0x8000));
    assertEquals(new MsiPath("gpu0", "ch1", 32 * GIB + 0x8000), lent.msiPath("gpu0").orElseThrow());

    Decision back = ControllerRules.decide(lent, new ReturnDevice("gpu0", "ch1", 30_000, null));
    assertEquals(List.of(new MsiPathClosed("gpu0", "ch1", 30_000), new DeviceReturned("gpu0", "ch1", 30_000)),
        back.events());
    assertTrue(accept(lent, new ReturnDevice("gpu0", "ch1", 30_000, null)).msiPath("gpu0").isEmpty());
  }

  @Test
  void shouldSetUpNoMsiPathWhenTheBorrowNamesNone() {
    ControllerState lent = accept(offered(), borrow(null, BorrowDevice.NO_MSI));
    assertTrue(lent.msiPath("gpu0").isEmpty());
    assertEquals(List.of(new DeviceReturned("gpu0", "ch1", 30_000)),
        ControllerRules.decide(lent, new ReturnDevice("gpu0", "ch1", 30_000, null)).events());
  }

  @Test
  void shouldRejectAnMsiPathItCannotSetUpNamingTheValue() {
    ControllerState s = offered();
    assertTrue(rejection(s, borrow(null, 32 * GIB + 2)).contains("msiAddress=0x800000002 is not a dword-aligned"));
    assertTrue(rejection(s, borrow(null, -8)).contains("msiAddress=0xfffffffffffffff8 is not a dword-aligned"));
    assertTrue(rejection(s, borrow(null, 64 * GIB)).contains("is outside host=ch1 memory"));
    String beyond = rejection(s, borrow(null, 32 * GIB + REACH));
    assertTrue(beyond.contains("msiAddress=0x800010000 is outside the DMA window's reach [0x800000000,0x800010000)"),
        beyond);
    String vm = rejection(s, borrow("alpha", 32 * GIB));
    assertTrue(vm.contains("vm=alpha takes its device's MSI through its lender's forwarding"), vm);
    assertTrue(s.loan("gpu0").isEmpty());
  }

  @Test
  void shouldDropTheMsiPathWithTheLoanWhenItsBorrowerOrLenderLeaves() {
    ControllerState lent = accept(offered(), borrow(null, 32 * GIB));
    assertTrue(accept(lent, new RemoveHost("ch1", 0, null)).msiPath("gpu0").isEmpty());
    assertTrue(accept(lent, new RemoveHost("ch2", 0, null)).msiPath("gpu0").isEmpty());
  }

  @Test
  void shouldKeepTheMsiPathThroughTheSnapshotAndAcrossAWindowMoveThatStillReachesIt() {
    ControllerState s = accept(accept(SampleRack.expectedWithLoans(new ArrayList<>()),
        new ReturnDevice("gpu0", "ch1", 20_000, null)), SampleRack.lendingWithMsi().get(1).apply(null));
    assertEquals(MSI_WORD, s.msiPath("gpu0").orElseThrow().msiAddress());
    assertEquals(s, ControllerState.fromSnapshot(s.toSnapshot()));
    long moved = 0x1060_0000_0000L;
    String short64k = rejection(s, new MoveLoanWindow("gpu0", "ch1", moved, REACH, 32 * GIB, 0, null));
    assertTrue(short64k.contains("windowSize=65536 does not reach device=gpu0's MSI path at msiAddress=0x800010000"),
        short64k);
    ControllerState after = accept(s, new MoveLoanWindow("gpu0", "ch1", moved, 2 * REACH, 32 * GIB, 0, null));
    assertEquals(s.msiPath("gpu0"), after.msiPath("gpu0"));
  }
}
