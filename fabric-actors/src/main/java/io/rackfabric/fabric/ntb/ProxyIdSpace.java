package io.rackfabric.fabric.ntb;

import io.rackfabric.fabric.tlp.Bdf;

/**
 * The requester IDs one side of an NTB hands out as proxies. Completions find their way back to
 * the NTB by ID routing, so every proxy ID must route to the NTB's endpoint on that side:
 *
 * <ul>
 *   <li>an endpoint alone on its bus (the virtual side below a root or downstream port, or a
 *       link side given a bus of its own) uses ARI numbering: device and function fields form one
 *       8-bit function number, so 256 IDs {@code (bus, 0..255)}, all routed by the bus alone;
 *   <li>an endpoint sharing its bus (the link side on the switch's internal bus, where ID routing
 *       picks the port by device number) keeps its device number and has 8 IDs, one per function.
 * </ul>
 *
 * @param device the device number kept in every ID, or -1 with ARI
 */
public record ProxyIdSpace(int bus, int device) {

  public static final int ARI_FUNCTIONS = 256;
  public static final int FUNCTIONS = 8;

  public ProxyIdSpace {
    if (bus < 0 || bus > 255) {
      throw new IllegalArgumentException("bus=" + bus + " not in [0,255]");
    }
    if (device < -1 || device > 31) {
      throw new IllegalArgumentException("device=" + device + " not in [-1,31] (-1: ARI)");
    }
  }

  /** 256 ARI IDs on a bus of the endpoint's own. */
  public static ProxyIdSpace ari(int bus) {
    return new ProxyIdSpace(bus, -1);
  }

  /**
   * The virtual side's proxies: ARI when the virtual-side endpoint is device 0 (alone below the
   * port its link hangs off), else the 8 functions of its device.
   */
  public static ProxyIdSpace virtualSide(NtbConfig config) {
    int bdf = config.virtualSideBdf();
    return Bdf.device(bdf) == 0 ? ari(Bdf.bus(bdf)) : new ProxyIdSpace(Bdf.bus(bdf), Bdf.device(bdf));
  }

  /**
   * The link side's proxies: ARI on the NTB's link-side bus when it has one, else the 8 functions
   * of device {@code portNumber} on the switch's internal bus (bus 0 while a virtual switch has
   * no upstream port and so no internal bus, {@code internalBus} -1).
   */
  public static ProxyIdSpace linkSide(NtbConfig config, int internalBus, int portNumber) {
    return config.linkSideBus() >= 0
        ? ari(config.linkSideBus())
        : new ProxyIdSpace(Math.max(0, internalBus), portNumber);
  }

  /** The proxies of {@code direction}'s table. */
  public static ProxyIdSpace of(NtbConfig config, NtbDirection direction, int internalBus, int portNumber) {
    return direction == NtbDirection.TO_VIRTUAL
        ? virtualSide(config)
        : linkSide(config, internalBus, portNumber);
  }

  public boolean isAri() {
    return device < 0;
  }

  public int capacity() {
    return isAri() ? ARI_FUNCTIONS : FUNCTIONS;
  }

  /** Proxy ID number {@code index}, which must be below {@link #capacity()}. */
  public int id(int index) {
    if (index < 0 || index >= capacity()) {
      throw new IllegalArgumentException("index=" + index + " not in [0," + (capacity() - 1) + "]");
    }
    return isAri() ? (bus << 8) | index : Bdf.of(bus, device, index);
  }

  /** The index of proxy ID {@code id}, or -1 when the ID is not one of this space's. */
  public int indexOf(int id) {
    if (Bdf.bus(id) != bus) {
      return -1;
    }
    if (isAri()) {
      return id & 0xFF;
    }
    return Bdf.device(id) == device ? Bdf.function(id) : -1;
  }

  @Override
  public String toString() {
    return isAri()
        ? ARI_FUNCTIONS + " ARI IDs on bus " + String.format("%02x", bus)
        : FUNCTIONS + " IDs " + Bdf.format(id(0)) + ".." + Bdf.function(id(FUNCTIONS - 1));
  }
}
