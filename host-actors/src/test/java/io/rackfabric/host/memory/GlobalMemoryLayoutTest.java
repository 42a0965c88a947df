package io.rackfabric.host.memory;

import static io.rackfabric.host.memory.Plane.PRIMARY;
import static io.rackfabric.host.memory.Plane.SECONDARY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.host.memory.NtbHop.Side;
import io.rackfabric.host.memory.Resolution.Kind;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The global memory space against the worked examples of Ladon sections 4.1 and 4.2. */
class GlobalMemoryLayoutTest {

  private static final long G = 1L << 30;
  private static final long T = 1L << 40;
  private static final long L = 32 * G;

  private final GlobalMemoryLayout paper = GlobalMemoryLayout.paper(2);

  /** [from, to), as the paper writes ranges. */
  private static AddressRange range(long from, long to) {
    return new AddressRange(from, to - 1);
  }

  // ---- 4.1 / 4.2: where the MH maps CH i

  @Test
  void shouldMapTheIthHostTo32GiBPlusIMinusOneTimes32GiBInPms1WhenLIs32GiB() {
    GlobalMemoryLayout layout = GlobalMemoryLayout.paper(5);
    for (int i = 1; i <= 5; i++) {
      // "[32GB + (i - 1) * 32GB, 32GB + i * 32GB) via the CH's primary NTB port"
      assertEquals(range(L + (i - 1) * L, L + i * L), layout.mhRangeOf(i, PRIMARY), "CH" + i);
      // "[1TB + 32GB + (i - 1) * 32GB, 1T + 32GB + i * 32GB) via the CH's secondary NTB port"
      assertEquals(range(T + L + (i - 1) * L, T + L + i * L), layout.mhRangeOf(i, SECONDARY),
          "CH" + i);
    }
    assertEquals(range(0, T), layout.pms1());
    assertEquals(range(T, 2 * T), layout.pms2());
    assertEquals(range(0, L), layout.mhLocal());
  }

  @Test
  void shouldSeeTheIthHostAt64GiBPlusIMinusOneTimes32GiBWhenAnyChLooks() {
    GlobalMemoryLayout layout = GlobalMemoryLayout.paper(5);
    for (int i = 1; i <= 5; i++) {
      // 4.1: "reading or writing the [64GB + (i - 1) * 32GB, 64GB + i * 32GB) range"
      assertEquals(range(64 * G + (i - 1) * L, 64 * G + i * L), layout.chRangeOf(i, PRIMARY));
      for (int viewer = 1; viewer <= 5; viewer++) {
        if (viewer != i) {
          assertEquals(64 * G + (i - 1) * L, layout.chAddress(viewer, i, 0, PRIMARY));
        }
      }
    }
    // "each attached machine maps ... the MH's physical memory space to its non-local memory
    // subspace, which is above 32GB"; PMS1 to the lower half, PMS2 to the upper half (4.2)
    assertEquals(range(0, L), layout.chLocal());
    assertEquals(range(L, L + T), layout.chView(PRIMARY));
    assertEquals(range(L + T, L + 2 * T), layout.chView(SECONDARY));
    assertEquals(range(L, 2 * L), layout.chRangeOfMh());
  }

  @Test
  void shouldReachCh2ThroughItsPrimaryNtbWhenCh1Uses96To128GiB() {
    // 4.2: "a memory request from CH1 reading or writing the [96GB, 128GB) range ... goes
    // through CH2's primary NTB port to reach CH2's local memory subspace"
    assertEquals(range(96 * G, 128 * G), paper.chRangeOf(2, PRIMARY));

    Resolution first = paper.resolve(1, 96 * G);
    assertEquals(Kind.COMPUTE_HOST, first.kind());
    assertEquals(2, first.host());
    assertEquals(0, first.offset());
    assertEquals(PRIMARY, first.plane());
    assertEquals(64 * G, first.mhAddress().getAsLong());
    assertEquals(List.of(new NtbHop(1, PRIMARY, Side.VIRTUAL), new NtbHop(2, PRIMARY, Side.LINK)),
        first.hops());

    Resolution last = paper.resolve(1, 128 * G - 1);
    assertEquals(2, last.host());
    assertEquals(L - 1, last.offset());
    assertEquals(PRIMARY, last.plane());
    assertEquals(1, paper.resolve(2, 96 * G - 1).host(), "below 96GB is CH1's range");
    assertEquals(Kind.UNMAPPED, paper.resolve(1, 128 * G).kind(), "no CH3 in a two-CH rack");
  }

  @Test
  void shouldReachCh2ThroughItsSecondaryNtbWhenCh1Uses1TiBPlus96GiB() {
    // 4.2: "[1T + 96GB, 1T + 128GB) ... reaches the same local memory subspace of CH2 through
    // CH2's secondary NTB port"
    assertEquals(range(T + 96 * G, T + 128 * G), paper.chRangeOf(2, SECONDARY));

    Resolution r = paper.resolve(1, T + 96 * G + 0x40);
    assertEquals(Kind.COMPUTE_HOST, r.kind());
    assertEquals(2, r.host());
    assertEquals(0x40, r.offset());
    assertEquals(SECONDARY, r.plane());
    assertEquals(T + 64 * G + 0x40, r.mhAddress().getAsLong());
    assertEquals(
        List.of(new NtbHop(1, SECONDARY, Side.VIRTUAL), new NtbHop(2, SECONDARY, Side.LINK)),
        r.hops());
    assertEquals(L - 1, paper.resolve(1, T + 128 * G - 1).offset());
  }

  @Test
  void shouldMoveCh2sViewOfCh1To1TiBPlus64GiBWhenCh1FailsOver() {
    // 4.2: "CH2 changes its view of CH1 from [64G, 96G) to [1T + 64G, 1T + 96GB). A memory
    // access to 1T + 64G in CH2 is translated to a memory access to 1T + 32G in MH and
    // eventually hits the secondary NTB port of CH1 in the MH's domain."
    assertEquals(range(64 * G, 96 * G), paper.chRangeOf(1, PRIMARY));
    assertEquals(range(T + 64 * G, T + 96 * G), paper.chRangeOf(1, SECONDARY));

    Resolution r = paper.resolve(2, T + 64 * G);
    assertEquals(T + 32 * G, r.mhAddress().getAsLong());
    assertEquals(1, r.host());
    assertEquals(0, r.offset());
    assertEquals(new NtbHop(1, SECONDARY, Side.LINK), r.hops().get(1));
    assertEquals(T + 32 * G, paper.mhAddress(1, 0, SECONDARY));
    assertEquals(T + 64 * G, paper.chAddress(2, 1, 0, SECONDARY));
  }

  @Test
  void shouldSee1600GiBWhen50MachinesIncludingTheMhHave32GiBEach() {
    // 4.1: "Suppose there are 50 machines attached to a Ladon switch, including the MH. Then
    // every attached machine could see a 1600GB worth of physical memory, with 32GB local ...,
    // 32GB in the MH (one hop) and 1536GB in other attached machines (two hops)." 50 machines
    // including the MH are 49 compute hosts. 4.1 has no PMS split yet: 50 x 32GB do not fit a
    // 1TB PMS1, so this layout needs P of at least 1600GB; 2TiB is the next multiple of 1TiB.
    GlobalMemoryLayout layout = GlobalMemoryLayout.create(L, 49, 2 * T);
    assertEquals(1600 * G, layout.totalVisible());
    assertEquals(1536 * G, layout.visibleOtherHosts());
    assertEquals(layout.totalVisible(), L + L + layout.visibleOtherHosts());

    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> GlobalMemoryLayout.create(L, 49, T));
    assertTrue(e.getMessage().contains("hosts=49 x local-subspace=32GiB needs PMS1 of 1600GiB"),
        e.getMessage());
  }

  // ---- resolve, the inverse

  @Test
  void shouldResolveEveryChAddressBackToItsHostOffsetAndPlaneWhenAnyHostLooks() {
    GlobalMemoryLayout layout = GlobalMemoryLayout.paper(3);
    long[] offsets = {0, 0x40, 4096, L - 1};
    for (int target = 1; target <= 3; target++) {
      for (Plane plane : Plane.values()) {
        for (long offset : offsets) {
          long mh = layout.mhAddress(target, offset, plane);
          Resolution fromMh = layout.resolve(0, mh);
          assertEquals(target, fromMh.host());
          assertEquals(offset, fromMh.offset());
          assertEquals(plane, fromMh.plane());
          assertEquals(List.of(new NtbHop(target, plane, Side.LINK)), fromMh.hops());
          for (int viewer = 1; viewer <= 3; viewer++) {
            if (viewer == target) {
              continue; // shouldAnswerNothingWhenAChUsesItsOwnRangeInTheMhsSpace
            }
            long address = layout.chAddress(viewer, target, offset, plane);
            assertEquals(mh + L, address, "CH address = MH address + L");
            Resolution r = layout.resolve(viewer, address);
            String at = "CH" + viewer + " -> CH" + target + " " + plane + " +" + offset;
            assertEquals(Kind.COMPUTE_HOST, r.kind(), at);
            assertEquals(target, r.host(), at);
            assertEquals(offset, r.offset(), at);
            assertEquals(plane, r.plane(), at);
            assertEquals(mh, r.mhAddress().getAsLong(), at);
            assertEquals(List.of(new NtbHop(viewer, plane, Side.VIRTUAL),
                new NtbHop(target, plane, Side.LINK)), r.hops(), at);
          }
        }
      }
    }
  }

  @Test
  void shouldAnswerNothingWhenAChUsesItsOwnRangeInTheMhsSpace() {
    // CH1's request to [64GiB, 96GiB) leaves by its primary NTB and would have to come back in by
    // the same port: a switch does not route a TLP back out its ingress port.
    for (Plane plane : Plane.values()) {
      Resolution r = paper.resolve(1, paper.chRangeOf(1, plane).base());
      assertEquals(Kind.UNMAPPED, r.kind(), plane.name());
      assertTrue(r.reason().startsWith("CH1's own range: its " + plane.pms() + " range"), r.reason());
      assertTrue(r.reason().endsWith("its memory is at [0, 32GiB)"), r.reason());
      assertEquals(List.of(new NtbHop(1, plane, Side.VIRTUAL)), r.hops());
    }
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> paper.chAddress(2, 2, 0x40, PRIMARY));
    assertEquals("CH2 reaches its own memory directly at 0x40; its PMS1 range [64GiB, 96GiB) would"
        + " come back through the primary NTB port it leaves by, and a switch never routes a"
        + " request back out its ingress port", e.getMessage());
  }

  @Test
  void shouldResolveTheMhsMemoryInOneHopAndLocalMemoryInNone() {
    Resolution mh = paper.resolve(2, L + 0x1000);
    assertEquals(Kind.MANAGEMENT_HOST, mh.kind());
    assertEquals(0, mh.host());
    assertEquals(0x1000, mh.offset());
    assertEquals(List.of(new NtbHop(2, PRIMARY, Side.VIRTUAL)), mh.hops());
    assertEquals(L + 0x1000, paper.chAddress(2, 0, 0x1000, PRIMARY));

    Resolution local = paper.resolve(2, L - 1);
    assertEquals(Kind.LOCAL, local.kind());
    assertEquals(2, local.host());
    assertTrue(local.hops().isEmpty());
    assertFalse(local.mhAddress().isPresent());

    Resolution mhOwn = paper.resolve(0, 0x1000);
    assertEquals(Kind.LOCAL, mhOwn.kind());
    assertEquals(0, mhOwn.host());
  }

  @Test
  void shouldResolveToUnmappedWithTheReasonWhenNothingAnswers() {
    Resolution freeSlot = paper.resolve(1, 200 * G);
    assertEquals(Kind.UNMAPPED, freeSlot.kind());
    assertEquals(168 * G, freeSlot.mhAddress().getAsLong(), "it crossed CH1's NTB first");
    assertTrue(freeSlot.reason().contains("free slot 5 of PMS1"), freeSlot.reason());

    Resolution pms2Local = paper.resolve(1, T + L + 0x10);
    assertEquals(Kind.UNMAPPED, pms2Local.kind());
    assertTrue(pms2Local.reason().contains("PMS2's local-subspace slot"), pms2Local.reason());

    Resolution above = paper.resolve(1, 2 * T + L);
    assertEquals(Kind.UNMAPPED, above.kind());
    assertTrue(above.reason().contains("above CH1's physical memory map [0, 2TiB + 32GiB)"),
        above.reason());

    Resolution aboveMh = paper.resolve(0, 2 * T);
    assertTrue(aboveMh.reason().contains("above PMS2"), aboveMh.reason());
  }

  @Test
  void shouldDescribeTheTwoHopPathWhenPrinted() {
    assertEquals("CH1 0x18_0000_0040 -> CH2 offset 0x40 via CH1 primary NTB (virtual-side BAR),"
        + " MH 0x10_0000_0040, CH2 primary NTB (link-side BAR)",
        paper.resolve(1, 96 * G + 0x40).describe());
  }

  // ---- argument checks

  @Test
  void shouldRejectAddressesThatNameNoRangeWhenAsked() {
    IllegalArgumentException offset = assertThrows(IllegalArgumentException.class,
        () -> paper.chAddress(1, 2, L, PRIMARY));
    assertEquals("offset=0x8_0000_0000 is outside the local subspace [0, 32GiB)",
        offset.getMessage());
    IllegalArgumentException mhSecondary = assertThrows(IllegalArgumentException.class,
        () -> paper.chAddress(1, 0, 0, SECONDARY));
    assertTrue(mhSecondary.getMessage().contains("PMS1 only"), mhSecondary.getMessage());
    IllegalArgumentException viewer = assertThrows(IllegalArgumentException.class,
        () -> paper.chAddress(0, 1, 0, PRIMARY));
    assertEquals("viewer=0 not in [1,2] (compute hosts are 1-based)", viewer.getMessage());
    IllegalArgumentException target = assertThrows(IllegalArgumentException.class,
        () -> paper.mhAddress(3, 0, PRIMARY));
    assertEquals("target=3 not in [0,2] (0 is the MH)", target.getMessage());
  }

  // ---- rejected layouts

  @Test
  void shouldNameTheNumbersWhenTooManyHostsForPms1() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> GlobalMemoryLayout.create(L, 50, T));
    assertEquals("hosts=50 x local-subspace=32GiB needs PMS1 of 1632GiB (with the MH's own 32GiB)"
        + " but pms2-base=1TiB; at most 31 hosts fit", e.getMessage());
    // and 31 do fit: 32 slots of 32GiB in 1TiB, the first being the MH's
    assertEquals(31, GlobalMemoryLayout.paper(31).maxComputeHosts());
    assertThrows(IllegalArgumentException.class, () -> GlobalMemoryLayout.paper(32));
  }

  @Test
  void shouldNameTheWidthWhenTwoPms2BasesExceedTheAddressSpace() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> GlobalMemoryLayout.create(L, 2, 256 * T));
    assertEquals("2 x pms2-base=256TiB = 512TiB exceeds the 48-bit physical address space (256TiB)",
        e.getMessage());
    IllegalArgumentException narrow = assertThrows(IllegalArgumentException.class,
        () -> GlobalMemoryLayout.create(L, 2, T, 40));
    assertEquals("2 x pms2-base=1TiB = 2TiB exceeds the 40-bit physical address space (1TiB)",
        narrow.getMessage());
  }

  @Test
  void shouldNameTheChViewWhenOnlyTheShiftByLPushesItPastTheWidth() {
    // 2P = 256TiB fills 48 bits exactly, but a CH sees it above its own 32GiB
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> GlobalMemoryLayout.create(L, 2, 128 * T));
    assertEquals("a compute host's view local-subspace=32GiB + 2 x pms2-base=128TiB"
        + " = 256TiB + 32GiB exceeds the 48-bit physical address space (256TiB)", e.getMessage());
    // the largest P that is a multiple of L and fits: the view ends L below the top
    GlobalMemoryLayout largest = GlobalMemoryLayout.create(L, 2, 128 * T - L);
    assertEquals((1L << 48) - L - 1, largest.chView(SECONDARY).limit());
  }

  @Test
  void shouldRejectTheLocalSubspaceWhenNotAMultipleOf4KiB() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> GlobalMemoryLayout.create(10_000, 2, T));
    assertTrue(e.getMessage().startsWith(
        "local-subspace=10000B (0x2710) is not a multiple of 4KiB (a page)"), e.getMessage());
    IllegalArgumentException zero = assertThrows(IllegalArgumentException.class,
        () -> GlobalMemoryLayout.create(0, 2, T));
    assertEquals("local-subspace=0 must be at least 4KiB", zero.getMessage());
  }

  @Test
  void shouldListEveryProblemWhenSeveralNumbersAreWrong() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> GlobalMemoryLayout.create(L, 0, T + 4096, 20));
    assertEquals("hosts=0: at least one compute host is needed;"
        + " pms2-base=1073741828KiB (0x100_0000_1000) is not a multiple of local-subspace=32GiB;"
        + " address-bits=20 not in [32,64]", e.getMessage());
  }

  @Test
  void shouldAcceptTheWhole64BitSpaceWhenTheWidthIs64() {
    GlobalMemoryLayout wide = GlobalMemoryLayout.create(L, 2, (1L << 63) - L, 64);
    assertEquals(-L - 1, wide.chView(SECONDARY).limit(), "L below the top of the 64-bit space");
    Resolution r = wide.resolve(1, wide.chAddress(1, 2, L - 1, SECONDARY));
    assertEquals(2, r.host());
    assertEquals(L - 1, r.offset());
  }
}
