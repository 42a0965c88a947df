package io.rackfabric.host.memory;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * Where a physical address of one host lands in the global memory space: which host's local
 * memory and at what offset, through which NTB BARs, or why nothing answers there. The inverse of
 * {@link GlobalMemoryLayout#chAddress} and {@link GlobalMemoryLayout#mhAddress}.
 *
 * @param viewer the host that issues the access: 0 for the MH, i for CH i
 * @param host the host whose memory is reached (0 = the MH); -1 when unmapped
 * @param offset the offset in that host's local subspace; -1 when unmapped
 * @param plane the plane whose NTBs carry the access; null for a local access and for the MH
 *     reaching its own memory
 * @param mhAddress the address the access carries in the MH's domain, if it gets there
 * @param hops the NTB BARs crossed, in order
 * @param reason why nothing answers, for {@link Kind#UNMAPPED}; null otherwise
 */
public record Resolution(
    int viewer,
    long address,
    Kind kind,
    int host,
    long offset,
    Plane plane,
    OptionalLong mhAddress,
    List<NtbHop> hops,
    String reason) {

  public enum Kind {
    /** The viewer's own local subspace, no NTB crossed. */
    LOCAL,
    /** The MH's local memory, reached by a CH through its primary NTB. */
    MANAGEMENT_HOST,
    /** Another compute host's local memory, in two NTB hops (one from the MH). */
    COMPUTE_HOST,
    /**
     * Nothing answers there: a free slot, PMS2's unbacked local slot, outside the view, or a CH's
     * own range in the MH's space used by that CH.
     */
    UNMAPPED
  }

  public Resolution {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(mhAddress, "mhAddress");
    hops = List.copyOf(hops);
  }

  static Resolution local(int viewer, long address) {
    return new Resolution(viewer, address, Kind.LOCAL, viewer, address, null,
        viewer == 0 ? OptionalLong.of(address) : OptionalLong.empty(), List.of(), null);
  }

  static Resolution reached(int viewer, long address, int host, long offset, Plane plane,
      long mhAddress, List<NtbHop> hops) {
    return new Resolution(viewer, address, host == 0 ? Kind.MANAGEMENT_HOST : Kind.COMPUTE_HOST,
        host, offset, plane, OptionalLong.of(mhAddress), hops, null);
  }

  static Resolution unmapped(int viewer, long address, OptionalLong mhAddress, Plane plane,
      List<NtbHop> hops, String reason) {
    return new Resolution(viewer, address, Kind.UNMAPPED, -1, -1, plane, mhAddress, hops, reason);
  }

  public boolean mapped() {
    return kind != Kind.UNMAPPED;
  }

  /**
   * One line: {@code CH1 0x18_0000_0040 -> CH2 offset 0x40 via CH1 primary NTB (virtual-side
   * BAR), MH 0x10_0000_0040, CH2 primary NTB (link-side BAR)}.
   */
  public String describe() {
    StringBuilder sb = new StringBuilder(name(viewer)).append(' ')
        .append(MemorySizes.hex(address)).append(" -> ");
    if (kind == Kind.UNMAPPED) {
      sb.append("unmapped: ").append(reason);
    } else if (kind == Kind.LOCAL) {
      sb.append("its own memory at ").append(MemorySizes.hex(offset)).append(" (no NTB)");
    } else {
      sb.append(name(host)).append(" offset ").append(MemorySizes.hex(offset));
    }
    if (!hops.isEmpty() || (kind != Kind.LOCAL && mhAddress.isPresent())) {
      List<String> path = new ArrayList<>();
      for (NtbHop hop : hops) {
        path.add(hop.toString());
        if (hop.side() == NtbHop.Side.VIRTUAL && mhAddress.isPresent()) {
          path.add("MH " + MemorySizes.hex(mhAddress.getAsLong()));
        }
      }
      if (!path.isEmpty()) {
        sb.append(" via ").append(String.join(", ", path));
      }
    }
    return sb.toString();
  }

  private static String name(int host) {
    return host == 0 ? "MH" : "CH" + host;
  }
}
