package io.rackfabric.fabric.endpoint;

import io.rackfabric.fabric.link.LinkEnd;
import io.rackfabric.fabric.link.LinkFrame;
import io.rackfabric.fabric.link.PartnerLink;
import io.rackfabric.fabric.link.PortMessage;
import io.rackfabric.fabric.port.LinkPort;
import io.rackfabric.fabric.rootcomplex.RootRelay;
import io.rackfabric.fabric.tlp.Bdf;
import io.rackfabric.fabric.tlp.Completion;
import io.rackfabric.fabric.tlp.ConfigRead;
import io.rackfabric.fabric.tlp.ConfigWrite;
import io.rackfabric.fabric.tlp.ErrorMessage;
import io.rackfabric.fabric.tlp.FabricMessage;
import io.rackfabric.fabric.tlp.MemRead;
import io.rackfabric.fabric.tlp.MemWrite;
import io.rackfabric.fabric.tlp.Tlp;
import org.slf4j.Logger;

/**
 * Routes a memory endpoint's model-time events, in its synchronizer's order, to the part that
 * handles each: a TLP from the link to the root's relay, the completer, the requester or the AER
 * sink; its own timed events (the partner gone, traffic due, a guest's wake or message, a write or
 * read put off to its time, a configuration request's time-out) to their owners. Not thread-safe:
 * the endpoint actor's own.
 */
final class EndpointEvents {

  private final String id;
  private final LinkEnd link;
  private final LinkPort port;
  private final EndpointTarget target;
  private final EndpointRequester requester;
  private final RequestIntake intake;
  private final GuestSide guests;
  private final AerSink aer;
  /** A relaying root's peer-to-peer path back down its link, or null. */
  private final RootRelay relay;
  private final EndpointManagement management;
  private final Logger log;

  EndpointEvents(String id, LinkEnd link, LinkPort port, EndpointTarget target, EndpointRequester requester,
      RequestIntake intake, GuestSide guests, AerSink aer, RootRelay relay, EndpointManagement management, Logger log) {
    this.management = management;
    this.id = id;
    this.link = link;
    this.port = port;
    this.target = target;
    this.requester = requester;
    this.intake = intake;
    this.guests = guests;
    this.aer = aer;
    this.relay = relay;
    this.log = log;
  }

  /** Handles one model-time event. */
  void timed(PortMessage event) {
    if (event instanceof PartnerLink.Gone g) {
      port.partnerGoneAtItsTime(g);
    } else if (event instanceof LinkFrame f) {
      frame(f);
    } else if (event == EndpointRequester.PlanStart.INSTANCE) {
      requester.traffic().due();
    } else if (management.timed(event)) {
      return; // the fabric manager's discovery is due
    } else if (guests.timed(event)) {
      return; // a guest's wake or message: the guest is called
    } else if (event instanceof MemoryEndpoint.Write w) {
      intake.write(w);
    } else if (event instanceof MemoryEndpoint.Read r) {
      intake.read(r);
    } else if (event instanceof EndpointRequester.ConfigTimedOut t) {
      requester.configTimedOut(t);
    }
  }

  /** A frame from the link at its model time. */
  void frame(LinkFrame frame) {
    long arrival = link.onFrame(frame);
    if (arrival < 0) {
      return;
    }
    Tlp tlp = LinkEnd.tlpOf(frame);
    if (relay != null && relay.takes(tlp, arrival)) {
      // relayed back down the link
    } else if (tlp instanceof MemWrite w) {
      target.memWrite(w, arrival);
    } else if (tlp instanceof MemRead r) {
      target.memRead(r, arrival);
    } else if (tlp instanceof Completion c) {
      if (!requester.completion(c, arrival)) {
        log.warn("Endpoint [{}] unexpected completion for {} (tag {}), dropped", id, Bdf.format(c.requester()),
            c.tag());
      }
    } else if (tlp instanceof ConfigRead || tlp instanceof ConfigWrite) {
      target.config(tlp, arrival);
    } else if (tlp instanceof ErrorMessage e) {
      aer.received(e, arrival);
    } else if (tlp instanceof FabricMessage m) {
      management.arrived(m, arrival);
    }
    link.free(tlp, arrival);
  }
}
