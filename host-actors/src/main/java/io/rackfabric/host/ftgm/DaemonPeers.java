package io.rackfabric.host.ftgm;

import io.rackfabric.fabric.endpoint.GuestAddress;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.wire.WireMessage;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Where the NIC's fault-tolerance daemon reaches its peers on guest channels: the card's guest on
 * the NIC's endpoint and each VF owner's on its host's endpoint ({@link GuestAddress}, learnt from
 * them). What it sends there is a model-time event of the receiving endpoint, the channel's
 * lookahead after its sending time. Plain bookkeeping for {@link NicFaultDaemon}; not thread-safe.
 */
final class DaemonPeers {

  private final GuestAddress self;
  private GuestAddress card;
  private final Map<Integer, GuestAddress> owners = new HashMap<>();
  /** Peers asked for their address and not answered yet, by key (the daemon's card key or a VF). */
  private final Set<Integer> awaited = new HashSet<>();

  /** @param self the daemon's own address: where the card and the owners answer */
  DaemonPeers(GuestAddress self) {
    this.self = self;
  }

  GuestAddress self() {
    return self;
  }

  /** Peer {@code key} was asked for its address. */
  void asked(int key) {
    awaited.add(key);
  }

  /** Peer {@code key} answered (with its address, or not at all). */
  void answered(int key) {
    awaited.remove(key);
  }

  /** Whether an address asked for has not come yet: what the daemon sends now might go astray. */
  boolean awaiting() {
    return !awaited.isEmpty();
  }

  void cardAt(GuestAddress address) {
    card = address;
  }

  void ownerAt(int vf, GuestAddress address) {
    owners.put(vf, address);
  }

  /** {@code command} for the card, sent at model time {@code at}; empty while its address is unknown. */
  Optional<MemoryEndpoint.SendToPeer> toCard(WireMessage command, long at) {
    return Optional.ofNullable(card).map(a -> a.send(command, at));
  }

  /** {@code message} for the owner of {@code vf}, sent at {@code at}; empty while its address is unknown. */
  Optional<MemoryEndpoint.SendToPeer> toOwner(int vf, WireMessage message, long at) {
    return Optional.ofNullable(owners.get(vf)).map(a -> a.send(message, at));
  }
}
