package io.rackfabric.fabric.switchchip;

import io.rackfabric.fabric.link.DataLinkState;
import io.rackfabric.fabric.link.LinkEnd;
import io.rackfabric.fabric.management.ManagementAgent;
import io.rackfabric.fabric.routing.PortConfig;
import io.rackfabric.fabric.routing.PortRole;
import io.rackfabric.fabric.settings.FabricSettings;
import io.rackfabric.fabric.tlp.FabricMessage;
import java.util.Optional;
import org.slf4j.Logger;

/**
 * The management packets through one switch port (AS-FM section 3.2, carried as vendor-defined
 * messages, {@link FabricMessage}). One port of each chip, its lowest-numbered, hosts the chip's
 * device manager ({@link ManagementAgent}); every port hands it what is for the chip, and tells
 * it when its own link changes state, across the chip like any sibling message (a crossing's
 * model time). A message going on crosses the chip to the port its next turn names, as a TLP
 * does, under the same credits; one whose turn names no port of the chip is answered by the
 * device manager as unroutable.
 */
final class PortManagement {

  private final int number;
  private final FabricSettings settings;
  private final LinkEnd link;
  private final PortConfiguration config;
  private final Crossbar crossbar;
  private final PortErrors errors;
  /** The chip's device manager when this port hosts it, else null. */
  private final ManagementAgent agent;
  /** The port that hosts it; -1: the chip has none. */
  private final int managerPort;
  /** This port's own part of a window order, applied in the event that carries it out. */
  private final java.util.function.Consumer<SwitchPort.SetWindows> windowsHere;
  private final Logger log;

  PortManagement(int number, FabricSettings settings, LinkEnd link, PortConfiguration config, Crossbar crossbar,
      PortErrors errors, ManagementAgent agent, int managerPort,
      java.util.function.Consumer<SwitchPort.SetWindows> windowsHere, Logger log) {
    this.number = number;
    this.settings = settings;
    this.link = link;
    this.config = config;
    this.crossbar = crossbar;
    this.errors = errors;
    this.agent = agent;
    this.managerPort = managerPort;
    this.windowsHere = windowsHere;
    this.log = log;
  }

  /** A management packet from the link, at model {@code arrival}. */
  void fromLink(FabricMessage message, long arrival) {
    if (message.arrived()) {
      toManager(message, arrival, null);
      link.free(message, arrival);
      return;
    }
    int egress = message.nextTurn();
    FabricMessage next = message.passedThrough(number);
    if (egress == number) {
      offer(next, arrival + settings.switchLatencyNs());
      link.free(message, arrival);
    } else if (crossbar.has(egress)) {
      crossbar.tell(egress, new SwitchPort.Forward(next, arrival + crossing(number, egress), number, number));
    } else {
      toManager(message, arrival, "turn " + message.pointer() + " names port " + egress + ", which leads nowhere from "
          + config.name());
      link.free(message, arrival);
    }
  }

  /** Hands {@code message} to the chip's device manager; {@code unroutable} says why it cannot go on, null when it is for the chip. */
  private void toManager(FabricMessage message, long arrival, String unroutable) {
    if (managerPort < 0) {
      errors.droppedSilently();
    } else if (managerPort == number) {
      manage(new SwitchPort.Manage(message, arrival + settings.switchLatencyNs(), number, unroutable));
    } else if (crossbar.has(managerPort)) {
      crossbar.tell(managerPort,
          new SwitchPort.Manage(message, arrival + crossing(number, managerPort), number, unroutable));
    } else {
      errors.droppedSilently();
    }
  }

  /** At the hosting port: the device manager takes a packet and its answer leaves toward the ingress port. */
  void manage(SwitchPort.Manage msg) {
    if (msg.unroutable() == null && msg.message().packet() instanceof io.rackfabric.fabric.management.ElectionClaim) {
      agent.onClaim(msg.message(), msg.ingress(), msg.readyAt()).forEach(c -> send(c, msg.readyAt()));
      return;
    }
    Optional<FabricMessage> answer = msg.unroutable() == null
        ? agent.onArrival(msg.message(), msg.ingress(), msg.readyAt())
        : agent.onUnroutable(msg.message(), msg.ingress(), msg.unroutable(), msg.readyAt());
    answer.ifPresent(a -> send(a, msg.readyAt()));
    for (ManagementAgent.PortOrder o : agent.takeOrders()) {
      order(o, msg.readyAt());
    }
    for (ManagementAgent.WindowOrder o : agent.takeWindowOrders()) {
      windows(o, msg.readyAt());
    }
  }

  /**
   * The fabric manager's write gave NTB port {@code o.port()} new windows at model {@code at}: every
   * port of the chip routes by them a crossing later (this one at once), since each decides by the
   * table which port claims an address; the chip's own table takes them too.
   */
  private void windows(ManagementAgent.WindowOrder o, long at) {
    log.debug("Port [{}] NTB port {} windows written at {} ns: link {} virtual {}", config.name(), o.port(), at,
        o.linkBars(), o.virtualBars());
    config.windowsWritten(o);
    windowsHere.accept(new SwitchPort.SetWindows(o, at, number));
    crossbar.forEachSibling(n -> crossbar.tell(n, new SwitchPort.SetWindows(o, at + crossing(number, n), number)));
  }

  /**
   * The fabric manager's write ordered port {@code o.port()} to DL_Active or back to DL_Protected:
   * here at once, on a sibling a crossing later (a model-time message).
   */
  private void order(ManagementAgent.PortOrder o, long at) {
    if (o.port() == number) {
      setActive(new SwitchPort.SetActive(o.active(), at, number));
    } else if (crossbar.has(o.port())) {
      crossbar.tell(o.port(), new SwitchPort.SetActive(o.active(), at + crossing(number, o.port()), number));
    }
  }

  /** At the ordered port, at model {@code msg.at()}: its link activates or goes back to protected. */
  void setActive(SwitchPort.SetActive msg) {
    log.debug("Port [{}] {} at {} ns by the fabric manager", config.name(),
        msg.active() ? "activated" : "deactivated", msg.at());
    link.setActive(msg.active(), msg.at());
  }

  /** This port's link is now in {@code state} (model {@code at}): the device manager hears of it. */
  void linkState(DataLinkState state, long at) {
    if (managerPort == number) {
      portState(new SwitchPort.PortStateChanged(number, state, at, number));
    } else if (managerPort >= 0 && crossbar.has(managerPort)) {
      crossbar.tell(managerPort, new SwitchPort.PortStateChanged(number, state, at + crossing(number, managerPort),
          number));
    }
  }

  /** At the hosting port: a port of the chip changed state; a PI-5 event may follow. */
  void portState(SwitchPort.PortStateChanged msg) {
    agent.onPortState(msg.port(), msg.state(), msg.at()).ifPresent(e -> {
      log.debug("Port [{}] sends a PI-5 event at {} ns: port {} is {}", config.name(), msg.at(), msg.port(),
          msg.state());
      send(e, msg.at());
    });
  }

  /** A packet the device manager made leaves through its first turn at model {@code at}. */
  private void send(FabricMessage out, long at) {
    int egress = out.turns().get(0);
    if (egress == number) {
      offer(out, at);
    } else if (crossbar.has(egress)) {
      crossbar.tell(egress, new SwitchPort.Forward(out, at + crossing(number, egress), -1, number));
    } else {
      errors.lost(1);
    }
  }

  /**
   * Onto this port's own link; lost and counted when the link is down (a link that went down
   * holds nothing while it retrains, as {@link PortForwarding} does for every TLP).
   */
  private void offer(FabricMessage out, long at) {
    if (!link.isUp() || !link.offer(out, at, -1)) {
      errors.lost(1);
    }
  }

  /** The chip's crossing from port {@code from} to port {@code to} (see {@link FabricSettings#crossingNs}). */
  private long crossing(int from, int to) {
    return settings.crossingNs(isNtb(from), isNtb(to));
  }

  private boolean isNtb(int port) {
    PortConfig p = config.view().port(port);
    return p != null && p.role() == PortRole.NTB;
  }
}
