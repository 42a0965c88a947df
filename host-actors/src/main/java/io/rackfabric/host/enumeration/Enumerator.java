package io.rackfabric.host.enumeration;

import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.address.Addresses;
import io.rackfabric.fabric.config.ConfigSpace;
import io.rackfabric.fabric.routing.BridgeRegisters;
import io.rackfabric.fabric.tlp.Bdf;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.IntConsumer;
import java.util.function.Supplier;

/**
 * Enumerates a PCIe domain from its root complex the way enumeration software does, one
 * configuration request at a time: {@link #next()} says which request to issue, {@link
 * #accept(ConfigAnswer)} takes its answer, until {@code next()} returns null and {@link #result()}
 * holds what was found. No actor and no clock inside: a test drives it over a fake configuration
 * space, {@link EnumerationRun} over a root endpoint.
 *
 * <ol>
 *   <li>Discovery, depth first: read each function's IDs, class and header type; size every BAR by
 *       writing all ones and reading the mask back (then restoring it); number buses. A bus
 *       below the root or a downstream port is a link and holds device 0 only; a bus below an
 *       upstream port is a switch's internal bus, scanned for devices 0-31. Each bridge is
 *       opened (subordinate 255) while its subtree is scanned and closed at the last bus used. In a {@link SlotGroup} every slot gets its reserved range instead.
 *   <li>Allocation: BARs in BAR order, naturally aligned, packed from the apertures (prefetchable
 *       64-bit BARs in the prefetchable one) around every slot block; a slot's BARs and bridges
 *       go inside its block (a BAR it cannot take, in its group's shared block, if any). Bridge windows span what lies below, in 1 MiB granules; a slot
 *       group's bridge spans all its blocks, occupied or not.
 *   <li>Programming: every BAR and window is written, then every written register read back; a
 *       register that reads back otherwise is reported (it did not take effect).
 * </ol>
 *
 * Problems (a bus range exhausted, a BAR that does not fit) are recorded in the result and
 * enumeration carries on around them; nothing is thrown once it has started.
 */
public final class Enumerator {

  /** A bridge window's granule: its base and limit registers hold address bits 31..20. */
  public static final long WINDOW_GRANULE = 1L << 20;

  private static final int MAX_BUS = 255;

  private final String root;
  private final AllocationPolicy policy;
  private final Deque<Runnable> agenda = new ArrayDeque<>();
  private final Deque<BusScope> scopes = new ArrayDeque<>();
  private final List<String> problems = new ArrayList<>();
  private final List<Reserved> reserved = new ArrayList<>();
  private final Set<String> groupsSeen = new HashSet<>();
  /** Registers written, keyed by function and register, with the value a read must return. */
  private final Map<Long, Integer> expected = new LinkedHashMap<>();
  private final Fn rootBus = Fn.rootBus();
  private final Map<SlotReservation, Fn> rescanned = new LinkedHashMap<>();
  /** Builds the result once the agenda is empty; a rescan builds it on the previous one. */
  private Supplier<EnumerationResult> finisher = this::buildResult;
  private ConfigOp pending;
  private Consumer<ConfigAnswer> onAnswer;
  private int requests;
  private long modelNs;
  private EnumerationResult result;

  private Enumerator(String root, AllocationPolicy policy) {
    this.root = root;
    this.policy = policy;
    this.scopes.push(new BusScope(1, MAX_BUS));
  }

  // ---------------------------------------------------------------------------------------------
  // Public API

  /** A full enumeration of the domain below {@code root} (a name, for the result). */
  public static Enumerator enumerate(String root, AllocationPolicy policy) {
    Enumerator e = new Enumerator(root, policy);
    e.then(() -> e.scanBus(e.rootBus, false), e::checkGroupsFound, () -> e.allocateAndProgram(e.rootBus.children));
    return e;
  }

  /**
   * Re-enumerates only slot {@code slot} of every group that has it, after a host was plugged
   * into it or pulled out (Multi-peer: the pre-assigned bus number reaches the new processor, its
   * BAR gets the slot's block, nothing else is touched). Returns {@code previous} with that slot's
   * functions replaced; its request count and model time are this rescan's.
   *
   * @throws IllegalArgumentException when {@code previous} has no reservation for the slot or the
   *     policy lacks one of its groups
   */
  public static Enumerator rescanSlot(EnumerationResult previous, AllocationPolicy policy, int slot) {
    List<SlotReservation> mine = previous.slot(slot);
    if (mine.isEmpty()) {
      throw new IllegalArgumentException("slot=" + slot + " is reserved in no group of the previous enumeration"
          + " (slots: " + previous.slots().stream().map(SlotReservation::slot).distinct().sorted().toList() + ")");
    }
    List<Rescan> rescans = new ArrayList<>();
    for (SlotReservation r : mine) {
      SlotGroup group = policy.slotGroups().stream().filter(g -> g.name().equals(r.group())).findFirst()
          .orElseThrow(() -> new IllegalArgumentException("slot group '" + r.group() + "' of slot=" + slot
              + " is not in the policy (groups: " + policy.slotGroups().stream().map(SlotGroup::name).toList() + ")"));
      SlotGroup.Slot def = group.slots().stream().filter(s -> s.slot() == slot).findFirst()
          .orElseThrow(() -> new IllegalArgumentException("slot group '" + group.name() + "' has no slot=" + slot));
      rescans.add(new Rescan(r, group, def));
    }
    Enumerator e = new Enumerator(previous.root(), policy);
    e.finisher = () -> e.finishRescan(previous, rescans);
    e.then(rescans.stream().<Runnable>map(r -> () -> e.startRescan(previous, r)).toList());
    return e;
  }

  /** The next request to issue, or null when enumeration is over and {@link #result()} is ready. */
  public ConfigOp next() {
    while (pending == null && !agenda.isEmpty()) {
      agenda.pollFirst().run();
    }
    if (pending == null && result == null) {
      result = finisher.get();
    }
    return pending;
  }

  /** The answer to the request {@link #next()} returned last. */
  public void accept(ConfigAnswer answer) {
    if (pending == null) {
      throw new IllegalStateException("no configuration request is outstanding");
    }
    requests++;
    modelNs += answer.latencyNs();
    Consumer<ConfigAnswer> k = onAnswer;
    pending = null;
    onAnswer = null;
    k.accept(answer);
  }

  public boolean finished() {
    return result != null;
  }

  public EnumerationResult result() {
    if (result == null) {
      throw new IllegalStateException("enumeration of " + root + " is not finished: call next() until it returns null");
    }
    return result;
  }

  /** A function's location below {@code parent}'s: {@code 00.0}, {@code 00.0/03.0}, ... */
  public static String location(String parent, int device, int function) {
    String me = String.format("%02x.%x", device, function);
    return parent.isEmpty() ? me : parent + "/" + me;
  }

  // ---------------------------------------------------------------------------------------------
  // Sequencing: every step issues at most one request; what follows an answer is pushed in front.

  private void then(Runnable... steps) {
    for (int i = steps.length - 1; i >= 0; i--) {
      agenda.addFirst(steps[i]);
    }
  }

  private void then(List<Runnable> steps) {
    then(steps.toArray(Runnable[]::new));
  }

  private void issue(ConfigOp op, Consumer<ConfigAnswer> k) {
    if (pending != null) {
      throw new IllegalStateException("two requests in one step: " + pending + " and " + op);
    }
    pending = op;
    onAnswer = k;
  }

  private static ConfigOp op(int bdf, int register, Integer value) {
    return new ConfigOp(bdf, Bdf.bus(bdf) == 0 ? 0 : 1, register, value);
  }

  private Runnable read(Fn f, int register, IntConsumer k) {
    return () -> issue(op(f.bdf(), register, null), a -> {
      if (!a.successful()) {
        problem(f, "read of register " + register + " got " + status(a));
      }
      k.accept(a.value());
    });
  }

  private Runnable write(Fn f, int register, int value) {
    return () -> issue(op(f.bdf(), register, value), a -> {
      if (!a.successful()) {
        problem(f, "write of 0x" + Integer.toHexString(value) + " to register " + register + " got " + status(a));
      }
    });
  }

  /** A write whose effect the final read-back checks. */
  private Runnable program(Fn f, int register, int value, int readsBack) {
    expected.put(((long) f.bdf() << 8) | register, readsBack);
    return write(f, register, value);
  }

  private static String status(ConfigAnswer a) {
    return a.status() == null ? "no completion" : a.status().name();
  }

  private void problem(Fn f, String what) {
    problems.add(f == null || f.parent == null ? what : Bdf.format(f.bdf()) + " [" + f.location + "]: " + what);
  }

  // ---------------------------------------------------------------------------------------------
  // Phase 1: discovery and bus numbers

  private void scanBus(Fn bridge, boolean internal) {
    List<Runnable> steps = new ArrayList<>();
    for (int d = 0; d < (internal ? 32 : 1); d++) {
      int device = d;
      steps.add(() -> probe(bridge, device, 0, internal));
    }
    steps.add(() -> afterScan(bridge));
    then(steps);
  }

  private void probe(Fn parent, int device, int function, boolean internalBus) {
    int bdf = Bdf.of(parent.secondary, device, function);
    issue(op(bdf, ConfigSpace.REG_ID, null), a -> {
      int vendor = a.value() & 0xFFFF;
      if (!a.successful() || vendor == 0xFFFF || vendor == 0) {
        return; // nothing there (Unsupported Request, or no completion at all)
      }
      Fn f = new Fn(parent, device, function);
      f.vendor = vendor;
      f.deviceId = a.value() >>> 16;
      parent.children.add(f);
      then(read(f, ConfigSpace.REG_CLASS, v -> f.classCode = v >>> 8),
          read(f, ConfigSpace.REG_HEADER, v -> identified(f, (v >>> 16) & 0xFF, internalBus)));
    });
  }

  private void identified(Fn f, int header, boolean internalBus) {
    List<Runnable> steps = new ArrayList<>();
    int type = header & 0x7F;
    if (type == 1) {
      f.kind = internalBus ? FunctionKind.DOWNSTREAM_PORT : FunctionKind.UPSTREAM_PORT;
      steps.add(read(f, ConfigSpace.REG_BUSES, v -> f.foundBuses = v)); // reported if it stays unscanned
      steps.add(sizeBar(f, 0, 2));
    } else {
      if (type != 0) {
        problem(f, "header type " + type + " is neither 0 nor 1; treated as an endpoint");
      }
      boolean ntb = f.vendor == ConfigSpace.VENDOR_PLX && f.deviceId == ConfigSpace.DEVICE_NTB;
      f.kind = ntb ? FunctionKind.NTB_ENDPOINT : FunctionKind.ENDPOINT;
      steps.add(sizeBar(f, 0, 6));
    }
    if ((header & 0x80) != 0 && f.function == 0) {
      for (int fn = 1; fn < 8; fn++) {
        int function = fn;
        steps.add(() -> probe(f.parent, f.device, function, internalBus));
      }
    }
    then(steps);
  }

  /** Sizes BAR {@code index} and those after it, up to register {@code count} of the header. */
  private Runnable sizeBar(Fn f, int index, int count) {
    return () -> {
      if (index >= count) {
        return;
      }
      int reg = ConfigSpace.REG_BAR0 + index;
      then(read(f, reg, origLow -> then(
          write(f, reg, 0xFFFF_FFFF),
          read(f, reg, maskLow -> sized(f, index, count, origLow, maskLow)))));
    };
  }

  private void sized(Fn f, int index, int count, int origLow, int maskLow) {
    int reg = ConfigSpace.REG_BAR0 + index;
    if (maskLow == 0) {
      then(write(f, reg, origLow), sizeBar(f, index + 1, count)); // no BAR here
      return;
    }
    if ((maskLow & 1) != 0) {
      problem(f, "BAR" + index + " is an I/O BAR; I/O space is not assigned");
      then(write(f, reg, origLow), sizeBar(f, index + 1, count));
      return;
    }
    boolean is64 = ((maskLow >>> 1) & 3) == 2;
    boolean pref = (maskLow & 0x8) != 0;
    if (!is64 || index + 1 >= count) {
      f.bars.add(BarProbe.of(index, 0xFFFF_FFFF_0000_0000L | (maskLow & 0xFFFF_FFF0L), false, pref, maskLow & 0xF));
      then(write(f, reg, origLow), sizeBar(f, index + 1, count));
      return;
    }
    then(read(f, reg + 1, origHigh -> then(
        write(f, reg + 1, 0xFFFF_FFFF),
        read(f, reg + 1, maskHigh -> {
          long mask = ((long) maskHigh << 32) | (maskLow & 0xFFFF_FFF0L);
          f.bars.add(BarProbe.of(index, mask, true, pref, maskLow & 0xF));
          then(write(f, reg + 1, origHigh), write(f, reg, origLow), sizeBar(f, index + 2, count));
        }))));
  }

  /** All functions on the bridge's secondary bus are known: reserve slots, then number bridges. */
  private void afterScan(Fn bridge) {
    Optional<SlotGroup> group = policy.slotsBelow(bridge.location);
    if (group.isPresent() && groupsSeen.add(group.get().name())) {
      reserve(group.get(), bridge);
    }
    List<Runnable> steps = new ArrayList<>();
    for (Fn child : bridge.children) {
      if (child.kind.bridge()) {
        steps.add(() -> openBridge(child));
      }
    }
    if (bridge != rootBus && !bridge.fixedBuses) {
      steps.add(() -> closeBridge(bridge));
    }
    then(steps);
  }

  private void reserve(SlotGroup group, Fn bridge) {
    bridge.groupBelow = group;
    int first = -1;
    if (group.busesPerSlot() > 0) {
      BusScope scope = scopes.peek();
      int need = group.slots().size() * group.busesPerSlot();
      if (scope.next + need - 1 > scope.last) {
        problem(bridge, "slot group " + group.name() + " needs " + need + " buses from " + scope.next
            + " but only buses up to " + scope.last + " are left; its bridges stay unnumbered");
      } else {
        first = scope.next;
        scope.next += need;
      }
    }
    for (int i = 0; i < group.slots().size(); i++) {
      SlotGroup.Slot slot = group.slots().get(i);
      int firstBus = first < 0 ? bridge.secondary : first + i * group.busesPerSlot();
      int lastBus = first < 0 ? bridge.secondary : firstBus + group.busesPerSlot() - 1;
      Fn at = bridge.child(slot.device(), 0);
      if (at != null) {
        at.inGroup = group;
        at.slot = slot;
        at.slotFirstBus = first < 0 ? -1 : firstBus;
        at.slotLastBus = lastBus;
      }
      reserved.add(new Reserved(group, slot, Bdf.of(bridge.secondary, slot.device(), 0), firstBus, lastBus, at));
    }
  }

  private void openBridge(Fn b) {
    int primary = b.bus();
    if (b.slot != null) {
      if (b.slotFirstBus < 0) {
        problem(b, "bridge in slot " + b.slot.slot() + " of group " + b.inGroup.name()
            + ", which reserves no buses: not scanned");
        b.skipped = true;
        return;
      }
      b.secondary = b.slotFirstBus;
      b.subordinate = b.slotLastBus;
      b.fixedBuses = true;
      scopes.push(new BusScope(b.secondary + 1, b.subordinate));
      int value = buses(primary, b.secondary, b.subordinate);
      then(program(b, ConfigSpace.REG_BUSES, value, value),
          () -> scanBus(b, b.kind == FunctionKind.UPSTREAM_PORT),
          scopes::pop);
      return;
    }
    BusScope scope = scopes.peek();
    if (scope.next > scope.last) {
      problem(b, "no bus number left (last " + scope.last + "): not scanned");
      b.skipped = true;
      return;
    }
    b.secondary = scope.next++;
    then(write(b, ConfigSpace.REG_BUSES, buses(primary, b.secondary, MAX_BUS)),
        () -> scanBus(b, b.kind == FunctionKind.UPSTREAM_PORT));
  }

  private void closeBridge(Fn b) {
    b.subordinate = scopes.peek().next - 1;
    int value = buses(b.bus(), b.secondary, b.subordinate);
    then(program(b, ConfigSpace.REG_BUSES, value, value));
  }

  private static int buses(int primary, int secondary, int subordinate) {
    return primary | (secondary << 8) | (subordinate << 16);
  }

  private void checkGroupsFound() {
    for (SlotGroup g : policy.slotGroups()) {
      if (!groupsSeen.contains(g.name())) {
        problems.add("slot group " + g.name() + ": no bridge at " + (g.location().isEmpty() ? "the root's bus"
            : "location " + g.location()) + ", its slots are not reserved");
      }
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Phase 2: addresses, then programming and read-back

  private void allocateAndProgram(List<Fn> top) {
    Apertures ap = policy.apertures();
    List<AddressRange> memBlocks = new ArrayList<>();
    List<AddressRange> prefBlocks = new ArrayList<>();
    for (SlotGroup g : policy.slotGroups()) {
      (g.prefetchable() && ap.prefetchable() != null ? prefBlocks : memBlocks).addAll(g.blocks());
    }
    Allocator mem = Allocator.natural(ap.memory(), memBlocks);
    Allocator pref = ap.prefetchable() == null ? mem : Allocator.natural(ap.prefetchable(), prefBlocks);
    for (Fn f : top) {
      place(f, mem, pref);
    }
    List<Runnable> writes = new ArrayList<>();
    top.forEach(f -> programSubtree(f, writes));
    writes.add(this::verify);
    then(writes);
  }

  private void place(Fn f, Allocator mem, Allocator pref) {
    if (f.slot != null) {
      placeSlot(f);
    } else if (!f.kind.bridge()) {
      for (BarProbe bar : f.bars) {
        Allocator pool = bar.pref && pref != mem ? pref : mem;
        bar.inPrefetchPool = pool == pref && pref != mem;
        bar.base = pool.take(bar.size, alignment(bar.size));
        if (bar.base == null) {
          problem(f, "BAR" + bar.index + " of " + sizeText(bar.size) + " does not fit in the "
              + (bar.inPrefetchPool ? "prefetchable" : "memory") + " aperture " + pool.describe());
        }
      }
    } else if (!f.skipped) {
      if (!f.bars.isEmpty()) {
        problem(f, "bridge BARs are not assigned");
      }
      mem.alignUp(WINDOW_GRANULE);
      pref.alignUp(WINDOW_GRANULE);
      for (Fn c : f.children) {
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
  private void placeSlot(Fn f) {
    boolean pref = f.inGroup.prefetchable() && policy.apertures().prefetchable() != null;
    Allocator block = Allocator.relative(f.slot.block());
    // Every slot's function starts the shared block afresh: their overflow BARs overlay.
    Allocator shared = f.inGroup.shared() == null ? null : Allocator.relative(f.inGroup.shared());
    placeInBlock(f, block, shared, pref);
    if (f.kind.bridge() && !f.skipped) {
      f.memWindow = pref ? null : f.slot.block();
      f.prefWindow = pref ? f.slot.block() : null;
    }
  }

  private void placeInBlock(Fn f, Allocator block, Allocator shared, boolean pref) {
    if (!f.kind.bridge()) {
      for (BarProbe bar : f.bars) {
        bar.inPrefetchPool = pref;
        if (pref && !bar.pref) {
          problem(f, "BAR" + bar.index + " is not prefetchable and cannot go in slot " + slotText(f)
              + "'s prefetchable block " + block.describe());
          continue;
        }
        bar.base = block.take(bar.size, alignment(bar.size));
        if (bar.base == null && shared != null) {
          bar.base = shared.take(bar.size, alignment(bar.size));
        }
        if (bar.base == null) {
          problem(f, "BAR" + bar.index + " of " + sizeText(bar.size) + " does not fit in the block of slot "
              + slotText(f) + " " + block.describe() + (shared == null ? "" : " nor the shared " + shared.describe()));
        }
      }
      return;
    }
    if (f.skipped) {
      return;
    }
    block.alignUp(WINDOW_GRANULE);
    for (Fn c : f.children) {
      placeInBlock(c, block, null, pref);
    }
    block.alignUp(WINDOW_GRANULE);
    AddressRange w = window(f, pref);
    f.memWindow = pref ? null : w;
    f.prefWindow = pref ? w : null;
  }

  private String slotText(Fn f) {
    Fn s = f;
    while (s != null && s.slot == null) {
      s = s.parent;
    }
    return s == null ? "?" : s.inGroup.name() + "/" + s.slot.slot();
  }

  /** What a bridge must forward in one pool: its children's ranges and its slot group's blocks. */
  private AddressRange window(Fn bridge, boolean prefetchPool) {
    long lo = -1;
    long hi = -1;
    List<AddressRange> parts = new ArrayList<>();
    for (Fn c : bridge.children) {
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
      problem(bridge, "memory window would end at " + Addresses.hex(limit) + ", above 4GiB: left disabled");
      return null;
    }
    return new AddressRange(base, limit);
  }

  private void programSubtree(Fn f, List<Runnable> writes) {
    if (!f.kind.bridge()) {
      for (BarProbe bar : f.bars) {
        if (bar.base == null) {
          continue;
        }
        int reg = ConfigSpace.REG_BAR0 + bar.index;
        int low = (int) (bar.base & 0xFFFF_FFF0L);
        writes.add(program(f, reg, low, low | bar.typeBits));
        if (bar.is64) {
          int high = (int) (bar.base >>> 32);
          writes.add(program(f, reg + 1, high, high));
        }
      }
      return;
    }
    if (f.skipped) {
      return;
    }
    int memory = encode(f.memWindow);
    writes.add(program(f, ConfigSpace.REG_MEMORY, memory, memory));
    int prefetch = encode(f.prefWindow);
    int baseUpper = f.prefWindow == null ? 0 : (int) (f.prefWindow.base() >>> 32);
    int limitUpper = f.prefWindow == null ? 0 : (int) (f.prefWindow.limit() >>> 32);
    // Upper base first, as Linux does: the window is off until the limit's upper half is written.
    writes.add(program(f, ConfigSpace.REG_PREFETCH_BASE_UPPER, baseUpper, baseUpper));
    writes.add(program(f, ConfigSpace.REG_PREFETCH, prefetch, prefetch | 0x0001_0001));
    writes.add(program(f, ConfigSpace.REG_PREFETCH_LIMIT_UPPER, limitUpper, limitUpper));
    f.children.forEach(c -> programSubtree(c, writes));
  }

  /** A base/limit register pair: bits 31..20 of each; base above limit when disabled. */
  static int encode(AddressRange window) {
    if (window == null) {
      return 0x0000_FFF0;
    }
    return (int) ((window.base() >>> 16) & 0xFFF0) | (int) (((window.limit() >>> 16) & 0xFFF0) << 16);
  }

  private void verify() {
    List<Runnable> reads = new ArrayList<>();
    expected.forEach((key, value) -> {
      int bdf = (int) (key >>> 8);
      int register = (int) (key & 0xFF);
      reads.add(() -> issue(op(bdf, register, null), a -> {
        if (!a.successful()) {
          problems.add(Bdf.format(bdf) + ": read-back of register " + register + " got " + status(a));
        } else if (a.value() != value) {
          problems.add(Bdf.format(bdf) + ": register " + register + " was written to read 0x"
              + Integer.toHexString(value) + " but reads 0x" + Integer.toHexString(a.value()) + " (did not take effect)");
        }
      }));
    });
    expected.clear();
    then(reads);
  }

  // ---------------------------------------------------------------------------------------------
  // Rescan of one slot

  private record Rescan(SlotReservation reservation, SlotGroup group, SlotGroup.Slot slot) {}

  private void startRescan(EnumerationResult previous, Rescan r) {
    SlotReservation res = r.reservation();
    Fn groupBridge = Fn.synthetic(r.group().location(), Bdf.bus(res.bdf()));
    groupBridge.groupBelow = r.group(); // the reserved ranges are the previous run's, not re-derived
    String at = location(r.group().location(), r.slot().device(), 0);
    rescanned.put(res, groupBridge);
    if (r.group().busesPerSlot() > 0) {
      FunctionNode old = previous.at(at).filter(n -> n.kind().bridge()).orElse(null);
      if (old == null) {
        problems.add("slot " + res.slot() + " of group " + r.group().name() + ": no bridge at " + at);
        return;
      }
      Fn port = new Fn(groupBridge, r.slot().device(), 0);
      port.kind = old.kind();
      port.vendor = old.vendor();
      port.deviceId = old.device();
      port.classCode = old.classCode();
      port.inGroup = r.group();
      port.slot = r.slot();
      port.secondary = res.firstBus();
      port.subordinate = res.lastBus();
      port.fixedBuses = true;
      groupBridge.children.add(port);
      scopes.push(new BusScope(port.secondary + 1, port.subordinate));
      int value = buses(port.bus(), port.secondary, port.subordinate);
      expected.put(((long) port.bdf() << 8) | ConfigSpace.REG_BUSES, value);
      then(() -> scanBus(port, port.kind == FunctionKind.UPSTREAM_PORT), scopes::pop,
          () -> rescanProgram(port));
    } else {
      then(() -> probe(groupBridge, r.slot().device(), 0, true), () -> {
        Fn found = groupBridge.child(r.slot().device(), 0);
        if (found == null) {
          return;
        }
        found.inGroup = r.group();
        found.slot = r.slot();
        if (found.kind.bridge()) {
          problem(found, "bridge in slot " + res.slot() + " of group " + r.group().name()
              + ", which reserves no buses: not scanned");
          found.skipped = true;
          return;
        }
        rescanProgram(found);
      });
    }
  }

  private void rescanProgram(Fn slotFunction) {
    placeSlot(slotFunction);
    List<Runnable> writes = new ArrayList<>();
    programSubtree(slotFunction, writes);
    writes.add(this::verify);
    then(writes);
  }

  private EnumerationResult finishRescan(EnumerationResult previous, List<Rescan> rescans) {
    List<FunctionNode> functions = previous.functions();
    List<SlotReservation> slots = new ArrayList<>(previous.slots());
    for (Rescan r : rescans) {
      Fn groupBridge = rescanned.get(r.reservation());
      if (groupBridge == null) {
        continue;
      }
      Fn found = groupBridge.child(r.slot().device(), 0);
      FunctionNode node = found == null ? null : toNode(found);
      functions = replaceChild(functions, r.group().location(), location(r.group().location(), r.slot().device(), 0), node);
      boolean occupied = found != null && (!found.kind.bridge() || !found.children.isEmpty());
      slots.replaceAll(s -> s.equals(r.reservation()) ? s.withOccupied(occupied) : s);
    }
    return new EnumerationResult(previous.root(), previous.mode(), functions, slots, problems, requests, modelNs);
  }

  /** The tree with the child at {@code childLocation} of the node at {@code parent} replaced. */
  private static List<FunctionNode> replaceChild(List<FunctionNode> nodes, String parent, String childLocation,
      FunctionNode replacement) {
    if (parent.isEmpty()) {
      return spliced(nodes, childLocation, replacement);
    }
    List<FunctionNode> out = new ArrayList<>();
    for (FunctionNode n : nodes) {
      if (n.location().equals(parent)) {
        out.add(n.withChildren(spliced(n.children(), childLocation, replacement)));
      } else if (parent.startsWith(n.location() + "/")) {
        out.add(n.withChildren(replaceChild(n.children(), parent, childLocation, replacement)));
      } else {
        out.add(n);
      }
    }
    return out;
  }

  private static List<FunctionNode> spliced(List<FunctionNode> siblings, String location, FunctionNode replacement) {
    List<FunctionNode> out = new ArrayList<>();
    boolean placed = false;
    for (FunctionNode s : siblings) {
      if (s.location().equals(location)) {
        if (replacement != null) {
          out.add(replacement);
        }
        placed = true;
      } else {
        if (!placed && replacement != null && s.location().compareTo(location) > 0) {
          out.add(replacement);
          placed = true;
        }
        out.add(s);
      }
    }
    if (!placed && replacement != null) {
      out.add(replacement);
    }
    return out;
  }

  // ---------------------------------------------------------------------------------------------
  // The result

  private EnumerationResult buildResult() {
    List<FunctionNode> functions = rootBus.children.stream().map(this::toNode).toList();
    List<SlotReservation> slots = new ArrayList<>();
    for (Reserved r : reserved) {
      boolean occupied = r.at != null && (!r.at.kind.bridge() || !r.at.children.isEmpty());
      slots.add(new SlotReservation(r.group.name(), r.slot.slot(), r.bdf, r.firstBus, r.lastBus, r.slot.block(), occupied));
    }
    return new EnumerationResult(root, policy.mode(), functions, slots, problems, requests, modelNs);
  }

  private FunctionNode toNode(Fn f) {
    List<Bar> bars = f.bars.stream().map(b -> new Bar(b.index, b.size, b.is64, b.pref, b.base)).toList();
    BridgeRegisters bridge = null;
    if (f.kind.bridge()) {
      int sec = (f.foundBuses >>> 8) & 0xFF;
      bridge = f.skipped
          ? new BridgeRegisters(f.foundBuses & 0xFF, sec, Math.max(sec, (f.foundBuses >>> 16) & 0xFF), null, null)
          : new BridgeRegisters(f.bus(), f.secondary, Math.max(f.secondary, f.subordinate), f.memWindow, f.prefWindow);
    }
    return new FunctionNode(f.bdf(), f.location, f.kind, f.vendor, f.deviceId, f.classCode, bars, bridge,
        f.children.stream().map(this::toNode).toList(),
        f.inGroup == null ? null : f.inGroup.name(), f.slot == null ? 0 : f.slot.slot());
  }

  private static long alignment(long size) {
    return Long.bitCount(size) == 1 ? size : Long.highestOneBit(size) << 1;
  }

  static String sizeText(long size) {
    return io.rackfabric.host.memory.MemorySizes.size(size);
  }

  // ---------------------------------------------------------------------------------------------
  // Working state

  /** A function while enumeration works on it. */
  private static final class Fn {
    final Fn parent;
    final int device;
    final int function;
    final String location;
    int vendor;
    int deviceId;
    int classCode;
    FunctionKind kind;
    final List<BarProbe> bars = new ArrayList<>();
    final List<Fn> children = new ArrayList<>();
    int secondary = -1;
    int subordinate = -1;
    int foundBuses;
    boolean fixedBuses;
    boolean skipped;
    SlotGroup groupBelow;
    SlotGroup inGroup;
    SlotGroup.Slot slot;
    int slotFirstBus;
    int slotLastBus;
    AddressRange memWindow;
    AddressRange prefWindow;

    Fn(Fn parent, int device, int function) {
      this.parent = parent;
      this.device = device;
      this.function = function;
      this.location = location(parent.location, device, function);
    }

    private Fn(String location, int secondary) {
      this.parent = null;
      this.device = 0;
      this.function = 0;
      this.location = location;
      this.secondary = secondary;
    }

    static Fn rootBus() {
      return new Fn("", 0);
    }

    /** Stands for the bridge above a slot group in a rescan: only its location and bus matter. */
    static Fn synthetic(String location, int secondary) {
      return new Fn(location, secondary);
    }

    int bus() {
      return parent.secondary;
    }

    int bdf() {
      return Bdf.of(bus(), device, function);
    }

    Fn child(int dev, int fn) {
      for (Fn c : children) {
        if (c.device == dev && c.function == fn) {
          return c;
        }
      }
      return null;
    }
  }

  private static final class BarProbe {
    int index;
    long size;
    boolean is64;
    boolean pref;
    int typeBits;
    boolean inPrefetchPool;
    Long base;

    static BarProbe of(int index, long mask, boolean is64, boolean pref, int typeBits) {
      BarProbe b = new BarProbe();
      b.index = index;
      b.size = -mask;
      b.is64 = is64;
      b.pref = pref;
      b.typeBits = typeBits;
      return b;
    }
  }

  private record Reserved(SlotGroup group, SlotGroup.Slot slot, int bdf, int firstBus, int lastBus, Fn at) {}

  /** Bus numbers still free where enumeration is: the whole domain, or a slot's reserved range. */
  private static final class BusScope {
    int next;
    final int last;

    BusScope(int next, int last) {
      this.next = next;
      this.last = last;
    }
  }

  /** Hands out addresses upward from a start, skipping reserved blocks. */
  private static final class Allocator {
    private final AddressRange range;
    private final boolean relative;
    private final List<AddressRange> avoid;
    private long next;

    private Allocator(AddressRange range, boolean relative, List<AddressRange> avoid) {
      this.range = range;
      this.relative = relative;
      this.avoid = avoid;
      this.next = range.base();
    }

    /** Natural alignment (a BAR's base a multiple of its size), around {@code avoid}. */
    static Allocator natural(AddressRange aperture, List<AddressRange> avoid) {
      return new Allocator(aperture, false, List.copyOf(avoid));
    }

    /** Alignment counted from the range's base: a slot block need not be aligned to its BARs. */
    static Allocator relative(AddressRange block) {
      return new Allocator(block, true, List.of());
    }

    void alignUp(long align) {
      Long a = aligned(next, align);
      next = a == null ? range.limit() + 1 : a;
    }

    void skipPast(long limit) {
      if (Long.compareUnsigned(limit + 1, next) > 0) {
        next = limit + 1;
      }
    }

    Long take(long size, long align) {
      Long candidate = aligned(next, align);
      boolean moved = true;
      while (candidate != null && moved) {
        moved = false;
        long last = candidate + size - 1;
        for (AddressRange r : avoid) {
          if (Long.compareUnsigned(r.base(), last) <= 0 && Long.compareUnsigned(candidate, r.limit()) <= 0) {
            candidate = aligned(r.limit() + 1, align);
            moved = true;
            break;
          }
        }
      }
      if (candidate == null || size <= 0) {
        return null;
      }
      long last = candidate + size - 1;
      if (Long.compareUnsigned(last, candidate) < 0 || Long.compareUnsigned(last, range.limit()) > 0) {
        return null;
      }
      next = last + 1;
      return candidate;
    }

    private Long aligned(long address, long align) {
      long origin = relative ? range.base() : 0;
      long offset = address - origin;
      long up = offset + align - 1;
      if (Long.compareUnsigned(up, offset) < 0) {
        return null;
      }
      return origin + (up & -align);
    }

    String describe() {
      return range.toString();
    }
  }
}
