package io.rackfabric.fabric.link;

/** Port states of AS-FM Fig. 3 (the AS port state machine, a superset of PCIe's DL states). */
public enum DataLinkState {
  /** No partner, or the link is down. */
  DL_INACTIVE,
  /** Exchanging InitFC DLLPs with the partner. */
  DL_INIT,
  /** Flow control initialised; only configuration, completions and messages may pass. */
  DL_PROTECTED,
  /** Fully operational. */
  DL_ACTIVE
}
