package io.rackfabric.host.controlplane;

import io.rackfabric.fabric.endpoint.GuestAddress;
import io.rackfabric.persistence.controller.ControllerEvent;
import java.util.List;
import org.slf4j.Logger;

/**
 * A management host's part in telling borrowers their loans ended: the borrows' channels as they
 * arrive ({@link BorrowerChannels}, handed to the backup with each loan's events), the loans in the
 * events the controller accepted or the backup replicated ({@link LoanNotices}), and the notices a
 * lender's removal calls for, sent on the borrowers' channels. Not thread-safe: the host's actor's
 * own (but {@link #channels()}, which its controller's replication step reads).
 */
final class LoanTracking {

  private final String name;
  private final HostGuest guest;
  private final Logger log;
  private final LoanNotices notices = new LoanNotices();
  private final BorrowerChannels channels = new BorrowerChannels();

  LoanTracking(String name, HostGuest guest, Logger log) {
    this.name = name;
    this.guest = guest;
    this.log = log;
  }

  /** A request arrived on a channel: a borrow's channel is kept for its loan. */
  void arrived(ControlPlaneHost.ClientRequest r) {
    channels.arrived(r);
  }

  BorrowerChannels channels() {
    return channels;
  }

  /**
   * This master's controller accepted {@code events}, asked for on {@code channel} (null: not on
   * one), answered at model time {@code at}: the borrowers of a removed lender's devices are told.
   */
  void accepted(List<ControllerEvent> events, GuestAddress channel, long at) {
    for (LoanNotices.Notice n : notices.accepted(events, channel)) {
      ControlPlaneHost.LoanEnded ended = n.loanEnded();
      if (n.to() == null) {
        log.warn("Host [{}]: knows no channel of {} to tell it its loan of {} ended: {}", name, ended.borrower(),
            ended.device(), ended.reason());
      } else if (guest.running()) {
        log.info("Host [{}]: tells {} its loan of {} ended: {}", name, ended.borrower(), ended.device(),
            ended.reason());
        guest.send(n.to(), ended, at);
      }
    }
  }

  /**
   * The backup's replica persisted {@code r}: the host learns its loans (and their channels) for a
   * take-over, in journal order (the replica writes in that order); the master tells.
   */
  void replicated(ControlPlaneHost.Replicate r) {
    notices.accepted(r.events(), r.loanChannel());
  }

  /** A rejoining host's journal is rewritten: what it knew of the loans goes. */
  void journalRewritten() {
    notices.forgetLoans();
  }

  /** Events written into a rejoining host's rewritten journal: the loans are learnt again, without channels. */
  void rewritten(List<ControllerEvent> events) {
    notices.accepted(events, null);
  }
}
