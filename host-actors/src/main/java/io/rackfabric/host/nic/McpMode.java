package io.rackfabric.host.nic;

import io.rackfabric.fabric.wire.WireMessage;

/**
 * Which protocol the message firmware runs (FTGM sections 3 and 4).
 *
 * <ul>
 *   <li>{@link #GM}: the baseline. The firmware numbers each connection's packets itself, the
 *       receiver ACKs as soon as a valid packet arrives, and a hung card is only reloaded.
 *   <li>{@link #FTGM}: the host numbers every (remote node, port) stream and keeps copies of its
 *       tokens; the receiver ACKs only once the message reached its host buffer (the commit point
 *       of 4.1); a hung card is restored from the host's copies.
 * </ul>
 */
public enum McpMode implements WireMessage {
  GM,
  FTGM
}
