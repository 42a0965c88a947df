package io.rackfabric.host.enumeration;

import static io.rackfabric.host.enumeration.Enumerator.WINDOW_GRANULE;

import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.address.Addresses;
import io.rackfabric.host.memory.MemorySizes;
import java.util.ArrayList;
import java.util.List;

/**
 * Allocation: BARs in BAR order, naturally aligned, packed from the policy's apertures
 * (prefetchable 64-bit BARs in the prefetchable one) around every slot block; a slot's BARs and
 * bridges go inside its block (a BAR it cannot take, in its group's shared block, if any). Bridge
 * windows span what lies below, in 1 MiB granules; a slot group's bridge spans all its blocks,
 * occupied or not. Only places; {@link RegisterProgramming} writes the registers.
 */
final class BarAssignment {

  private final AllocationPolicy policy;
  private final ConfigRequests requests;

  BarAssignment(AllocationPolicy policy, ConfigRequests requests) {
    this.policy = policy;
    this.requests = requests;
  }

  /** Places every BAR and window of the subtrees below the root bus. */
  void assign(List<ProbedFunction> top) {
    Apertures ap = policy.apertures();
    List<AddressRange> memBlocks = new ArrayList<>();
    List<AddressRange> prefBlocks = new ArrayList<>();
    for (SlotGroup g : policy.slotGroups()) {
      (g.prefetchable() && ap.prefetchable() != null ? prefBlocks : memBlocks).addAll(g.blocks());
    }
    AddressAllocator mem = AddressAllocator.natural(ap.memory(), memBlocks);
    AddressAllocator pref = ap.prefetchable() == null ? mem : AddressAllocator.natural(ap.prefetchable(), prefBlocks);
    for (ProbedFunction f : top) {
      place(f, mem, pref);
    }
  }

  private void place(ProbedFunction f, AddressAllocator mem, AddressAllocator pref) {
    if (f.slot != null) {
      placeSlot(f);
    } else if (!f.kind.bridge()) {
      for (BarProbe bar : f.bars) {
        AddressAllocator pool = bar.pref && pref != mem ? pref : mem;
        bar.inPrefetchPool = pool == pref && pref != mem;
        bar.base = pool.take(bar.size, alignment(bar.size));
        if (bar.base == null) {
          requests.problem(f, "BAR" + bar.index + " of " + sizeText(bar.size) + " does not fit in the "
              + (bar.inPrefetchPool ? "prefetchable" : "memory") + " aperture " + pool.describe());
        }
      }
    } else if (!f.skipped) {
      if (!f.bars.isEmpty()) {
        requests.problem(f, "bridge BARs are not assigned");
      }
      mem.alignUp(WINDOW_GRANULE);
      pref.alignUp(WINDOW_GRANULE);
      for (ProbedFunction c : f.children) {
        place(c, mem, pref);
      }
      f.memWindow = window(f, false);
      f.prefWindow = pref == mem ? null : window(f, true);
      // A window may reach past what was packed (a slot group's blocks): nothing after it may
      // land inside it.
      if (f.memWindow != null) {
        mem.skipPast(f.memWindow.limit());
      }
      if (f.prefWindow != null) {
        pref.skipPast(f.prefWindow.limit());
      }
      mem.alignUp(WINDOW_GRANULE);
      pref.alignUp(WINDOW_GRANULE);
    }
  }

  /** A slot's function: everything below it goes in its block, aligned from the block's base. */
  void placeSlot(ProbedFunction f) {
    boolean pref = f.inGroup.prefetchable() && policy.apertures().prefetchable() != null;
    AddressAllocator block = AddressAllocator.relative(f.slot.block());
    // Every slot's function starts the shared block afresh: their overflow BARs overlay.
    AddressAllocator shared = f.inGroup.shared() == null ? null : AddressAllocator.relative(f.inGroup.shared());
    placeInBlock(f, block, shared, pref);
    if (f.kind.bridge() && !f.skipped) {
      f.memWindow = pref ? null : f.slot.block();
      f.prefWindow = pref ? f.slot.block() : null;
    }
  }

  private void placeInBlock(ProbedFunction f, AddressAllocator block, AddressAllocator shared, boolean pref) {
    if (!f.kind.bridge()) {
      for (BarProbe bar : f.bars) {
        bar.inPrefetchPool = pref;
        if (pref && !bar.pref) {
          requests.problem(f, "BAR" + bar.index + " is not prefetchable and cannot go in slot " + slotText(f)
              + "'s prefetchable block " + block.describe());
          continue;
        }
        bar.base = block.take(bar.size, alignment(bar.size));
        if (bar.base == null && shared != null) {
          bar.base = shared.take(bar.size, alignment(bar.size));
        }
        if (bar.base == null) {
          requests.problem(f, "BAR" + bar.index + " of " + sizeText(bar.size) + " does not fit in the block of slot "
              + slotText(f) + " " + block.describe() + (shared == null ? "" : " nor the shared " + shared.describe()));
        }
      }
      return;
    }
    if (f.skipped) {
      return;
    }
    block.alignUp(WINDOW_GRANULE);
    for (ProbedFunction c : f.children) {
      placeInBlock(c, block, null, pref);
    }
    block.alignUp(WINDOW_GRANULE);
    AddressRange w = window(f, pref);
    f.memWindow = pref ? null : w;
    f.prefWindow = pref ? w : null;
  }

  private String slotText(ProbedFunction f) {
    ProbedFunction s = f;
    while (s != null && s.slot == null) {
      s = s.parent;
    }
    return s == null ? "?" : s.inGroup.name() + "/" + s.slot.slot();
  }

  /** What a bridge must forward in one pool: its children's ranges and its slot group's blocks. */
  private AddressRange window(ProbedFunction bridge, boolean prefetchPool) {
    long lo = -1;
    long hi = -1;
    List<AddressRange> parts = new ArrayList<>();
    for (ProbedFunction c : bridge.children) {
      if (c.kind.bridge()) {
        AddressRange w = prefetchPool ? c.prefWindow : c.memWindow;
        if (w != null) {
          parts.add(w);
        }
      } else {
        for (BarProbe bar : c.bars) {
          if (bar.base != null && bar.inPrefetchPool == prefetchPool) {
            parts.add(AddressRange.ofSize(bar.base, bar.size));
          }
        }
      }
    }
    SlotGroup g = bridge.groupBelow;
    boolean groupPref = g != null && g.prefetchable() && policy.apertures().prefetchable() != null;
    if (g != null && groupPref == prefetchPool) {
      parts.add(g.span());
    }
    for (AddressRange r : parts) {
      lo = lo == -1 || Long.compareUnsigned(r.base(), lo) < 0 ? r.base() : lo;
      hi = hi == -1 || Long.compareUnsigned(r.limit(), hi) > 0 ? r.limit() : hi;
    }
    if (parts.isEmpty()) {
      return null;
    }
    long base = lo & -WINDOW_GRANULE;
    long limit = hi | (WINDOW_GRANULE - 1);
    if (!prefetchPool && Long.compareUnsigned(limit, 0xFFFF_FFFFL) > 0) {
      requests.problem(bridge, "memory window would end at " + Addresses.hex(limit) + ", above 4GiB: left disabled");
      return null;
    }
    return new AddressRange(base, limit);
  }

  private static long alignment(long size) {
    return Long.bitCount(size) == 1 ? size : Long.highestOneBit(size) << 1;
  }

  private static String sizeText(long size) {
    return MemorySizes.size(size);
  }
}
