package io.rackfabric.host.iommu;

import static io.rackfabric.host.iommu.IommuDecision.ALLOW;
import static io.rackfabric.host.iommu.IommuDecision.DENY;
import static io.rackfabric.host.iommu.Permission.READ;
import static io.rackfabric.host.iommu.Permission.READ_WRITE;
import static io.rackfabric.host.iommu.Permission.WRITE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.tlp.Bdf;
import io.rackfabric.host.iommu.IommuResult.CloseResult;
import io.rackfabric.host.iommu.IommuResult.Closed;
import io.rackfabric.host.iommu.IommuResult.OpenResult;
import io.rackfabric.host.iommu.IommuResult.Opened;
import io.rackfabric.host.iommu.IommuResult.Rejection;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class IommuTableTest {

  private static final long GIB = 1L << 30;
  private static final long PAGE = IommuTable.PAGE_SIZE;

  // Requester IDs as they arrive at host C, after the NTB in front of C proxied them: the NTB's
  // virtual-side endpoint is 01:00 and hands out one function number per requester.
  private static final int MH = Bdf.of(1, 0, 0);
  private static final int A = Bdf.of(1, 0, 1);
  private static final int B = Bdf.of(1, 0, 2);
  private static final int D = Bdf.of(1, 0, 3);

  /** Page P of the issue: somewhere inside C's 4 GiB. */
  private static final long P = 0x1234_5000L;

  private static IommuTable hostC() {
    return new IommuTable("chC", List.of(AddressRange.ofSize(0, 4 * GIB)));
  }

  private static Opened opened(OpenResult r) {
    return assertInstanceOf(Opened.class, r, () -> "expected Opened, got " + r);
  }

  private static Rejection rejected(IommuResult r) {
    return assertInstanceOf(Rejection.class, r, () -> "expected Rejection, got " + r);
  }

  /** Runs {@code change}, which must be rejected, and checks that the table did not change. */
  private static Rejection rejectedUnchanged(IommuTable t, Supplier<IommuResult> change) {
    IommuTable before = t.copy();
    String text = t.toString();
    Rejection r = rejected(change.get());
    assertFalse(r.accepted());
    assertEquals(before, t);
    assertEquals(text, t.toString());
    assertEquals(before.entries(), t.entries());
    return r;
  }

  // ------------------------------------------------------------ the scenario

  @Test
  void shouldAllowOnlyRequesterBWhenPagePIsOpenedToBOnly() {
    IommuTable c = hostC();
    Opened o = opened(c.open(B, P, 1, READ_WRITE));
    assertTrue(o.accepted());
    assertEquals(1, o.newlyOpened());

    assertEquals(ALLOW, c.checkAndCount(B, P, 64, false));
    assertEquals(ALLOW, c.checkAndCount(B, P + PAGE - 4, 4, true)); // last bytes of P
    assertEquals(ALLOW, c.checkAndCount(B, P, (int) PAGE, true)); // the whole page
    for (int other : new int[] {A, D, MH}) {
      String who = Bdf.format(other);
      assertEquals(DENY, c.checkAndCount(other, P, 64, false), who + " read");
      assertEquals(DENY, c.checkAndCount(other, P + 128, 8, true), who + " write");
    }
    for (int other : new int[] {A, D, MH}) {
      assertEquals(1, c.deniedReads(other), Bdf.format(other));
      assertEquals(1, c.deniedWrites(other), Bdf.format(other));
    }
    assertEquals(0, c.deniedReads(B));
    assertEquals(0, c.deniedWrites(B));
    assertEquals(6, c.deniedTotal());
    assertEquals(
        List.of(
            new DenialCount(MH, 1, 1),
            new DenialCount(A, 1, 1),
            new DenialCount(D, 1, 1)),
        c.denials());
  }

  @Test
  void shouldCountReadsAndWritesApartWhenOneRequesterIsDeniedRepeatedly() {
    IommuTable c = hostC();
    c.open(B, P, 1, READ_WRITE);
    for (int k = 0; k < 3; k++) {
      c.checkAndCount(A, P, 4, false);
    }
    c.checkAndCount(A, P, 4, true);
    c.checkAndCount(D, P, 4, true);
    c.checkAndCount(D, P, 4, true);
    assertEquals(3, c.deniedReads(A));
    assertEquals(1, c.deniedWrites(A));
    assertEquals(0, c.deniedReads(D));
    assertEquals(2, c.deniedWrites(D));
    assertEquals(6, c.deniedTotal());
  }

  @Test
  void shouldNotCountWhenAccessIsAllowedOrOnlyChecked() {
    IommuTable c = hostC();
    c.open(B, P, 1, READ_WRITE);
    assertEquals(ALLOW, c.checkAndCount(B, P, 4, true));
    assertEquals(DENY, c.check(A, P, 4, true));
    assertEquals(0, c.deniedTotal());
    assertEquals(List.of(), c.denials());
  }

  @Test
  void shouldDenyEveryoneWhenNothingIsOpen() {
    IommuTable c = hostC();
    assertEquals(DENY, c.checkAndCount(B, P, 4, false));
    assertEquals(DENY, c.checkAndCount(B, P, 4, true));
    assertEquals(1, c.deniedReads(B));
    assertEquals(1, c.deniedWrites(B));
  }

  // ------------------------------------------------------------ permissions and page edges

  @Test
  void shouldDenyWritesWhenPageIsReadOnly() {
    IommuTable c = hostC();
    c.open(B, P, 1, READ);
    assertEquals(ALLOW, c.check(B, P, 8, false));
    assertEquals(DENY, c.checkAndCount(B, P, 8, true));
    assertEquals(1, c.deniedWrites(B));
    assertEquals(0, c.deniedReads(B));
  }

  @Test
  void shouldDenyReadsWhenPageIsWriteOnly() {
    IommuTable c = hostC();
    c.open(B, P, 1, WRITE);
    assertEquals(ALLOW, c.check(B, P, 8, true));
    assertEquals(DENY, c.check(B, P, 8, false));
  }

  @Test
  void shouldDenyAccessWhenItSpansAnOpenAndAClosedPage() {
    IommuTable c = hostC();
    c.open(B, P, 1, READ_WRITE);
    assertEquals(DENY, c.check(B, P + PAGE - 8, 16, false)); // into the page after P
    assertEquals(DENY, c.check(B, P - 8, 16, true)); // from the page before P
    assertEquals(ALLOW, c.check(B, P + PAGE - 8, 8, false)); // up to P's last byte
  }

  @Test
  void shouldDenyAccessWhenItTouchesOnlyTheBytesNextToAnOpenPage() {
    IommuTable c = hostC();
    c.open(B, P, 1, READ_WRITE);
    assertEquals(DENY, c.check(B, P - 1, 1, false));
    assertEquals(DENY, c.check(B, P + PAGE, 1, false));
    assertEquals(ALLOW, c.check(B, P, 1, false));
    assertEquals(ALLOW, c.check(B, P + PAGE - 1, 1, false));
  }

  @Test
  void shouldAllowSpanningAccessWhenEveryPageAllowsItEvenWithDifferentPermissions() {
    IommuTable c = hostC();
    c.open(B, P, 1, READ);
    c.open(B, P + PAGE, 1, READ_WRITE);
    c.open(B, P + 2 * PAGE, 1, READ);
    assertEquals(ALLOW, c.check(B, P + 100, (int) (2 * PAGE), false)); // three pages
    assertEquals(DENY, c.check(B, P + PAGE - 4, 8, true)); // P is read-only
    assertEquals(ALLOW, c.check(B, P + PAGE, (int) PAGE, true));
    assertEquals(DENY, c.check(B, P + 2 * PAGE - 4, 8, true));
  }

  @Test
  void shouldOpenEveryPageWhenPageCountIsMoreThanOne() {
    IommuTable c = hostC();
    Opened o = opened(c.open(B, P, 4, READ_WRITE));
    assertEquals(4, o.newlyOpened());
    assertEquals(4, c.openPages(B));
    assertEquals(ALLOW, c.check(B, P, (int) (4 * PAGE), true));
    assertEquals(DENY, c.check(B, P, (int) (4 * PAGE) + 1, true));
  }

  @Test
  void shouldOpenAWholeLocalSubspaceAsOneRunWhenPageCountCoversIt() {
    IommuTable c = new IommuTable("ch1", List.of(AddressRange.ofSize(0, 32 * GIB)));
    Opened o = opened(c.open(B, 0, 32 * GIB / PAGE, READ_WRITE));
    assertEquals(32 * GIB / PAGE, o.newlyOpened());
    assertEquals(1, c.runs(B).size());
    assertEquals(ALLOW, c.check(B, 32 * GIB - 8, 8, true));
    assertEquals(DENY, c.check(B, 32 * GIB - 8, 9, true));
  }

  @Test
  void shouldKeepRequestersApartWhenTwoHaveDifferentPagesOpen() {
    IommuTable c = hostC();
    c.open(A, P, 1, READ);
    c.open(B, P + PAGE, 1, READ_WRITE);
    assertEquals(ALLOW, c.check(A, P, 4, false));
    assertEquals(DENY, c.check(A, P + PAGE, 4, false));
    assertEquals(DENY, c.check(B, P, 4, false));
    assertEquals(ALLOW, c.check(B, P + PAGE, 4, true));
    assertEquals(Optional.of(READ), c.permissionAt(A, P + 17));
    assertEquals(Optional.empty(), c.permissionAt(A, P + PAGE));
    assertEquals(Optional.empty(), c.permissionAt(D, P));
  }

  @Test
  void shouldDenyAccessWhenItWrapsPastTheTopOfTheAddressSpace() {
    long topPage = -PAGE; // 0xFFFFFFFFFFFFF000
    IommuTable t = new IommuTable("top", List.of(new AddressRange(topPage, -1L)));
    opened(t.open(B, topPage, 1, READ_WRITE));
    assertEquals(ALLOW, t.check(B, -16L, 16, true)); // the last 16 bytes
    assertEquals(DENY, t.check(B, -16L, 17, true)); // one byte past 2^64
    assertEquals("[0xFFFFFFFFFFFFF000..0xFFFFFFFFFFFFFFFF]", t.runs(B).get(0).range().toString());
  }

  @Test
  void shouldThrowWhenAccessLengthIsZeroOrNegative() {
    IommuTable c = hostC();
    c.open(B, P, 1, READ_WRITE);
    IllegalArgumentException zero =
        assertThrows(IllegalArgumentException.class, () -> c.check(B, P, 0, false));
    assertTrue(zero.getMessage().contains("length=0"), zero.getMessage());
    IllegalArgumentException negative =
        assertThrows(IllegalArgumentException.class, () -> c.checkAndCount(B, P, -4, true));
    assertTrue(negative.getMessage().contains("length=-4"), negative.getMessage());
    assertEquals(0, c.deniedTotal());
  }

  @Test
  void shouldThrowWhenCheckedRequesterIsWiderThan16Bits() {
    IommuTable c = hostC();
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> c.check(0x10000, P, 4, false));
    assertTrue(e.getMessage().contains("requester=0x10000"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> c.check(-1, P, 4, false));
  }

  // ------------------------------------------------------------ rejected opens

  @Test
  void shouldRejectOpenWhenPageIsOutsideHostMemory() {
    IommuTable c = hostC();
    c.open(B, P, 1, READ);
    Rejection r = rejectedUnchanged(c, () -> c.open(A, 4 * GIB, 1, READ_WRITE));
    assertEquals("page 0x100000000 is outside host chC's memory [0x0..0xFFFFFFFF]", r.reason());
  }

  @Test
  void shouldRejectWholeOpenWhenOnlyItsLastPageIsOutsideHostMemory() {
    IommuTable c = hostC();
    Rejection r = rejectedUnchanged(c, () -> c.open(B, 4 * GIB - 2 * PAGE, 3, READ_WRITE));
    assertTrue(r.reason().startsWith("page 0x100000000 is outside host chC's memory"), r.reason());
    assertTrue(c.isEmpty());
    assertEquals(DENY, c.check(B, 4 * GIB - PAGE, 4, false));
  }

  @Test
  void shouldRejectOpenWhenAddressIsNotPageAligned() {
    IommuTable c = hostC();
    Rejection r = rejectedUnchanged(c, () -> c.open(B, 0x1001, 1, READ));
    assertEquals("address 0x1001 is not 4 KiB aligned", r.reason());
  }

  @Test
  void shouldRejectOpenWhenPageCountIsNotPositive() {
    IommuTable c = hostC();
    assertEquals("pageCount=0 must be at least 1",
        rejectedUnchanged(c, () -> c.open(B, P, 0, READ)).reason());
    assertTrue(rejectedUnchanged(c, () -> c.open(B, P, -3, READ)).reason().contains("pageCount=-3"));
  }

  @Test
  void shouldRejectOpenWhenRequesterIsNotA16BitId() {
    IommuTable c = hostC();
    assertEquals("requester=0x10000 is not a 16-bit requester ID",
        rejectedUnchanged(c, () -> c.open(0x10000, P, 1, READ)).reason());
    assertTrue(rejectedUnchanged(c, () -> c.open(-1, P, 1, READ)).reason()
        .contains("requester=0xFFFFFFFF"));
  }

  @Test
  void shouldRejectOpenWhenPermissionIsMissing() {
    IommuTable c = hostC();
    assertTrue(rejectedUnchanged(c, () -> c.open(B, P, 1, null)).reason().contains("permission"));
  }

  @Test
  void shouldRejectOpenWhenPagesRunPastTheTopOfTheAddressSpace() {
    IommuTable t = new IommuTable("top", List.of(new AddressRange(-PAGE, -1L)));
    Rejection r = rejectedUnchanged(t, () -> t.open(B, -PAGE, 2, READ));
    assertTrue(r.reason().contains("pageCount=2 from 0xFFFFFFFFFFFFF000"), r.reason());
    assertTrue(r.reason().contains("64-bit"), r.reason());
    Rejection huge = rejectedUnchanged(t, () -> t.open(B, -PAGE, Long.MAX_VALUE, READ));
    assertTrue(huge.reason().contains("pageCount=" + Long.MAX_VALUE), huge.reason());
  }

  @Test
  void shouldOpenOnlyWholePagesWhenMemoryRangesAreNotPageAligned() {
    // Bytes 0x800..0x2FFF: page 0 is only half inside, pages 1 and 2 wholly.
    IommuTable t = new IommuTable("odd", List.of(new AddressRange(0x800, 0x2FFF)));
    Rejection r = rejected(t.open(B, 0, 1, READ));
    assertEquals("page 0x0 is outside host odd's memory [0x800..0x2FFF]", r.reason());
    opened(t.open(B, 0x1000, 2, READ));
    IommuTable u = new IommuTable("odd2", List.of(new AddressRange(0x1000, 0x27FF)));
    assertEquals("page 0x2000 is outside host odd2's memory [0x1000..0x27FF]",
        rejected(u.open(B, 0x1000, 2, READ)).reason());
  }

  @Test
  void shouldMergeMemoryRangesWhenTheyTouchOrOverlap() {
    IommuTable t = new IommuTable("split", List.of(
        new AddressRange(0x10000, 0x1FFFF),
        new AddressRange(0x800, 0xFFF), // given out of order; with the next, covers page 0
        new AddressRange(0x0, 0x7FF),
        new AddressRange(0x18000, 0x2FFFF))); // overlaps the first
    assertEquals(List.of(new AddressRange(0x0, 0xFFF), new AddressRange(0x10000, 0x2FFFF)),
        t.memory());
    opened(t.open(B, 0, 1, READ));
    opened(t.open(B, 0x10000, 0x20, READ));
    Rejection r = rejected(t.open(B, 0x1000, 1, READ));
    assertEquals("page 0x1000 is outside host split's memory [0x0..0xFFF], [0x10000..0x2FFFF]",
        r.reason());
    // A run may not bridge the hole between two ranges either.
    assertTrue(rejected(t.open(B, 0, 0x11, READ)).reason().startsWith("page 0x1000 "));
  }

  @Test
  void shouldRefuseToBeBuiltWhenHostHasNoMemoryOrNoName() {
    assertThrows(IllegalArgumentException.class, () -> new IommuTable("chX", List.of()));
    assertThrows(IllegalArgumentException.class,
        () -> new IommuTable(" ", List.of(AddressRange.ofSize(0, PAGE))));
  }

  // ------------------------------------------------------------ close

  @Test
  void shouldCloseAPageWhenItIsOpen() {
    IommuTable c = hostC();
    c.open(B, P, 1, READ_WRITE);
    CloseResult r = c.close(B, P, 1);
    assertEquals(new Closed(B, P, 1), r);
    assertTrue(r.accepted());
    assertEquals(DENY, c.check(B, P, 4, false));
    assertTrue(c.isEmpty());
    assertEquals(0, c.requesters().length);
    assertEquals(hostC(), c);
  }

  @Test
  void shouldRejectCloseWhenPageWasNeverOpened() {
    IommuTable c = hostC();
    c.open(B, P + PAGE, 1, READ);
    Rejection r = rejectedUnchanged(c, () -> c.close(B, P, 1));
    assertEquals("page 0x12345000 is not open to 01:00.2 at host chC", r.reason());
  }

  @Test
  void shouldRejectCloseWhenPageIsClosedTwice() {
    IommuTable c = hostC();
    c.open(B, P, 1, READ);
    assertInstanceOf(Closed.class, c.close(B, P, 1));
    Rejection r = rejectedUnchanged(c, () -> c.close(B, P, 1));
    assertTrue(r.reason().contains("0x12345000 is not open to 01:00.2"), r.reason());
  }

  @Test
  void shouldRejectCloseWhenPageIsOpenOnlyToAnotherRequester() {
    IommuTable c = hostC();
    c.open(B, P, 1, READ_WRITE);
    Rejection r = rejectedUnchanged(c, () -> c.close(A, P, 1));
    assertTrue(r.reason().contains("is not open to 01:00.1"), r.reason());
    assertEquals(ALLOW, c.check(B, P, 4, true));
  }

  @Test
  void shouldRejectWholeCloseWhenOnePageOfManyIsNotOpen() {
    IommuTable c = hostC();
    c.open(B, P, 2, READ_WRITE);
    c.open(B, P + 3 * PAGE, 2, READ_WRITE); // P+2 pages is the hole
    Rejection r = rejectedUnchanged(c, () -> c.close(B, P, 5));
    assertEquals("page 0x12347000 is not open to 01:00.2 at host chC", r.reason());
    assertEquals(4, c.openPages(B));
    assertEquals(ALLOW, c.check(B, P, 4, true)); // the first page is still open
    // Also when the missing page is the last one.
    Rejection last = rejectedUnchanged(c, () -> c.close(B, P + 3 * PAGE, 3));
    assertTrue(last.reason().startsWith("page 0x1234A000 "), last.reason());
  }

  @Test
  void shouldRejectCloseWhenValuesAreInvalid() {
    IommuTable c = hostC();
    c.open(B, P, 1, READ_WRITE);
    assertEquals("address 0x12345800 is not 4 KiB aligned",
        rejectedUnchanged(c, () -> c.close(B, P + 0x800, 1)).reason());
    assertEquals("pageCount=0 must be at least 1",
        rejectedUnchanged(c, () -> c.close(B, P, 0)).reason());
    assertTrue(rejectedUnchanged(c, () -> c.close(B, 4 * GIB, 1)).reason()
        .contains("page 0x100000000 is outside host chC's memory"));
  }

  @Test
  void shouldCloseAnyPermissionAndSplitRunWhenClosingItsMiddle() {
    IommuTable c = hostC();
    c.open(B, P, 3, READ);
    c.open(B, P + 3 * PAGE, 2, WRITE);
    assertInstanceOf(Closed.class, c.close(B, P + PAGE, 3)); // spans both permissions
    assertEquals(List.of(new PageRun(B, P / PAGE, 1, READ), new PageRun(B, P / PAGE + 4, 1, WRITE)),
        c.runs(B));
    assertEquals(DENY, c.check(B, P + PAGE, 4, false));
    assertEquals(ALLOW, c.check(B, P, 4, false));
    assertEquals(ALLOW, c.check(B, P + 4 * PAGE, 4, true));
  }

  // ------------------------------------------------------------ re-open

  @Test
  void shouldReplacePermissionWhenOpenPageIsOpenedAgain() {
    IommuTable c = hostC();
    c.open(B, P, 2, READ);
    Opened up = opened(c.open(B, P + PAGE, 2, READ_WRITE));
    assertEquals(1, up.newlyOpened()); // P+2 pages
    assertEquals(1, up.permissionChanged()); // P+1 page, READ -> READ_WRITE
    assertEquals(ALLOW, c.check(B, P + PAGE, 4, true));
    assertEquals(DENY, c.check(B, P, 4, true));

    Opened down = opened(c.open(B, P, 3, READ));
    assertEquals(0, down.newlyOpened());
    assertEquals(2, down.permissionChanged());
    assertEquals(DENY, c.check(B, P + PAGE, 4, true));
    assertEquals(List.of(new PageRun(B, P / PAGE, 3, READ)), c.runs(B));

    Opened same = opened(c.open(B, P, 3, READ));
    assertEquals(0, same.newlyOpened());
    assertEquals(0, same.permissionChanged());
  }

  // ------------------------------------------------------------ copies, equality, printing

  @Test
  void shouldLeaveOriginalAloneWhenCopyIsChanged() {
    IommuTable c = hostC();
    c.open(B, P, 1, READ_WRITE);
    c.checkAndCount(A, P, 4, false);
    IommuTable copy = c.copy();
    assertEquals(c, copy);
    assertEquals(c.hashCode(), copy.hashCode());
    assertEquals(1, copy.deniedReads(A));

    copy.open(A, P, 1, READ);
    copy.close(B, P, 1);
    copy.checkAndCount(A, P, 4, true);
    copy.checkAndCount(D, P, 4, true);
    assertEquals(ALLOW, c.check(B, P, 4, true));
    assertEquals(DENY, c.check(A, P, 4, false));
    assertEquals(0, c.deniedWrites(A));
    assertEquals(0, c.deniedWrites(D));
    assertNotEquals(c, copy);

    c.open(D, P, 1, WRITE);
    assertEquals(DENY, copy.check(D, P, 4, true));
  }

  @Test
  void shouldBeEqualWhenSamePagesAreOpenedInAnotherOrderOrShape() {
    IommuTable one = hostC();
    one.open(B, P, 4, READ_WRITE);
    one.open(A, P, 1, READ);
    IommuTable other = hostC();
    other.open(A, P, 1, READ);
    for (int k = 3; k >= 0; k--) {
      other.open(B, P + k * PAGE, 1, READ_WRITE);
    }
    other.open(B, P + 9 * PAGE, 1, READ);
    other.close(B, P + 9 * PAGE, 1);
    other.checkAndCount(D, P, 4, true); // counters are not contents
    assertEquals(one, other);
    assertEquals(one.hashCode(), other.hashCode());
    assertEquals(one.toString(), other.toString());

    other.open(B, P + PAGE, 1, READ);
    assertNotEquals(one, other);
    assertNotEquals(hostC(), new IommuTable("chD", List.of(AddressRange.ofSize(0, 4 * GIB))));
    assertNotEquals(hostC(), new IommuTable("chC", List.of(AddressRange.ofSize(0, 2 * GIB))));
  }

  @Test
  void shouldPrintCoalescedRunsPerRequesterWhenDebugging() {
    IommuTable c = hostC();
    assertEquals("IommuTable{chC memory [0x0..0xFFFFFFFF]: nothing open}", c.toString());
    c.open(B, 0x1000, 1, READ_WRITE);
    c.open(B, 0x2000, 1, READ_WRITE); // joins the page before
    c.open(B, 0x3000, 1, READ); // adjacent but another permission: its own run
    c.open(B, 0x8000, 2, READ);
    c.open(A, 0x8000, 1, WRITE);
    assertEquals("IommuTable{chC memory [0x0..0xFFFFFFFF]: "
            + "01:00.1 -> [0x8000..0x8FFF] W; "
            + "01:00.2 -> [0x1000..0x2FFF] RW, [0x3000..0x3FFF] R, [0x8000..0x9FFF] R}",
        c.toString());
  }

  @Test
  void shouldListEveryRunByRequesterThenPageWhenIterated() {
    IommuTable c = hostC();
    c.open(B, 0x5000, 1, READ);
    c.open(B, 0x1000, 2, READ_WRITE);
    c.open(A, 0x9000, 1, WRITE);
    List<PageRun> seen = new ArrayList<>();
    c.forEach(seen::add);
    assertEquals(List.of(
            new PageRun(A, 9, 1, WRITE),
            new PageRun(B, 1, 2, READ_WRITE),
            new PageRun(B, 5, 1, READ)),
        seen);
    assertEquals(seen, c.entries());
    assertEquals(new AddressRange(0x1000, 0x2FFF), seen.get(1).range());
    assertEquals("01:00.2 [0x1000..0x2FFF] RW", seen.get(1).toString());
    assertEquals(3, c.openPages(B));
    assertEquals(0, c.openPages(D));
    assertEquals(List.of(A, B), List.of(c.requesters()[0], c.requesters()[1]));
  }

  @Test
  void shouldDescribeResultsWhenPrinted() {
    IommuTable c = hostC();
    assertEquals("opened 2 page(s) at 0x12345000 to 01:00.2 RW (2 new, 0 changed)",
        c.open(B, P, 2, READ_WRITE).toString());
    assertEquals("closed 1 page(s) at 0x12345000 to 01:00.2", c.close(B, P, 1).toString());
    assertEquals("rejected: pageCount=0 must be at least 1", c.close(B, P, 0).toString());
  }
}
