package io.rackfabric.fabric.routing;

import io.rackfabric.fabric.ntb.NtbConfig;
import io.rackfabric.fabric.wire.WireMessage;

/**
 * One port's routing-relevant configuration. A transparent port has bridge registers; an NTB port
 * has the NTB's configuration instead, whose link-side BARs are what it claims in the switch.
 *
 * @param number the port number, which is also its device number on the switch's internal bus
 * @param virtualSwitch the virtual switch (1 or 2) the port belongs to; ports of different
 *     virtual switches never forward to each other
 * @param acsRedirect a downstream port's ACS peer-to-peer request redirect: a memory request
 *     entering here for another downstream port of its virtual switch goes upstream instead, to
 *     the root (whose IOMMU must see it, Device Lending section 6)
 */
public record PortConfig(
    String name, int number, PortRole role, int virtualSwitch, BridgeRegisters bridge, NtbConfig ntb,
    boolean acsRedirect)
    implements WireMessage {

  /** A port without ACS redirect. */
  public PortConfig(String name, int number, PortRole role, int virtualSwitch, BridgeRegisters bridge, NtbConfig ntb) {
    this(name, number, role, virtualSwitch, bridge, ntb, false);
  }

  public PortConfig {
    if (number < 0 || number > 31) {
      throw new IllegalArgumentException("port " + name + ": number=" + number + " not in [0,31]");
    }
    if (virtualSwitch < 1 || virtualSwitch > 2) {
      throw new IllegalArgumentException(
          "port " + name + ": virtual-switch=" + virtualSwitch + " not in {1,2}");
    }
    if (role == PortRole.NTB ? ntb == null : bridge == null) {
      throw new IllegalArgumentException(
          "port " + name + ": role=" + role + " needs " + (role == PortRole.NTB ? "ntb" : "bridge"));
    }
    if (acsRedirect && role != PortRole.DOWNSTREAM) {
      throw new IllegalArgumentException("port " + name + ": acs-redirect is for downstream ports, role=" + role);
    }
  }

  public boolean claimsAddress(long address) {
    return role == PortRole.NTB ? ntb.linkSideClaims(address) : bridge.claimsAddress(address);
  }

  /** Whether ID-routed TLPs for this bus go out through this port (below its bridge). */
  public boolean claimsBus(int bus) {
    return role != PortRole.NTB && role != PortRole.UPSTREAM && bridge.claimsBus(bus);
  }

  public PortConfig withVirtualSwitch(int vs) {
    return new PortConfig(name, number, role, vs, bridge, ntb, acsRedirect);
  }

  public PortConfig withNtb(NtbConfig newNtb) {
    return new PortConfig(name, number, role, virtualSwitch, bridge, newNtb, acsRedirect);
  }

  public PortConfig withBridge(BridgeRegisters newBridge) {
    return new PortConfig(name, number, role, virtualSwitch, newBridge, ntb, acsRedirect);
  }

  public PortConfig withAcsRedirect(boolean redirect) {
    return new PortConfig(name, number, role, virtualSwitch, bridge, ntb, redirect);
  }
}
