package io.rackfabric.fabric.switchchip;

import io.rackfabric.fabric.link.LinkEnd;
import io.rackfabric.fabric.link.LinkFrame;
import io.rackfabric.fabric.routing.PortConfig;
import io.rackfabric.fabric.routing.PortRole;
import io.rackfabric.fabric.routing.RouteDecision;
import io.rackfabric.fabric.routing.SwitchRouter;
import io.rackfabric.fabric.settings.FabricSettings;
import io.rackfabric.fabric.tlp.Completion;
import io.rackfabric.fabric.tlp.ConfigRead;
import io.rackfabric.fabric.tlp.ConfigWrite;
import io.rackfabric.fabric.tlp.ErrorMessage;
import io.rackfabric.fabric.tlp.FabricMessage;
import io.rackfabric.fabric.tlp.Tlp;
import java.util.List;
import org.slf4j.Logger;

/**
 * The TLP paths through one switch port. In from the link: NTB translation, then wherever the
 * router says (a sibling, several for multicast, this port's own registers), or refused. Out to
 * the link from a sibling: NTB translation or a type-0 conversion, then the link under credit flow
 * control, or back into the switch when it cannot leave (an Unsupported Request for a request,
 * its ingress buffer freed). When the link goes down what was queued is lost and the port reports
 * it by AER.
 */
final class PortForwarding {

  private final int number;
  private final FabricSettings settings;
  private final LinkEnd link;
  private final PortConfiguration config;
  private final Crossbar crossbar;
  private final PortErrors errors;
  private final Logger log;
  /** Management packets take their own path (source routes, the chip's device manager). */
  private final PortManagement management;

  PortForwarding(int number, FabricSettings settings, LinkEnd link, PortConfiguration config,
      Crossbar crossbar, PortErrors errors, PortManagement management, Logger log) {
    this.management = management;
    this.number = number;
    this.settings = settings;
    this.link = link;
    this.config = config;
    this.crossbar = crossbar;
    this.errors = errors;
    this.log = log;
  }

  /** A frame from the link, in model-time order. */
  void fromLink(LinkFrame frame) {
    long arrival = link.onFrame(frame);
    if (arrival < 0) {
      return;
    }
    Tlp received = LinkEnd.tlpOf(frame);
    if (received instanceof FabricMessage m) {
      management.fromLink(m, arrival);
      return;
    }
    Tlp tlp = received;
    boolean ntbIn = config.role() == PortRole.NTB;
    if (ntbIn) {
      if (received instanceof ConfigRead || received instanceof ConfigWrite) {
        answerConfig(received, arrival, true);
        link.free(received, arrival);
        return;
      }
      tlp = config.ntb().toLink(received);
      if (tlp == null) {
        reject(received, arrival, "hits no virtual-side BAR of NTB " + config.name());
        link.free(received, arrival);
        return;
      }
    }
    RouteDecision decision = SwitchRouter.route(config.view(), number, tlp);
    if (decision instanceof RouteDecision.Forward f) {
      long ready = arrival + crossing(ntbIn, f.port());
      toSibling(f.port(), new SwitchPort.Forward(tlp, ready, number, number), received, arrival);
    } else if (decision instanceof RouteDecision.Multicast m) {
      int copies = 0;
      for (int port : m.ports()) {
        if (crossbar.has(port)) {
          crossbar.tell(port, new SwitchPort.Forward(tlp, arrival + crossing(ntbIn, port), number, number));
          copies++;
        }
      }
      if (copies == 0) {
        link.free(received, arrival);
      } else {
        crossbar.replicated(received, copies);
      }
    } else if (decision instanceof RouteDecision.LocalConfig lc) {
      if (lc.port() == number) {
        answerConfig(tlp, arrival, false);
        link.free(received, arrival);
      } else {
        toSibling(lc.port(), new SwitchPort.ConfigAccess(tlp, arrival + settings.switchLatencyNs(), number), received,
            arrival);
      }
    } else if (decision instanceof RouteDecision.Unsupported u) {
      reject(tlp, arrival, u.why());
      link.free(received, arrival);
    } else {
      errors.droppedSilently();
      link.free(received, arrival);
    }
  }

  /**
   * The chip crossing from this port to sibling {@code egress}: through an NTB port, in or out,
   * the NTB's whole crossing, else the switch's (see {@link FabricSettings#crossingNs}).
   */
  private long crossing(boolean ntbIn, int egress) {
    PortConfig out = config.view().port(egress);
    return settings.crossingNs(ntbIn, out != null && out.role() == PortRole.NTB);
  }

  private void toSibling(int port, SwitchPort.Command msg, Tlp received, long arrival) {
    if (!crossbar.has(port)) {
      reject(received, arrival, "port " + port + " is not running");
      link.free(received, arrival);
    } else {
      crossbar.tell(port, msg);
    }
  }

  /** PCIe's answer to a TLP from the link nothing claims: UR for requests, drop and count for the rest. */
  private void reject(Tlp tlp, long at, String why) {
    Completion ur = errors.refuse(tlp, config.bdf(), at);
    if (ur != null) {
      log.debug("Port [{}] Unsupported Request: {}", config.name(), why);
      if (!link.offer(ur, at, -1)) {
        errors.lost(1);
      }
    } else {
      log.debug("Port [{}] dropped {}: {}", config.name(), tlp.getClass().getSimpleName(), why);
    }
  }

  /** A TLP from a sibling, to leave through the link. */
  void toLink(SwitchPort.Forward msg) {
    Tlp tlp = msg.tlp();
    long ready = msg.readyAt();
    if (tlp instanceof FabricMessage) {
      // source-routed: neither translated by an NTB nor converted
    } else if (config.role() == PortRole.NTB) {
      Tlp out = config.ntb().toVirtual(tlp);
      if (out == null) {
        bounce(tlp, ready, msg.ingress(), "NTB " + config.name() + " cannot relay it (no link-side BAR or proxy)");
        return;
      }
      tlp = out; // the crossing's time is in readyAt: the ingress port knew the egress is an NTB
    } else if (config.role() == PortRole.DOWNSTREAM) {
      tlp = config.toType0IfOwnBus(tlp);
    }
    if (!link.isUp() && link.counters().linkDowns > 0) {
      // DL_Down after a failure, while the link retrains: PCIe discards (UR for a request) rather
      // than hold TLPs, which would keep their ingress buffer and stall everything behind it.
      bounce(msg.tlp(), ready, msg.ingress(), "link of " + config.name() + " is down, retraining");
      return;
    }
    if (msg.ingress() >= 0) {
      crossbar.queued(msg.ingress());
    }
    if (!link.offer(tlp, ready, msg.ingress())) {
      if (msg.ingress() >= 0) {
        crossbar.unqueued(msg.ingress());
      }
      bounce(msg.tlp(), ready, msg.ingress(), "link of " + config.name() + " is down");
    }
  }

  /** A forwarded TLP cannot leave here: answer it back into the switch and free its buffer. */
  private void bounce(Tlp tlp, long at, int ingress, String why) {
    Completion ur = errors.refuse(tlp, config.bdf(), at);
    if (ur != null) {
      routeGenerated(ur, at);
    }
    log.debug("Port [{}] {}: {}", config.name(), tlp.getClass().getSimpleName(), why);
    if (ingress >= 0) {
      crossbar.consumed(ingress, tlp, at);
    }
  }

  /** Sends a TLP this port created (a completion, an AER message) to where the router says. */
  private void routeGenerated(Tlp tlp, long at) {
    RouteDecision d = SwitchRouter.route(config.view(), number, tlp);
    if (d instanceof RouteDecision.Forward f && crossbar.has(f.port())) {
      // Made by this port's own function (an AER message, a completion), on the switch's side:
      // it crosses an NTB only if it leaves through one.
      crossbar.tell(f.port(), new SwitchPort.Forward(tlp, at + crossing(false, f.port()), -1, number));
    } else if (config.role() != PortRole.UPSTREAM || !(tlp instanceof ErrorMessage)) {
      if (!link.offer(tlp, at, -1)) {
        errors.lost(1);
      }
    }
  }

  /** A sibling received a configuration request for this port's registers. */
  void configAccess(SwitchPort.ConfigAccess msg) {
    Tlp request = msg.request();
    Completion cpl = config.complete(request, msg.readyAt(), false);
    if (crossbar.has(msg.ingress())) {
      config.whenPublished(() -> crossbar.tell(msg.ingress(),
          new SwitchPort.Forward(cpl, msg.readyAt() + settings.switchLatencyNs(), -1, number)));
    }
    crossbar.consumed(msg.ingress(), request, msg.readyAt());
  }

  /** Answers a configuration request that arrived on this port's own link. */
  private void answerConfig(Tlp request, long at, boolean virtualSide) {
    Completion cpl = config.complete(request, at, virtualSide);
    config.whenPublished(() -> {
      if (!link.offer(cpl, at + settings.switchLatencyNs(), -1)) {
        errors.lost(1);
      }
    });
  }

  /** A TLP queued with {@code token} (its ingress port, -1 for one of this port's) left at {@code at}. */
  void transmitted(Object token, Tlp tlp, long at) {
    int ingress = (Integer) token;
    if (ingress >= 0) {
      crossbar.transmitted(ingress, tlp, at);
    }
  }

  /** The link went down at model {@code at}: {@code purged} are lost, and the port reports it. */
  void linkDown(ErrorMessage.Cause cause, long at, List<LinkEnd.Queued> purged) {
    log.info("Port [{}] link down ({}), {} queued TLPs lost", config.name(), cause, purged.size());
    errors.lost(purged.size());
    for (LinkEnd.Queued q : purged) {
      int ingress = (Integer) q.token();
      if (ingress >= 0) {
        crossbar.purged(ingress, q.tlp(), at);
      }
    }
    crossbar.flushAll();
    if (config.role() != PortRole.UPSTREAM) {
      routeGenerated(errors.linkDown(config.bdf(), cause, at), at);
    }
  }

}
