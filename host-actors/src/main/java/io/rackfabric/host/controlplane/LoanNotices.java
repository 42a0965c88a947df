package io.rackfabric.host.controlplane;

import io.rackfabric.fabric.endpoint.GuestAddress;
import io.rackfabric.persistence.controller.ControllerEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a master tells borrowers when the controller ends their loans without their asking (Device
 * Lending section 4's surprise removal): it follows the loans in the controller's events and the
 * guest channel each borrower's borrows came on, and when a lender is removed ({@link
 * ControllerEvent.HostRemoved}) gives a {@link ControlPlaneHost.LoanEnded} for each borrower of its
 * devices, to send on that channel.
 *
 * <p>The master follows the events its controller accepted; the backup the events its replica
 * persisted, with the channel of each loan the master handed with them, so that after a take-over the new
 * master tells the borrowers of loans made before it. A rejoining host, whose journal is rewritten,
 * forgets what it knew ({@link #forgetLoans}) and relearns the loans from the events it is given,
 * without their channels. A borrower whose channel is not known is named in a notice with no
 * channel. Plain; not thread-safe: the host's actor's own.
 */
final class LoanNotices {

  /** A notice and where it goes: {@code to} null when the borrower's channel is not known. */
  record Notice(GuestAddress to, ControlPlaneHost.LoanEnded loanEnded) {}

  /** Each offered device's lender. */
  private final Map<String, String> lenders = new TreeMap<>();
  /** A loan, and the channel its borrow came on (null: not on one, or not known). */
  private record Loan(String borrower, GuestAddress channel) {}

  /** Each lent device's loan. */
  private final Map<String, Loan> loans = new TreeMap<>();

  /**
   * The controller accepted (or the backup replicated) {@code events}, asked for on {@code channel}
   * (null: not on a channel, or not known); returns the notices they call for, in device order.
   */
  List<Notice> accepted(List<ControllerEvent> events, GuestAddress channel) {
    List<Notice> out = new ArrayList<>();
    for (ControllerEvent e : events) {
      if (e instanceof ControllerEvent.DeviceOffered o) {
        lenders.put(o.device(), o.lender());
      } else if (e instanceof ControllerEvent.OfferWithdrawn w) {
        lenders.remove(w.device());
        loans.remove(w.device());
      } else if (e instanceof ControllerEvent.DeviceLent l) {
        loans.put(l.device(), new Loan(l.borrower(), channel));
      } else if (e instanceof ControllerEvent.DeviceReturned r) {
        loans.remove(r.device());
      } else if (e instanceof ControllerEvent.HostRemoved h) {
        out.addAll(removed(h));
      }
    }
    return out;
  }

  /** Forgets every offer and loan: the journal they came from is rewritten. */
  void forgetLoans() {
    lenders.clear();
    loans.clear();
  }

  private List<Notice> removed(ControllerEvent.HostRemoved h) {
    List<Notice> out = new ArrayList<>();
    for (Map.Entry<String, String> offer : List.copyOf(lenders.entrySet())) {
      if (!offer.getValue().equals(h.host())) {
        continue;
      }
      String device = offer.getKey();
      lenders.remove(device);
      Loan loan = loans.remove(device);
      if (loan != null && !loan.borrower().equals(h.host())) {
        out.add(new Notice(loan.channel(), new ControlPlaneHost.LoanEnded(device, h.host(), loan.borrower(), h.at(),
            "lender=" + h.host() + " was removed from the rack at=" + h.at() + "ns")));
      }
    }
    loans.values().removeIf(l -> l.borrower().equals(h.host())); // what the removed host borrowed ended with it
    return out;
  }
}
