package io.rackfabric.host.enumeration;

import akka.actor.NoSerializationVerificationNeeded;
import java.util.List;

/**
 * What the management host tells every other host when a host is plugged into a slot or pulled
 * out of it (Multi-peer: "the RC processor notifies all other EP processors"): the slot, the host,
 * what the slot keeps in each group (bus range and address block, unchanged by the event), and
 * who must be told, in slot order.
 */
public record SlotNotification(
    Change change, int slot, String host, List<SlotReservation> reservations, List<String> recipients)
    implements NoSerializationVerificationNeeded {

  public enum Change {
    ADDED,
    REMOVED
  }

  public SlotNotification {
    reservations = List.copyOf(reservations);
    recipients = List.copyOf(recipients);
  }
}
