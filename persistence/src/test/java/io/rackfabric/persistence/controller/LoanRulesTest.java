package io.rackfabric.persistence.controller;

import static io.rackfabric.persistence.controller.SampleRack.GIB;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.persistence.controller.Controller.BorrowDevice;
import io.rackfabric.persistence.controller.Controller.MapDmaBuffer;
import io.rackfabric.persistence.controller.Controller.MoveLoanWindow;
import io.rackfabric.persistence.controller.Controller.OfferDevice;
import io.rackfabric.persistence.controller.Controller.Operation;
import io.rackfabric.persistence.controller.Controller.RemoveHost;
import io.rackfabric.persistence.controller.Controller.ReturnDevice;
import io.rackfabric.persistence.controller.Controller.UnmapDmaBuffer;
import io.rackfabric.persistence.controller.Controller.WithdrawOffer;
import io.rackfabric.persistence.controller.ControllerEvent.DeviceLent;
import io.rackfabric.persistence.controller.ControllerEvent.DmaBufferMapped;
import io.rackfabric.persistence.controller.ControllerEvent.LoanWindowMoved;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LoanRulesTest {

  private static final long WINDOW = 0x60_0000_0000L;
  private static final List<BarRecord> BARS = List.of(new BarRecord(0, 0x2000_0000L, 16 << 10, false));

  /** ch1 (memory [32, 64) GiB) and ch2 known; ch2 offers gpu0. */
  static ControllerState offered() {
    return accept(SampleRack.expected(new ArrayList<>()),
        new OfferDevice("gpu0", "ch2", LendableKind.GPU, BARS, 20_000, null));
  }

  static ControllerState accept(ControllerState s, Operation op) {
    Decision d = ControllerRules.decide(s, op);
    assertTrue(d.accepted(), () -> "rejected: " + d.error());
    for (ControllerEvent e : d.events()) {
      s = s.apply(e);
    }
    return s;
  }

  private static void assertRejected(ControllerState s, Operation op, String... mustName) {
    Decision d = ControllerRules.decide(s, op);
    assertFalse(d.accepted(), "accepted: " + d.events());
    for (String name : mustName) {
      assertTrue(d.error().contains(name), "error '" + d.error() + "' does not name " + name);
    }
  }

  private static BorrowDevice borrow(String host, String vm) {
    return new BorrowDevice("gpu0", host, vm, WINDOW, 64 * 1024, 32 * GIB, 21_000, null);
  }

  @Test
  void shouldLendToOneBorrowerAtATimeAndAgainOnceReturned() {
    ControllerState lent = accept(offered(), borrow("ch1", null));
    assertEquals(new LoanRecord("gpu0", "ch2", "ch1", null, WINDOW, 64 * 1024, 32 * GIB, 21_000),
        lent.loan("gpu0").orElseThrow());
    assertRejected(lent, borrow("ch1", null), "device=gpu0 is already lent to host=ch1", "since at=21000ns");
    ControllerState returned = accept(lent, new ReturnDevice("gpu0", "ch1", 22_000, null));
    assertTrue(returned.loan("gpu0").isEmpty());
    assertTrue(returned.offer("gpu0").isPresent(), "a returned device stays offered");
    Decision again = ControllerRules.decide(returned, borrow("ch1", "vm-7"));
    assertEquals(List.of(new DeviceLent("gpu0", "ch1", "vm-7", WINDOW, 64 * 1024, 32 * GIB, 22_000)),
        again.events());
  }

  @Test
  void shouldRejectBadOffersNamingTheValue() {
    ControllerState rack = SampleRack.expected(new ArrayList<>());
    assertRejected(rack, new OfferDevice("gpu0", "ch9", LendableKind.GPU, BARS, 0, null), "host=ch9 is unknown");
    assertRejected(rack, new OfferDevice(" ", "ch2", LendableKind.GPU, BARS, 0, null), "is blank");
    assertRejected(rack, new OfferDevice("gpu0", "ch2", null, BARS, 0, null), "kind of device=gpu0");
    assertRejected(rack, new OfferDevice("gpu0", "ch2", LendableKind.GPU, List.of(), 0, null), "has no BAR");
    assertRejected(rack, new OfferDevice("gpu0", "ch2", LendableKind.GPU,
        List.of(new BarRecord(0, 0x1000, 3000, false)), 0, null), "size=3000");
    assertRejected(offered(), new OfferDevice("gpu0", "ch1", LendableKind.DISK, BARS, 0, null),
        "device=gpu0 is already offered by host=ch2");
  }

  @Test
  void shouldRejectMissingNamesRatherThanFailWhenAnOperationCarriesNone() {
    ControllerState s = accept(offered(), borrow("ch1", null));
    assertRejected(s, new OfferDevice(null, "ch2", LendableKind.GPU, BARS, 0, null), "device=null is blank");
    assertRejected(s, new WithdrawOffer("gpu0", null, 0, null), "lender=null is blank");
    assertRejected(s, new BorrowDevice(null, "ch1", null, WINDOW, 65536, 0, 0, null), "device=null is blank");
    assertRejected(s, new ReturnDevice("gpu0", null, 0, null), "borrower=null is blank");
    assertRejected(s, new MapDmaBuffer(null, "ch1", 40 * GIB, 4096, 0, null), "device=null is blank");
    assertRejected(s, new UnmapDmaBuffer("gpu0", " ", WINDOW, 0, null), "borrower=  is blank");
  }

  @Test
  void shouldFoldALoanOfADeviceNeverOfferedWithoutFailing() {
    ControllerState s = SampleRack.expected(new ArrayList<>())
        .apply(new DeviceLent("gpu9", "ch1", null, WINDOW, 65536, 0, 1));
    assertEquals(null, s.loan("gpu9").orElseThrow().lender());
    assertTrue(s.apply(new ControllerEvent.HostRemoved("ch1", 2)).loan("gpu9").isEmpty());
  }

  @Test
  void shouldRejectBadBorrowsNamingTheValue() {
    ControllerState s = offered();
    assertRejected(SampleRack.expected(new ArrayList<>()), borrow("ch1", null), "device=gpu0 is not offered");
    assertRejected(s, borrow("ch9", null), "host=ch9 is unknown");
    assertRejected(s, borrow("ch2", null), "host=ch2 lends device=gpu0 itself");
    assertRejected(s, borrow("ch1", "vm; rm -rf"), "vm=vm; rm -rf");
    assertRejected(s, new BorrowDevice("gpu0", "ch1", null, WINDOW, 3 * 4096, 0, 0, null), "windowSize=12288");
    assertRejected(s, new BorrowDevice("gpu0", "ch1", null, WINDOW + 4096, 64 * 1024, 0, 0, null),
        "windowBase=0x6000001000");
    assertRejected(s, new BorrowDevice("gpu0", "ch1", null, WINDOW, 64 * 1024, 100, 0, null), "windowTarget=0x64");
  }

  @Test
  void shouldRefuseReturnsAndUnmapsOfWhatIsNotBorrowed() {
    ControllerState s = offered();
    assertRejected(s, new ReturnDevice("gpu0", "ch1", 0, null), "device=gpu0 is not borrowed");
    assertRejected(s, new ReturnDevice("gpu9", "ch1", 0, null), "device=gpu9 is not borrowed (nor offered)");
    ControllerState lent = accept(s, borrow("ch1", null));
    assertRejected(lent, new ReturnDevice("gpu0", "ch2", 0, null), "lent to host=ch1, not to host=ch2");
    assertRejected(lent, new WithdrawOffer("gpu0", "ch2", 0, null), "is lent to host=ch1");
    assertRejected(lent, new WithdrawOffer("gpu0", "ch1", 0, null), "not offered by host=ch1");
    assertRejected(lent, new UnmapDmaBuffer("gpu0", "ch1", WINDOW, 0, null), "deviceAddress=0x6000000000",
        "double unmap");
    ControllerState withdrawn = accept(accept(lent, new ReturnDevice("gpu0", "ch1", 0, null)),
        new WithdrawOffer("gpu0", "ch2", 0, null));
    assertTrue(withdrawn.offer("gpu0").isEmpty());
  }

  @Test
  void shouldMapEachBufferAtTheLowestFreeOffsetAndRefuseWhatDoesNotFit() {
    ControllerState s = accept(offered(), borrow("ch1", null));
    s = accept(s, new MapDmaBuffer("gpu0", "ch1", 40 * GIB, 16 * 1024, 0, null));
    s = accept(s, new MapDmaBuffer("gpu0", "ch1", 41 * GIB, 8 * 1024, 0, null));
    s = accept(s, new UnmapDmaBuffer("gpu0", "ch1", WINDOW, 0, null));
    // The freed 16 KiB at offset 0 takes an 8 KiB buffer; 40 KiB left at the end take no 48 KiB one.
    Decision d = ControllerRules.decide(s, new MapDmaBuffer("gpu0", "ch1", 42 * GIB, 8 * 1024, 0, null));
    assertEquals(List.of(new DmaBufferMapped("gpu0", 0, 42 * GIB, 8 * 1024, 21_000)), d.events());
    assertRejected(s, new MapDmaBuffer("gpu0", "ch1", 42 * GIB, 48 * 1024, 0, null),
        "window of device=gpu0 (65536 bytes) has no room for size=49152", "8192 bytes mapped");
    assertRejected(s, new MapDmaBuffer("gpu0", "ch1", 2 * GIB, 4096, 0, null), "outside host=ch1 memory");
    assertRejected(s, new MapDmaBuffer("gpu0", "ch1", 64 * GIB - 4096, 8192, 0, null), "outside host=ch1 memory");
    assertRejected(s, new MapDmaBuffer("gpu0", "ch1", 40 * GIB + 1, 4096, 0, null), "bufferAddress=");
    assertRejected(s, new MapDmaBuffer("gpu0", "ch1", 40 * GIB, 100, 0, null), "size=100");
    assertRejected(s, new MapDmaBuffer("gpu0", "ch2", 40 * GIB, 4096, 0, null), "not to host=ch2");
  }

  @Test
  void shouldMapAVmBuffersGuestPhysicalAddress() {
    ControllerState s = accept(offered(), borrow("ch1", "vm1"));
    // Guest-physical 0x1000 lies outside the host's own range: the VM's address space bounds it.
    Decision d = ControllerRules.decide(s, new MapDmaBuffer("gpu0", "ch1", 0x1000, 4096, 0, null));
    assertTrue(d.accepted(), d.error());
  }

  @Test
  void shouldEndLoansAndOffersWhenTheirHostLeaves() {
    ControllerState lent = accept(accept(offered(), borrow("ch1", null)),
        new MapDmaBuffer("gpu0", "ch1", 40 * GIB, 4096, 0, null));
    ControllerState borrowerGone = accept(lent, new RemoveHost("ch1", 0, null));
    assertTrue(borrowerGone.loan("gpu0").isEmpty());
    assertTrue(borrowerGone.dmaMappings("gpu0").isEmpty());
    assertTrue(borrowerGone.offer("gpu0").isPresent());
    ControllerState lenderGone = accept(lent, new RemoveHost("ch2", 0, null));
    assertTrue(lenderGone.loan("gpu0").isEmpty());
    assertTrue(lenderGone.offer("gpu0").isEmpty());
    assertTrue(lenderGone.dmaMappings("gpu0").isEmpty());
  }

  @Test
  void shouldKeepLoansThroughTheSnapshot() {
    ControllerState s = SampleRack.expectedWithLoans(new ArrayList<>());
    assertTrue(s.loan("gpu0").isPresent());
    assertEquals(1, s.dmaMappings("gpu0").size());
    assertEquals(s, ControllerState.fromSnapshot(s.toSnapshot()));
  }

  @Test
  void shouldFindTheFirstGapThatFits() {
    List<DmaMapping> m = List.of(new DmaMapping("d", 4096, 0, 4096), new DmaMapping("d", 16384, 0, 4096));
    assertEquals(0, LoanRules.firstFit(m, 32768, 4096));
    assertEquals(8192, LoanRules.firstFit(m, 32768, 8192));
    assertEquals(20480, LoanRules.firstFit(m, 32768, 12288));
    assertEquals(-1, LoanRules.firstFit(m, 32768, 16384));
  }

  @Test
  void shouldMoveALoansWindowKeepingItsMappingsWhenItsBorrowerFailsOver() {
    long moved = 0x1060_0000_0000L;
    ControllerState s = accept(accept(offered(), borrow("ch1", null)),
        new MapDmaBuffer("gpu0", "ch1", 40 * GIB, 16 * 1024, 0, null));
    Decision d = ControllerRules.decide(s, new MoveLoanWindow("gpu0", "ch1", moved, 64 * 1024, 32 * GIB, 0, null));
    assertEquals(List.of(new LoanWindowMoved("gpu0", "ch1", moved, 64 * 1024, 32 * GIB, 21_000)), d.events());
    ControllerState after = s.apply(d.events().get(0));
    LoanRecord loan = after.loan("gpu0").orElseThrow();
    assertEquals(moved, loan.windowBase());
    assertEquals(s.loan("gpu0").orElseThrow().lentAt(), loan.lentAt());
    assertEquals(s.dmaMappings("gpu0"), after.dmaMappings("gpu0"));
    // The buffer mapped at offset 0 is now reached at the new window's base.
    ControllerState unmapped = accept(after, new UnmapDmaBuffer("gpu0", "ch1", moved, 0, null));
    assertTrue(unmapped.dmaMappings("gpu0").isEmpty());
  }

  @Test
  void shouldRefuseAWindowMoveThatIsNotTheBorrowersOrDoesNotHoldItsBuffers() {
    long moved = 0x1060_0000_0000L;
    ControllerState s = accept(accept(offered(), borrow("ch1", null)),
        new MapDmaBuffer("gpu0", "ch1", 40 * GIB, 16 * 1024, 0, null));
    assertRejected(s, new MoveLoanWindow("gpu0", "ch2", moved, 64 * 1024, 32 * GIB, 0, null),
        "lent to host=ch1, not to host=ch2");
    assertRejected(offered(), new MoveLoanWindow("gpu0", "ch1", moved, 64 * 1024, 32 * GIB, 0, null),
        "device=gpu0 is not borrowed");
    assertRejected(s, new MoveLoanWindow("gpu0", "ch1", WINDOW, 64 * 1024, 32 * GIB, 0, null), "already at");
    assertRejected(s, new MoveLoanWindow("gpu0", "ch1", moved, 8 * 1024, 32 * GIB, 0, null),
        "windowSize=8192 is smaller than the 16384 bytes");
    assertRejected(s, new MoveLoanWindow("gpu0", "ch1", moved, 64 * 1024, 33 * GIB, 0, null),
        "windowTarget=0x840000000 differs");
    assertRejected(s, new MoveLoanWindow("gpu0", "ch1", moved + 4096, 64 * 1024, 32 * GIB, 0, null),
        "is not aligned to windowSize=65536");
    assertRejected(s, new MoveLoanWindow("gpu0", null, moved, 64 * 1024, 32 * GIB, 0, null), "borrower=null is blank");
  }
}
