package io.rackfabric.persistence.controller;

/** The management host's PF driver of one NIC. */
public enum PfDriverState {
  /** Found by enumeration, driver not loaded: no VF exists yet. */
  UNBOUND,
  /** Driver initialised with SR-IOV enabled: VFs can be assigned. */
  READY
}
