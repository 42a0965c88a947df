package io.rackfabric.host.failover;

/** How the MH tells the CHs about a route change (Ladon section 5.3). */
public enum NotificationMode {
  /** One mailbox write per CH, the next after the previous CH acknowledged: the prototype's way. */
  UNICAST,
  /** One write into the healthy plane's multicast window, replicated by the switch to every CH. */
  MULTICAST
}
