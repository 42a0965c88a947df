package io.rackfabric.fabric.endpoint;

import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.stats.EndpointStats.BarWindowRefusal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The BAR windows of lendable devices as a borrower's root reaches them through NTBs (Device
 * Lending section 4): address ranges of the root's own domain that lead to another host's device,
 * open only while the device is hot-added into this host, that is while the host holds its loan.
 *
 * <p>A device's windows are gated closed first ({@link #gate}); {@link #hotAdd} opens them when a
 * borrow is accepted and {@link #hotRemove} closes them at its return. A request any byte of which
 * lies in a closed window never leaves the root: no bridge of the host claims the address, so a
 * read ends in a master abort (an Unsupported Request completion) and a posted write is dropped;
 * both are counted per device ({@link #refusedRead}, {@link #refusedWrite}). Addresses outside
 * every gated window are not this class's business: they go as before.
 *
 * <p>Not thread-safe: the endpoint actor's own. {@link #closedDevice} allocates nothing.
 */
public final class BarWindows {

  private static final class Gated {
    final List<AddressRange> ranges;
    boolean open;
    long refusedReads;
    long refusedWrites;

    Gated(List<AddressRange> ranges) {
      this.ranges = List.copyOf(ranges);
    }
  }

  private final Map<String, Gated> devices = new LinkedHashMap<>();
  /** The devices whose windows are closed now, for the data path's quick answer. */
  private int closed;

  /**
   * Gates {@code device}'s windows at {@code ranges}, closed (the device not yet hot-added). A
   * device gated again gets the new ranges and is closed again.
   *
   * @return null when done, else why not, naming the value (nothing changed)
   */
  public String gate(String device, List<AddressRange> ranges) {
    if (device == null || device.isBlank()) {
      return "device='" + device + "' is blank";
    }
    if (ranges == null || ranges.isEmpty()) {
      return "device=" + device + " has no BAR window to gate";
    }
    for (AddressRange r : ranges) {
      if (r == null) {
        return "device=" + device + " has a null window in " + ranges;
      }
    }
    for (Map.Entry<String, Gated> e : devices.entrySet()) {
      if (e.getKey().equals(device)) {
        continue;
      }
      for (AddressRange mine : ranges) {
        for (AddressRange theirs : e.getValue().ranges) {
          if (mine.overlaps(theirs)) {
            return "device=" + device + "'s window " + mine + " overlaps device=" + e.getKey() + "'s " + theirs;
          }
        }
      }
    }
    Gated before = devices.put(device, new Gated(ranges));
    if (before == null || before.open) {
      closed++;
    }
    return null;
  }

  /**
   * Opens {@code device}'s windows: the device is hot-added.
   *
   * @return null when done (also when already open), else why not (the device has no gated window)
   */
  public String hotAdd(String device) {
    Gated g = devices.get(device);
    if (g == null) {
      return "device=" + device + " has no gated BAR window here";
    }
    if (!g.open) {
      g.open = true;
      closed--;
    }
    return null;
  }

  /**
   * Closes {@code device}'s windows: the device is hot-removed.
   *
   * @return null when done (also when already closed), else why not (the device has no gated window)
   */
  public String hotRemove(String device) {
    Gated g = devices.get(device);
    if (g == null) {
      return "device=" + device + " has no gated BAR window here";
    }
    if (g.open) {
      g.open = false;
      closed++;
    }
    return null;
  }

  /** Whether {@code device}'s windows are open (false for a device not gated). */
  public boolean isOpen(String device) {
    Gated g = devices.get(device);
    return g != null && g.open;
  }

  /**
   * The device whose closed window holds any byte of {@code length} bytes at {@code address}, or
   * null when the access may go.
   */
  public String closedDevice(long address, int length) {
    if (closed == 0) {
      return null;
    }
    long last = address + Math.max(1, length) - 1;
    if (Long.compareUnsigned(last, address) < 0) {
      last = -1L; // wraps past the top: up to the last address
    }
    for (Map.Entry<String, Gated> e : devices.entrySet()) {
      Gated g = e.getValue();
      if (g.open) {
        continue;
      }
      for (int i = 0; i < g.ranges.size(); i++) {
        AddressRange r = g.ranges.get(i);
        if (Long.compareUnsigned(r.base(), last) <= 0 && Long.compareUnsigned(address, r.limit()) <= 0) {
          return e.getKey();
        }
      }
    }
    return null;
  }

  /** Counts a read refused at {@code device}'s closed window. */
  public void refusedRead(String device) {
    Gated g = devices.get(device);
    if (g != null) {
      g.refusedReads++;
    }
  }

  /** Counts a posted write dropped at {@code device}'s closed window. */
  public void refusedWrite(String device) {
    Gated g = devices.get(device);
    if (g != null) {
      g.refusedWrites++;
    }
  }

  /** Every gated device with its refusals so far, in the order they were gated. */
  public List<BarWindowRefusal> refusals() {
    List<BarWindowRefusal> out = new ArrayList<>();
    devices.forEach((d, g) -> out.add(new BarWindowRefusal(d, g.open, g.refusedReads, g.refusedWrites)));
    return out;
  }
}
