package io.rackfabric.persistence.controller;

/** What enumeration found at a function, as far as the controller's state cares. */
public enum DeviceKind {
  /** A plain endpoint (a lendable device, a memory endpoint). */
  ENDPOINT,
  /** A bridge or switch port: it has windows but no driver state here. */
  BRIDGE,
  /** A non-transparent bridge: translation registers and requester-ID tables. */
  NTB,
  /** An SR-IOV NIC: one PF, driven by the management host, and VFs lent to compute hosts. */
  NIC
}
