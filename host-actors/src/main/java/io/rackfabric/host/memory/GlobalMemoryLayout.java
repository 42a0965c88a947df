package io.rackfabric.host.memory;

import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.ntb.NtbBar;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * Ladon's global memory space (Ladon sections 4.1-4.2, Figure 3). The MH's physical memory space is
 * split at {@code pms2Base} (P) into PMS1 = [0, P) and PMS2 = [P, 2P). The MH's own local
 * subspace is [0, L); compute host i (1-based) is mapped at [L + (i-1)L, L + iL) in PMS1 through
 * its primary NTB port and at P plus that in PMS2 through its secondary NTB port. Every CH keeps
 * its own local subspace at [0, L) and sees the MH's space above it, shifted by L: PMS1 at
 * [L, L + P) through its primary NTB, PMS2 at [L + P, L + 2P) through its secondary. A CH address
 * is therefore the MH address plus L, and a CH reaches another CH in two NTB hops.
 *
 * <p>With the paper's L = 32 GiB and P = 1 TiB: CH1 reads CH2 at [96GiB, 128GiB) through CH2's
 * primary NTB, or at [1TiB + 96GiB, 1TiB + 128GiB) through its secondary one.
 *
 * <p>Immutable; the canonical constructor validates, so every instance fits its address width.
 *
 * @param localSubspace L, bytes: each host's local subspace (main memory and MMIO)
 * @param computeHosts N, the number of compute hosts (the MH not counted)
 * @param pms2Base P: where PMS2 starts in the MH's space, and the size of each half
 * @param addressBits the physical address width of every host, 32..64
 */
public record GlobalMemoryLayout(long localSubspace, int computeHosts, long pms2Base, int addressBits) {

  /** Local subspaces are whole pages, so that IOMMU entries and BARs line up with them. */
  public static final long PAGE_SIZE = 4096;
  /** "Modern 64-bit X86 servers are at least 48 bits long" (Ladon section 4.1). */
  public static final int DEFAULT_ADDRESS_BITS = 48;
  public static final long PAPER_LOCAL_SUBSPACE = 32L << 30;
  public static final long PAPER_PMS2_BASE = 1L << 40;
  public static final int MIN_ADDRESS_BITS = 32;
  public static final int MAX_ADDRESS_BITS = 64;

  public GlobalMemoryLayout {
    List<String> problems = problems(localSubspace, computeHosts, pms2Base, addressBits);
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException(String.join("; ", problems));
    }
  }

  /**
   * A validated layout.
   *
   * @throws IllegalArgumentException naming every number that does not fit
   */
  public static GlobalMemoryLayout create(
      long localSubspace, int computeHosts, long pms2Base, int addressBits) {
    return new GlobalMemoryLayout(localSubspace, computeHosts, pms2Base, addressBits);
  }

  /** As {@link #create(long, int, long, int)} with 48-bit physical addresses. */
  public static GlobalMemoryLayout create(long localSubspace, int computeHosts, long pms2Base) {
    return create(localSubspace, computeHosts, pms2Base, DEFAULT_ADDRESS_BITS);
  }

  /** The paper's Figure 3: L = 32 GiB, P = 1 TiB, 48-bit addresses. */
  public static GlobalMemoryLayout paper(int computeHosts) {
    return create(PAPER_LOCAL_SUBSPACE, computeHosts, PAPER_PMS2_BASE, DEFAULT_ADDRESS_BITS);
  }

  /**
   * Everything wrong with these numbers, each naming the values involved; empty when they fit.
   * Sums are taken in BigInteger: a rejected layout may well add up to more than 64 bits.
   */
  static List<String> problems(long l, int n, long p, int bits) {
    List<String> out = new ArrayList<>();
    BigInteger bigL = MemorySizes.unsigned(l);
    BigInteger bigP = MemorySizes.unsigned(p);
    boolean lOk = true;
    if (l == 0) {
      out.add("local-subspace=0 must be at least 4KiB");
      lOk = false;
    } else if (Long.remainderUnsigned(l, PAGE_SIZE) != 0) {
      out.add("local-subspace=" + MemorySizes.size(l) + " (" + MemorySizes.hex(l)
          + ") is not a multiple of 4KiB (a page)");
      lOk = false;
    }
    if (n < 1) {
      out.add("hosts=" + n + ": at least one compute host is needed");
    }
    if (lOk && Long.remainderUnsigned(p, l) != 0) {
      // PMS2 repeats PMS1's slots at +P; an unaligned P would put CH i's two ranges at different
      // offsets from their slot boundaries, and its BARs off their natural alignment.
      out.add("pms2-base=" + MemorySizes.size(p) + " (" + MemorySizes.hex(p)
          + ") is not a multiple of local-subspace=" + MemorySizes.size(l));
    }
    if (lOk && n >= 1) {
      BigInteger pms1 = bigL.multiply(BigInteger.valueOf(n + 1L));
      if (pms1.compareTo(bigP) > 0) {
        BigInteger fit = bigP.divide(bigL).subtract(BigInteger.ONE).max(BigInteger.ZERO);
        out.add("hosts=" + n + " x local-subspace=" + MemorySizes.size(l) + " needs PMS1 of "
            + MemorySizes.size(pms1) + " (with the MH's own " + MemorySizes.size(l)
            + ") but pms2-base=" + MemorySizes.size(p) + "; at most " + fit
            + (fit.equals(BigInteger.ONE) ? " host fits" : " hosts fit"));
      }
    }
    if (bits < MIN_ADDRESS_BITS || bits > MAX_ADDRESS_BITS) {
      out.add("address-bits=" + bits + " not in [" + MIN_ADDRESS_BITS + "," + MAX_ADDRESS_BITS + "]");
    } else {
      BigInteger space = BigInteger.ONE.shiftLeft(bits);
      BigInteger mhSpace = bigP.shiftLeft(1);
      BigInteger chView = mhSpace.add(bigL);
      if (mhSpace.compareTo(space) > 0) {
        out.add("2 x pms2-base=" + MemorySizes.size(p) + " = " + MemorySizes.size(mhSpace)
            + " exceeds the " + bits + "-bit physical address space (" + MemorySizes.space(bits)
            + ")");
      } else if (chView.compareTo(space) > 0) {
        // The MH's space fits but a CH sees it shifted up by L, above its own local subspace.
        out.add("a compute host's view local-subspace=" + MemorySizes.size(l) + " + 2 x pms2-base="
            + MemorySizes.size(p) + " = " + MemorySizes.position(chView) + " exceeds the " + bits
            + "-bit physical address space (" + MemorySizes.space(bits) + ")");
      }
    }
    return out;
  }

  // ---------------------------------------------------------------- the MH's space (Figure 3a)

  /** PMS1 = [0, P) of the MH's space. */
  public AddressRange pms1() {
    return AddressRange.ofSize(0, pms2Base);
  }

  /** PMS2 = [P, 2P) of the MH's space. */
  public AddressRange pms2() {
    return AddressRange.ofSize(pms2Base, pms2Base);
  }

  public AddressRange pms(Plane plane) {
    return plane == Plane.PRIMARY ? pms1() : pms2();
  }

  private long pmsBase(Plane plane) {
    return plane == Plane.PRIMARY ? 0 : pms2Base;
  }

  /** The MH's own local subspace, [0, L), in PMS1. */
  public AddressRange mhLocal() {
    return AddressRange.ofSize(0, localSubspace);
  }

  /**
   * PMS2's local-subspace slot [P, P + L). The paper gives each half a local subspace, but the
   * MH's memory sits at [0, L) only; nothing answers here.
   */
  public AddressRange pms2LocalSlot() {
    return AddressRange.ofSize(pms2Base, localSubspace);
  }

  /** Where compute host {@code ch} (1-based) sits in the MH's space: PMS1 or PMS2 by plane. */
  public AddressRange mhRangeOf(int ch, Plane plane) {
    checkComputeHost("ch", ch);
    return AddressRange.ofSize(pmsBase(plane) + (long) ch * localSubspace, localSubspace);
  }

  /** The part of {@code plane}'s half the compute hosts occupy: [L, L + NL) from its base. */
  public AddressRange mhHostsRange(Plane plane) {
    return AddressRange.ofSize(pmsBase(plane) + localSubspace, (long) computeHosts * localSubspace);
  }

  /** How many compute hosts PMS1 could hold with this L and P: P / L - 1. */
  public long maxComputeHosts() {
    return Long.divideUnsigned(pms2Base, localSubspace) - 1;
  }

  // ---------------------------------------------------------------- a CH's space (Figure 3b)

  /** A compute host's own local subspace, [0, L). */
  public AddressRange chLocal() {
    return AddressRange.ofSize(0, localSubspace);
  }

  /**
   * Where a CH sees the MH's half of {@code plane}: PMS1 at [L, L + P) through its primary NTB,
   * PMS2 at [L + P, L + 2P) through its secondary.
   */
  public AddressRange chView(Plane plane) {
    return AddressRange.ofSize(localSubspace + pmsBase(plane), pms2Base);
  }

  /** The MH's local memory as every CH sees it, [L, 2L), through the primary NTB. */
  public AddressRange chRangeOfMh() {
    return AddressRange.ofSize(localSubspace, localSubspace);
  }

  /**
   * Where every CH sees compute host {@code target}'s memory through {@code plane}. Every other
   * CH, that is: the target itself gets nothing there (see {@link #resolve}).
   */
  public AddressRange chRangeOf(int target, Plane plane) {
    checkComputeHost("target", target);
    return AddressRange.ofSize(mhAddress(target, 0, plane) + localSubspace, localSubspace);
  }

  /** The part of a CH's view of {@code plane} that holds anything: the MH (PMS1 only) and the CHs. */
  public AddressRange chActiveView(Plane plane) {
    return plane == Plane.PRIMARY
        ? AddressRange.ofSize(localSubspace, (computeHosts + 1L) * localSubspace)
        : AddressRange.ofSize(localSubspace + pms2Base + localSubspace,
            (long) computeHosts * localSubspace);
  }

  // ---------------------------------------------------------------- addresses

  /**
   * The address compute host {@code viewer} uses to reach byte {@code offset} of host {@code
   * target}'s local memory through {@code plane}: the MH address plus L. Target 0 is the MH,
   * whose memory is mapped in PMS1 only.
   *
   * @throws IllegalArgumentException for hosts out of range, an offset outside [0, L), the MH
   *     through the secondary plane, or a CH naming itself (see {@link #resolve})
   */
  public long chAddress(int viewer, int target, long offset, Plane plane) {
    checkComputeHost("viewer", viewer);
    if (viewer == target) {
      throw new IllegalArgumentException("CH" + viewer + " reaches its own memory directly at "
          + MemorySizes.hex(offset) + "; " + selfLoop(viewer, plane));
    }
    return mhAddress(target, offset, plane) + localSubspace;
  }

  /**
   * Why a CH's own ranges in the MH's space answer nothing when it uses them: the request leaves
   * through the CH's NTB port of that plane and would have to come back in through the same port,
   * and a switch never routes a TLP back out the port it arrived on (the emulator's {@code
   * SwitchRouter} refuses it as PCIe does).
   */
  private String selfLoop(int ch, Plane plane) {
    return "its " + plane.pms() + " range " + MemorySizes.halfOpen(mhRangeOf(ch, plane))
        + " would come back through the " + plane.ntb()
        + " NTB port it leaves by, and a switch never routes a request back out its ingress port";
  }

  /**
   * The address in the MH's space of byte {@code offset} of host {@code target}'s memory through
   * {@code plane}; target 0 is the MH's own memory (PMS1 only).
   */
  public long mhAddress(int target, long offset, Plane plane) {
    if (target < 0 || target > computeHosts) {
      throw new IllegalArgumentException(
          "target=" + target + " not in [0," + computeHosts + "] (0 is the MH)");
    }
    if (Long.compareUnsigned(offset, localSubspace) >= 0) {
      throw new IllegalArgumentException("offset=" + MemorySizes.hex(offset)
          + " is outside the local subspace [0, " + MemorySizes.size(localSubspace) + ")");
    }
    if (target == 0 && plane != Plane.PRIMARY) {
      throw new IllegalArgumentException(
          "the MH's memory is mapped in PMS1 only; it has no " + plane.ntb() + " range");
    }
    return pmsBase(plane) + (long) target * localSubspace + offset;
  }

  /**
   * Where {@code address}, issued by {@code viewer} (0 for the MH, i for CH i), lands: the
   * inverse of {@link #chAddress} and {@link #mhAddress}.
   */
  public Resolution resolve(int viewer, long address) {
    if (viewer < 0 || viewer > computeHosts) {
      throw new IllegalArgumentException(
          "viewer=" + viewer + " not in [0," + computeHosts + "] (0 is the MH)");
    }
    if (viewer == 0) {
      return resolveInMh(0, address, address, null, List.of());
    }
    if (chLocal().contains(address)) {
      return Resolution.local(viewer, address);
    }
    for (Plane plane : Plane.values()) {
      if (chView(plane).contains(address)) {
        return resolveInMh(viewer, address, address - localSubspace, plane,
            List.of(new NtbHop(viewer, plane, NtbHop.Side.VIRTUAL)));
      }
    }
    return Resolution.unmapped(viewer, address, OptionalLong.empty(), null, List.of(),
        "above CH" + viewer + "'s physical memory map [0, "
            + MemorySizes.position(MemorySizes.unsigned(chView(Plane.SECONDARY).limit())
                .add(BigInteger.ONE)) + ")");
  }

  /** The second half of a resolution: what answers at {@code mh} in the MH's domain. */
  private Resolution resolveInMh(int viewer, long address, long mh, Plane via, List<NtbHop> hops) {
    if (mhLocal().contains(mh)) {
      return viewer == 0
          ? Resolution.local(0, address)
          : Resolution.reached(viewer, address, 0, mh, via, mh, hops);
    }
    Plane plane = pms1().contains(mh) ? Plane.PRIMARY : pms2().contains(mh) ? Plane.SECONDARY : null;
    OptionalLong at = OptionalLong.of(mh);
    if (plane == null) {
      return Resolution.unmapped(viewer, address, at, via, hops,
          "above PMS2: the MH's space ends at " + MemorySizes.position(2 * pms2Base));
    }
    long inPlane = mh - pmsBase(plane);
    long slot = Long.divideUnsigned(inPlane, localSubspace);
    if (slot == 0) {
      return Resolution.unmapped(viewer, address, at, plane, hops,
          "PMS2's local-subspace slot at MH " + MemorySizes.hex(mh)
              + " is not backed (the MH's memory is at [0, " + MemorySizes.size(localSubspace)
              + ") in PMS1)");
    }
    if (slot > computeHosts) {
      return Resolution.unmapped(viewer, address, at, plane, hops,
          "free slot " + slot + " of " + plane.pms() + " at MH " + MemorySizes.hex(mh)
              + " (compute hosts use slots 1.." + computeHosts + ")");
    }
    int target = (int) slot;
    if (target == viewer) {
      return Resolution.unmapped(viewer, address, at, plane, hops,
          "CH" + viewer + "'s own range: " + selfLoop(viewer, plane) + "; its memory is at [0, "
              + MemorySizes.size(localSubspace) + ")");
    }
    List<NtbHop> path = new ArrayList<>(hops);
    path.add(new NtbHop(target, plane, NtbHop.Side.LINK));
    return Resolution.reached(viewer, address, target, inPlane - slot * localSubspace, plane, mh,
        path);
  }

  // ---------------------------------------------------------------- NTB programming

  /**
   * The BARs compute host {@code ch}'s NTB port of {@code plane} needs. Link side: the CH's range
   * in PMS1 (PMS2) translated to its address 0. Virtual side: the CH's view [L, L + P) translated
   * to 0 (for PMS2, [L + P, L + 2P) translated to P), which is what makes CH address = MH address
   * + L. Applied with {@code NtbTranslation}, these reproduce {@link #chAddress} and {@link
   * #mhAddress}.
   */
  public NtbProgramming ntbProgramming(int ch, Plane plane) {
    checkComputeHost("ch", ch);
    NtbBar link = new NtbBar(mhRangeOf(ch, plane), 0);
    NtbBar virtual = new NtbBar(chView(plane), pmsBase(plane));
    return new NtbProgramming(ch, plane, List.of(link), List.of(virtual));
  }

  // ---------------------------------------------------------------- the paper's arithmetic

  /**
   * The memory one CH can reach, each byte counted once: its own L (zero hops), the MH's L (one
   * hop) and the other N - 1 compute hosts' (two hops). With 50 machines including the MH (N =
   * 49) and L = 32 GiB that is the paper's 1600 GB.
   */
  public long totalVisible() {
    return (computeHosts + 1L) * localSubspace;
  }

  /** The other compute hosts' share of {@link #totalVisible()}: (N - 1) L. */
  public long visibleOtherHosts() {
    return (computeHosts - 1L) * localSubspace;
  }

  private void checkComputeHost(String what, int ch) {
    if (ch < 1 || ch > computeHosts) {
      throw new IllegalArgumentException(
          what + "=" + ch + " not in [1," + computeHosts + "] (compute hosts are 1-based)");
    }
  }
}
