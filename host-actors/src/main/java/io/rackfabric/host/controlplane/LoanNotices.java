package io.rackfabric.host.controlplane;

import io.rackfabric.fabric.endpoint.GuestAddress;
import io.rackfabric.persistence.controller.ControllerEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a master tells borrowers when the controller ends their loans without their asking (Device
 * Lending section 4's surprise removal): it follows the loans in the events the controller
 * accepted, with the guest channel of the driver that asked for each borrow, and when a lender is
 * removed ({@link ControllerEvent.HostRemoved}) gives a {@link ControlPlaneHost.LoanEnded} for each
 * borrower of its devices, to send on that channel. It knows only the loans made while it served:
 * a master that took over knows no borrower's channel (not modelled yet). Plain; not thread-safe:
 * the host's actor's own.
 */
final class LoanNotices {

  /** A notice and where it goes. */
  record Notice(GuestAddress to, ControlPlaneHost.LoanEnded loanEnded) {}

  private record Loan(String borrower, GuestAddress driver) {}

  /** Each offered device's lender. */
  private final Map<String, String> lenders = new TreeMap<>();
  /** Each lent device's loan, whose borrow came on a channel. */
  private final Map<String, Loan> loans = new TreeMap<>();

  /**
   * The controller accepted {@code events}, asked for by the driver at {@code driver} (null: not on
   * a channel); returns the notices they call for, in device order.
   */
  List<Notice> accepted(List<ControllerEvent> events, GuestAddress driver) {
    List<Notice> out = new ArrayList<>();
    for (ControllerEvent e : events) {
      if (e instanceof ControllerEvent.DeviceOffered o) {
        lenders.put(o.device(), o.lender());
      } else if (e instanceof ControllerEvent.OfferWithdrawn w) {
        lenders.remove(w.device());
        loans.remove(w.device());
      } else if (e instanceof ControllerEvent.DeviceLent l) {
        if (driver != null) {
          loans.put(l.device(), new Loan(l.borrower(), driver));
        }
      } else if (e instanceof ControllerEvent.DeviceReturned r) {
        loans.remove(r.device());
      } else if (e instanceof ControllerEvent.HostRemoved h) {
        out.addAll(removed(h));
      }
    }
    return out;
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
        out.add(new Notice(loan.driver(), new ControlPlaneHost.LoanEnded(device, h.host(), loan.borrower(), h.at(),
            "lender=" + h.host() + " was removed from the rack at=" + h.at() + "ns")));
      }
    }
    loans.values().removeIf(l -> l.borrower().equals(h.host())); // what the removed host borrowed ended with it
    return out;
  }
}
