package io.rackfabric.host.controlplane;

import io.rackfabric.fabric.endpoint.GuestAddress;
import io.rackfabric.persistence.controller.Controller;
import io.rackfabric.persistence.controller.ControllerEvent;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The guest channel each borrow came on, by device and borrower: learnt by the master's host as a
 * borrow arrives, taken by its controller's replication step (another actor, hence the concurrent
 * map) to hand a loan's channel to the backup with the loan's events. A borrower's borrows come on
 * its own control-plane client's channel, so two borrows of one pair give the same channel.
 */
final class BorrowerChannels {

  private record Borrow(String device, String borrower) {}

  private final Map<Borrow, GuestAddress> channels = new ConcurrentHashMap<>();

  /** Request {@code r} arrived on a channel: remembered when it is a borrow. */
  void arrived(ControlPlaneHost.ClientRequest r) {
    if (r.request().operation() instanceof Controller.BorrowDevice b) {
      channels.put(new Borrow(b.device(), b.borrower()), r.client());
    }
  }

  /**
   * The channel of the borrow {@code events} make a loan of, taken (a later loan of the pair has
   * its own borrow), or null (no loan, or not asked on a channel).
   */
  GuestAddress of(List<ControllerEvent> events) {
    for (ControllerEvent e : events) {
      if (e instanceof ControllerEvent.DeviceLent l) {
        return channels.remove(new Borrow(l.device(), l.borrower()));
      }
    }
    return null;
  }
}
