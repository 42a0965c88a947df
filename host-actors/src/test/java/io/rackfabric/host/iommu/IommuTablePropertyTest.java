package io.rackfabric.host.iommu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.tlp.Bdf;
import io.rackfabric.host.iommu.IommuResult.Opened;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@link IommuTable} against a brute-force model: a set of (requester, page, permission) entries,
 * one per page, and a byte-by-byte idea of the host's memory. Seeded random opens, closes and
 * checks over a small universe, so that runs touch, overlap, split and merge often.
 */
class IommuTablePropertyTest {

  private static final long PAGE = IommuTable.PAGE_SIZE;
  /** Pages 0..63 are the universe the operations pick from; not all of it is memory. */
  private static final int UNIVERSE = 64;

  private record Entry(int requester, long page, Permission permission) {}

  private static final List<AddressRange> MEMORY = List.of(
      new AddressRange(0x0, 0x7FFF), // pages 0..7
      new AddressRange(0x8000, 0x17FFF), // pages 8..23: touches the first, so 0..23 is one run
      new AddressRange(0x20000, 0x2FFFF), // pages 32..47
      new AddressRange(50 * PAGE + 0x800, 52 * PAGE - 1)); // page 50 half, page 51 whole

  private static final int[] REQUESTERS = {Bdf.of(1, 0, 0), Bdf.of(1, 0, 1), Bdf.of(1, 0, 2),
      Bdf.of(2, 3, 4)};
  private static final int NEVER_OPENED = Bdf.of(9, 9, 1);

  /** The brute-force model of the table. */
  private static final class Model {
    final Set<Entry> entries = new HashSet<>();
    final Map<Integer, long[]> denied = new HashMap<>(); // requester -> {reads, writes}

    Permission at(int requester, long page) {
      for (Permission p : Permission.values()) {
        if (entries.contains(new Entry(requester, page, p))) {
          return p;
        }
      }
      return null;
    }

    void set(int requester, long page, Permission p) {
      remove(requester, page);
      entries.add(new Entry(requester, page, p));
    }

    void remove(int requester, long page) {
      for (Permission q : Permission.values()) {
        entries.remove(new Entry(requester, page, q));
      }
    }
  }

  /** Whether every byte of {@code page} is in some memory range: the definition, by brute force. */
  private static boolean inMemory(long page) {
    for (long b = page * PAGE; b < (page + 1) * PAGE; b++) {
      boolean covered = false;
      for (AddressRange r : MEMORY) {
        covered |= r.contains(b);
      }
      if (!covered) {
        return false;
      }
    }
    return true;
  }

  @Test
  void shouldAgreeWithBruteForceModelWhenDrivenByRandomOperations() {
    boolean[] memoryPage = new boolean[UNIVERSE + 8];
    for (int p = 0; p < memoryPage.length; p++) {
      memoryPage[p] = inMemory(p);
    }
    Random rnd = new Random(0x10AD0_1FABL);
    IommuTable table = new IommuTable("ch7", MEMORY);
    Model model = new Model();
    int opened = 0;
    int closed = 0;
    int rejected = 0;
    int allowed = 0;
    int denied = 0;

    for (int step = 0; step < 5000; step++) {
      String at = "step " + step;
      int requester = REQUESTERS[rnd.nextInt(REQUESTERS.length)];
      int op = rnd.nextInt(10);
      if (op < 5) {
        // open (op 0..2) or close (op 3..4)
        long firstPage = rnd.nextInt(UNIVERSE);
        long address = firstPage * PAGE + (rnd.nextInt(20) == 0 ? 0x800 : 0); // sometimes unaligned
        long count = rnd.nextInt(15) == 0 ? 0 : 1 + rnd.nextInt(rnd.nextBoolean() ? 2 : 6);
        IommuTable before = table.copy();
        boolean valid = count >= 1 && address % PAGE == 0;
        for (long p = firstPage; valid && p < firstPage + count; p++) {
          valid = memoryPage[(int) p];
        }
        IommuResult r;
        if (op < 3) {
          Permission perm = Permission.values()[rnd.nextInt(3)];
          r = table.open(requester, address, count, perm);
          assertEquals(valid, r.accepted(), at + ": open " + r);
          if (valid) {
            long fresh = 0;
            long changed = 0;
            for (long p = firstPage; p < firstPage + count; p++) {
              Permission old = model.at(requester, p);
              fresh += old == null ? 1 : 0;
              changed += old != null && old != perm ? 1 : 0;
              model.set(requester, p, perm);
            }
            Opened o = assertInstanceOf(Opened.class, r, at);
            assertEquals(fresh, o.newlyOpened(), at + ": " + o);
            assertEquals(changed, o.permissionChanged(), at + ": " + o);
            opened++;
          }
        } else {
          boolean allOpen = valid;
          for (long p = firstPage; allOpen && p < firstPage + count; p++) {
            allOpen = model.at(requester, p) != null;
          }
          r = table.close(requester, address, count);
          assertEquals(allOpen, r.accepted(), at + ": close " + r);
          if (allOpen) {
            for (long p = firstPage; p < firstPage + count; p++) {
              model.remove(requester, p);
            }
            closed++;
          }
        }
        if (!r.accepted()) {
          assertEquals(before, table, at + ": rejected " + r + " but changed the table");
          rejected++;
        }
      } else {
        // check: any address in the universe, 1 byte to three pages, read or write
        int who = rnd.nextInt(6) == 0 ? NEVER_OPENED : requester;
        long address = rnd.nextInt(UNIVERSE * (int) PAGE);
        int length = 1 + rnd.nextInt(rnd.nextBoolean() ? 64 : 3 * (int) PAGE);
        boolean write = rnd.nextBoolean();
        boolean expect = true;
        for (long p = address / PAGE; p <= (address + length - 1) / PAGE; p++) {
          Permission perm = model.at(who, p);
          expect &= perm != null && perm.allows(write);
        }
        IommuDecision d = table.checkAndCount(who, address, length, write);
        assertEquals(expect ? IommuDecision.ALLOW : IommuDecision.DENY, d,
            at + ": " + Bdf.format(who) + (write ? " write " : " read ") + address + "+" + length
                + " in " + table);
        if (expect) {
          allowed++;
        } else {
          model.denied.computeIfAbsent(who, k -> new long[2])[write ? 1 : 0]++;
          denied++;
        }
      }
      if (step % 50 == 0) {
        assertSameContents(model, table, at);
      }
    }
    assertSameContents(model, table, "end");

    long totalDenied = 0;
    for (int r : concat(REQUESTERS, NEVER_OPENED)) {
      long[] m = model.denied.getOrDefault(r, new long[2]);
      assertEquals(m[0], table.deniedReads(r), "denied reads of " + Bdf.format(r));
      assertEquals(m[1], table.deniedWrites(r), "denied writes of " + Bdf.format(r));
      totalDenied += m[0] + m[1];
    }
    assertEquals(totalDenied, table.deniedTotal());

    // The run must have exercised every outcome, or it proves little.
    assertTrue(opened > 300, "opened=" + opened);
    assertTrue(closed > 100, "closed=" + closed);
    assertTrue(allowed > 100, "allowed=" + allowed);
    assertTrue(denied > 300, "denied=" + denied);
    assertTrue(rejected > 300, "rejected=" + rejected);
  }

  @Test
  void shouldLeaveTableUnchangedWhenRandomRequestIsRejected() {
    Random rnd = new Random(42);
    IommuTable table = new IommuTable("ch7", MEMORY);
    int rejections = 0;
    for (int step = 0; step < 3000; step++) {
      int requester = REQUESTERS[rnd.nextInt(REQUESTERS.length)];
      long address = rnd.nextInt(UNIVERSE) * PAGE + (rnd.nextInt(10) == 0 ? 0x10 : 0);
      long count = rnd.nextInt(6);
      IommuTable before = table.copy();
      String text = table.toString();
      IommuResult r = rnd.nextInt(3) == 0
          ? table.close(requester, address, count)
          : table.open(requester, address, count, Permission.values()[rnd.nextInt(3)]);
      if (!r.accepted()) {
        rejections++;
        assertEquals(before, table, "step " + step + ": " + r);
        assertEquals(text, table.toString(), "step " + step + ": " + r);
      }
    }
    assertTrue(rejections > 500, "rejections=" + rejections);
  }

  /**
   * The table's runs, expanded to pages, are the model's entries; runs are canonical (adjacent
   * runs differ in permission); and a table rebuilt page by page in another order equals it.
   */
  private static void assertSameContents(Model model, IommuTable table, String at) {
    Set<Entry> actual = new HashSet<>();
    PageRun previous = null;
    for (PageRun run : table) {
      for (long p = run.firstPage(); p < run.firstPage() + run.pageCount(); p++) {
        assertTrue(actual.add(new Entry(run.requester(), p, run.permission())), at + " twice: " + p);
      }
      if (previous != null && previous.requester() == run.requester()) {
        assertTrue(previous.firstPage() + previous.pageCount() <= run.firstPage(), at + " order");
        boolean adjacent = previous.firstPage() + previous.pageCount() == run.firstPage();
        assertFalse(adjacent && previous.permission() == run.permission(),
            at + ": not coalesced " + previous + " / " + run);
      }
      previous = run;
    }
    assertEquals(model.entries, actual, at);

    List<Entry> shuffled = new ArrayList<>(model.entries);
    Collections.shuffle(shuffled, new Random(shuffled.size()));
    IommuTable rebuilt = new IommuTable("ch7", MEMORY);
    for (Entry e : shuffled) {
      assertTrue(rebuilt.open(e.requester(), e.page() * PAGE, 1, e.permission()).accepted(), at);
    }
    assertEquals(rebuilt, table, at);
    assertEquals(rebuilt.hashCode(), table.hashCode(), at);
    assertEquals(rebuilt.toString(), table.toString(), at);
    IommuTable copy = table.copy();
    assertEquals(table, copy, at);
    if (!model.entries.isEmpty()) {
      Entry any = shuffled.get(0);
      copy.close(any.requester(), any.page() * PAGE, 1);
      assertNotEquals(table, copy, at);
    }
  }

  private static int[] concat(int[] a, int b) {
    int[] out = java.util.Arrays.copyOf(a, a.length + 1);
    out[a.length] = b;
    return out;
  }
}
