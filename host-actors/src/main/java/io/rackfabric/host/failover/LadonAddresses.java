package io.rackfabric.host.failover;

import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.address.Addresses;
import io.rackfabric.host.memory.GlobalMemoryLayout;
import io.rackfabric.host.memory.Plane;

/**
 * Where Ladon's fail-over protocol keeps its words (Ladon section 5.3), derived from the global memory
 * layout and the control page's local address.
 *
 * <p>Every host has a control page at the same local address. The MH's page holds one 4-byte
 * failure-report mailbox per CH (at 4i) and one acknowledgement word per CH (at 0x400 + 4i); a
 * CH's page holds the MH's route-change notification (0x800) and its response to a report
 * (0x804).
 *
 * <p>A CH whose primary link failed must reach the MH through its secondary NTB, that is through
 * PMS2, but the MH's memory sits in PMS1 only, and VS1's upstream window spans both planes' CH
 * slots, so nothing in [L, P + L + NL) can be routed up to the MH. The MH therefore keeps a second
 * copy of its control page in the top L-slot of PMS2, [2P - L, 2P), above every window, which a
 * switch routes upstream. Each plane's multicast window, through which the MH notifies every CH
 * at once, is the slot after the last CH's, (N + 1)L from the plane's base: the switches' windows
 * for that plane extend over its first page and the NTB chip replicates writes there to every CH's
 * NTB port, each of which translates the page to its CH's control page. Both need N <= P/L - 3.
 */
public record LadonAddresses(GlobalMemoryLayout layout, long controlPage) {

  public static final long REPORTS = 0x000;
  public static final long ACKS = 0x400;
  public static final long NOTIFICATION = 0x800;
  public static final long RESPONSE = 0x804;
  public static final long PAGE = 4096;
  /** How far a plane's switch windows extend past its CH slots to cover the multicast page. */
  public static final long MULTICAST_WINDOW = 1L << 20;
  /** CHs one page's 256 report words (word 0 unused) and an 8-bit host field can name. */
  public static final int MAX_HOSTS = 255;

  public LadonAddresses {
    if (controlPage < 0 || controlPage % PAGE != 0 || controlPage + PAGE > layout.localSubspace()) {
      throw new IllegalArgumentException("control-page=" + Addresses.hex(controlPage)
          + " is not a 4KiB-aligned page inside the local subspace");
    }
    long slots = Long.divideUnsigned(layout.pms2Base(), layout.localSubspace());
    if (layout.computeHosts() > slots - 3) {
      throw new IllegalArgumentException("hosts=" + layout.computeHosts() + ": data-plane fail-over"
          + " needs a multicast slot after the last CH and the MH's mailbox slot at the top of PMS2;"
          + " with P/L=" + slots + " at most " + (slots - 3) + " compute hosts");
    }
    if (layout.computeHosts() > MAX_HOSTS) {
      // CH 256's report word would be the first acknowledgement word, and control words carry the
      // host in 8 bits.
      throw new IllegalArgumentException("hosts=" + layout.computeHosts() + ": the control page has"
          + " report and acknowledgement words for CHs 1.." + MAX_HOSTS + " only");
    }
  }

  public int computeHosts() {
    return layout.computeHosts();
  }

  /** The MH's control page as the MH addresses it, reachable through {@code plane}. */
  public long mhPage(Plane plane) {
    return plane == Plane.PRIMARY
        ? controlPage
        : 2 * layout.pms2Base() - layout.localSubspace() + controlPage;
  }

  /** The MH's extra memory for its PMS2 copy of the control page (a BAR of the MH's root). */
  public AddressRange mhPms2Page() {
    return AddressRange.ofSize(mhPage(Plane.SECONDARY), PAGE);
  }

  /** What the MH watches: the report and acknowledgement words of one of its page copies. */
  public AddressRange mhMailboxes(Plane plane) {
    return AddressRange.ofSize(mhPage(plane), NOTIFICATION);
  }

  /** Where CH {@code ch} writes its failure report, through {@code plane}, in its own space. */
  public long reportSlot(int ch, Plane plane) {
    return chViewOfMh(plane) + REPORTS + 4L * ch;
  }

  /** Where CH {@code ch} writes its acknowledgement, through {@code plane}, in its own space. */
  public long ackSlot(int ch, Plane plane) {
    return chViewOfMh(plane) + ACKS + 4L * ch;
  }

  private long chViewOfMh(Plane plane) {
    return layout.localSubspace() + mhPage(plane);
  }

  /** What a CH watches: its notification and response words. */
  public AddressRange chWords() {
    return AddressRange.ofSize(controlPage + NOTIFICATION, 8);
  }

  /** CH {@code ch}'s notification word as the MH addresses it through {@code plane}. */
  public long notificationOf(int ch, Plane plane) {
    return layout.mhAddress(ch, controlPage + NOTIFICATION, plane);
  }

  /** CH {@code ch}'s response word as the MH addresses it through {@code plane}. */
  public long responseOf(int ch, Plane plane) {
    return layout.mhAddress(ch, controlPage + RESPONSE, plane);
  }

  /** {@code plane}'s multicast page in the MH's space: a write there reaches every CH's page. */
  public AddressRange multicastPage(Plane plane) {
    long base = (plane == Plane.PRIMARY ? 0 : layout.pms2Base())
        + (layout.computeHosts() + 1L) * layout.localSubspace();
    return AddressRange.ofSize(base, PAGE);
  }

  /** {@code plane}'s CH slots plus the multicast window: what the switches route down that plane. */
  public AddressRange planeWindow(Plane plane) {
    AddressRange hosts = layout.mhHostsRange(plane);
    return AddressRange.ofSize(hosts.base(), hosts.size() + MULTICAST_WINDOW);
  }

  /** What a write the MH sees at {@code address} is: a report or an acknowledgement, and whose. */
  public Slot slotAt(long address) {
    for (Plane plane : Plane.values()) {
      long offset = address - mhPage(plane);
      if (offset >= 0 && offset < NOTIFICATION && offset % 4 == 0) {
        boolean ack = offset >= ACKS;
        int ch = (int) ((offset - (ack ? ACKS : REPORTS)) / 4);
        if (ch >= 1 && ch <= layout.computeHosts()) {
          return new Slot(ack, ch, plane);
        }
      }
    }
    return null;
  }

  /** A mailbox word of the MH's: CH {@code ch}'s report or acknowledgement, arrived via {@code plane}. */
  public record Slot(boolean ack, int ch, Plane plane) {}
}
