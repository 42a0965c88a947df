package io.rackfabric.fabric.switchchip;

import akka.actor.NoSerializationVerificationNeeded;
import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import io.rackfabric.fabric.link.DataLinkState;
import io.rackfabric.fabric.link.LinkDirectory;
import io.rackfabric.fabric.link.LinkEnd;
import io.rackfabric.fabric.link.LinkFrame;
import io.rackfabric.fabric.link.LinkParameters;
import io.rackfabric.fabric.link.PartnerLink;
import io.rackfabric.fabric.link.PortMessage;
import io.rackfabric.fabric.management.ManagementAgent;
import io.rackfabric.fabric.ntb.NtbDirection;
import io.rackfabric.fabric.port.LinkPort;
import io.rackfabric.fabric.routing.RoutingTable;
import io.rackfabric.fabric.settings.FabricSettings;
import io.rackfabric.fabric.stats.PortStats;
import io.rackfabric.fabric.time.JoinKeeper;
import io.rackfabric.fabric.time.PortTime;
import io.rackfabric.fabric.tlp.Bdf;
import io.rackfabric.fabric.tlp.ErrorMessage;
import io.rackfabric.fabric.tlp.FabricMessage;
import io.rackfabric.fabric.tlp.Tlp;
import io.rackfabric.fabric.wire.WireMessage;
import java.util.List;
import java.util.Map;

/**
 * One port of a switch chip: a transparent bridge (upstream or downstream) or an NTB port. TLPs
 * from its link are routed by {@link io.rackfabric.fabric.routing.SwitchRouter} and handed to the
 * egress sibling; TLPs from siblings leave through its link under credit flow control. The ingress
 * buffer a TLP occupied is released back to the ingress port only after the TLP left the egress
 * port (in batches), so backpressure reaches the sender's link as in a real switch and nothing
 * queues without bound.
 *
 * <p>The actor only takes messages in model-time order and hands them on: what the port is lives
 * in {@link PortConfiguration}, the TLP paths in {@link PortForwarding}, the siblings and the
 * buffer space crossing the chip in {@link Crossbar}, what it refused or lost in {@link PortErrors}.
 */
public final class SwitchPort extends AbstractBehavior<PortMessage> {

  public sealed interface Command extends PortMessage
      permits Activate, GetStats, ProgramRequesterId, Forward,
          ConfigAccess, CreditsReleased, TableChanged, PortsReassigned, Siblings, Manage, PortStateChanged,
          SetActive, SetWindows {}

  /** Management activation: DL_PROTECTED to DL_ACTIVE. */
  public record Activate() implements Command, WireMessage {}

  public record GetStats(ActorRef<PortStats> replyTo) implements Command, WireMessage {}

  /**
   * Programs an entry of this NTB port's requester-ID table for {@code direction}, ahead of
   * traffic, as the management host does at enumeration: {@code requester} keeps the entry it
   * already has (taken on first use), else takes the lowest free one. Programming hosts in host
   * order on a fresh table gives host i entry i; {@link io.rackfabric.fabric.routing.RequesterIds}
   * computes the same IDs from the configuration. The entry becomes part of the port's NTB
   * configuration in the chip's routing table. Answered with {@link
   * RequesterIdProgrammed} naming the proxy ID, or {@link RequesterIdRejected}.
   */
  public record ProgramRequesterId(NtbDirection direction, int requester, ActorRef<RequesterIdReply> replyTo)
      implements Command, WireMessage {}

  /** The answer to {@link ProgramRequesterId}. */
  public sealed interface RequesterIdReply extends WireMessage
      permits RequesterIdProgrammed, RequesterIdRejected {}

  /**
   * {@code requester}'s requests crossing NTB port {@code port} in {@code direction} now carry
   * {@code proxyId} (entry {@code index} of the table) on the other side.
   */
  public record RequesterIdProgrammed(String port, NtbDirection direction, int requester, int index, int proxyId)
      implements RequesterIdReply {
    @Override
    public String toString() {
      return "RequesterIdProgrammed[" + port + " " + direction + " " + Bdf.format(requester) + " -> "
          + Bdf.format(proxyId) + " (entry " + index + ")]";
    }
  }

  /** Nothing was programmed; {@code reason} names the offending value. */
  public record RequesterIdRejected(String port, NtbDirection direction, int requester, String reason)
      implements RequesterIdReply {}


  /**
   * Sibling {@code from} hands over a TLP to leave through this port; {@code ingress} is the port
   * whose buffer holds it, -1 if the sibling generated it.
   */
  record Forward(Tlp tlp, long readyAt, int ingress, int from)
      implements Command, NoSerializationVerificationNeeded {}

  /** A sibling received a configuration request for this port's own registers. */
  record ConfigAccess(Tlp request, long readyAt, int ingress)
      implements Command, NoSerializationVerificationNeeded {}

  /**
   * A management packet for the chip's device manager, which this port hosts: it came in through
   * {@code ingress}; {@code unroutable} says why it cannot go on, null when it is for the chip.
   */
  record Manage(FabricMessage message, long readyAt, int ingress, String unroutable)
      implements Command, NoSerializationVerificationNeeded {}

  /** Sibling {@code from}'s link (port {@code port}) is in {@code state}, known here at model {@code at}. */
  record PortStateChanged(int port, DataLinkState state, long at, int from)
      implements Command, NoSerializationVerificationNeeded {}

  /**
   * The chip's device manager (on sibling {@code from}) applied a fabric manager's PI-4 write to
   * this port's control register: DL_Active ({@code active}) or back to DL_Protected, at model
   * {@code at}.
   */
  record SetActive(boolean active, long at, int from) implements Command, NoSerializationVerificationNeeded {}

  /**
   * The chip's device manager (on sibling {@code from}) applied a fabric manager's write of NTB
   * port {@code order.port()}'s windows: this port routes (and, when it is that port, translates)
   * by them from model {@code at} on.
   */
  record SetWindows(ManagementAgent.WindowOrder order, long at, int from)
      implements Command, NoSerializationVerificationNeeded {}

  /**
   * Egress sibling {@code from} returns buffer space of TLPs that came in through this port; it
   * is free here at model time {@code at} (across the chip, a switch latency after it was freed).
   */
  record CreditsReleased(int[] headers, int[] data, long at, int from)
      implements Command, NoSerializationVerificationNeeded {}

  /** The chip's table, in force at once (see {@link TableInForce} for the ports a pending move names). */
  record TableChanged(RoutingTable table) implements Command, NoSerializationVerificationNeeded {}

  /**
   * The chip moved {@code ports} to {@code virtualSwitch}, in force here from model time
   * {@code effectiveAt} on (see {@link TableInForce}).
   */
  record PortsReassigned(List<Integer> ports, int virtualSwitch, long effectiveAt)
      implements Command, NoSerializationVerificationNeeded {}

  /** A reassignment falls due: one of the port's own model-time events. */
  private record ReassignmentDue(long at) implements PortMessage {}

  record Siblings(Map<Integer, ActorRef<Command>> ports)
      implements Command, NoSerializationVerificationNeeded {}

  private final PortConfiguration config;
  private final LinkEnd link;
  /** Model-time order of everything that arrives from the link and from siblings. */
  private final PortTime time;
  /** The link side: partner, driver's link commands, ticks, wire. */
  private final LinkPort port;
  private final Crossbar crossbar;
  private final FabricSettings settings;
  private final PortErrors errors = new PortErrors();
  private final PortForwarding forwarding;
  /** The table the port routes by, with the reassignments not yet due. */
  private final TableInForce tables;
  /** Management packets: their path through the port, and the chip's device manager if it is here. */
  private final PortManagement management;

  public static Behavior<Command> create(
      String switchId,
      int number,
      RoutingTable table,
      LinkParameters linkParams,
      String partnerEnd,
      FabricSettings settings,
      ActorRef<SwitchChip.Command> chip) {
    return create(switchId, number, table, linkParams, partnerEnd, settings, chip, null, -1);
  }

  /**
   * As above; {@code agent} is the chip's device manager when this port hosts it (else null), and
   * {@code managerPort} the port that does (-1: the chip has none; management packets for the chip
   * are dropped and counted).
   */
  public static Behavior<Command> create(
      String switchId,
      int number,
      RoutingTable table,
      LinkParameters linkParams,
      String partnerEnd,
      FabricSettings settings,
      ActorRef<SwitchChip.Command> chip,
      ManagementAgent agent,
      int managerPort) {
    return Behaviors.<PortMessage>setup(ctx -> new SwitchPort(ctx, switchId, number, table, linkParams, partnerEnd,
        settings, chip, agent, managerPort)).narrow();
  }

  private SwitchPort(
      ActorContext<PortMessage> context,
      String switchId,
      int number,
      RoutingTable table,
      LinkParameters linkParams,
      String partnerEnd,
      FabricSettings settings,
      ActorRef<SwitchChip.Command> chip,
      ManagementAgent agent,
      int managerPort) {
    super(context);
    this.tables = new TableInForce(table);
    this.config = new PortConfiguration(switchId, number, table, chip::tell, context.getLog());
    String name = config.name();
    this.link = new LinkEnd(linkParams, settings.receiveBuffers(), settings.timers(),
        settings.replay(), settings.autoActivate(), System.nanoTime() & 0xFFFFF, new Wire(), System::nanoTime);
    link.meter().window(settings.wireMeterFromNs(), settings.wireMeterToNs());
    this.time = new PortTime(name, context.getSelf(), link, partnerEnd, this::onTimed);
    this.port = new LinkPort(context, name, "Port", link, time, settings.timers());
    this.settings = settings;
    this.crossbar = new Crossbar(number, settings.switchLatencyNs(), settings.releaseBatch(),
        link, time);
    this.management = new PortManagement(number, settings, link, config, crossbar, errors, agent, managerPort,
        this::setWindows, context.getLog());
    this.forwarding = new PortForwarding(number, settings, link, config, crossbar, errors, management,
        context.getLog());
    ActorRef<LinkFrame> self = context.getSelf().narrow();
    LinkDirectory.attach(context, name, self, partnerEnd, LinkPort.Connect::new);
  }

  @Override
  public Receive<PortMessage> createReceive() {
    return port.linkMessages(time.kernelMessages(newReceiveBuilder(), () -> this), () -> this)
        .onMessage(LinkFrame.class, this::onLinkFrame)
        .onMessage(Forward.class, msg -> timed(msg.readyAt(), msg.from(), msg))
        .onMessage(CreditsReleased.class, msg -> timed(msg.at(), msg.from(), msg))
        .onMessage(ConfigAccess.class, msg -> timed(msg.readyAt(), msg.ingress(), msg))
        .onMessage(Manage.class, msg -> timed(msg.readyAt(), msg.ingress(), msg))
        .onMessage(PortStateChanged.class, msg -> timed(msg.at(), msg.from(), msg))
        .onMessage(SetActive.class, msg -> timed(msg.at(), msg.from(), msg))
        .onMessage(SetWindows.class, msg -> timed(msg.at(), msg.from(), msg))
        .onMessage(JoinKeeper.class, this::onJoinKeeper)
        .onMessage(Activate.class, this::onActivate)
        .onMessage(GetStats.class, this::onGetStats)
        .onMessage(ProgramRequesterId.class, this::onProgramRequesterId)
        .onMessage(TableChanged.class, this::onTableChanged)
        .onMessage(PortsReassigned.class, this::onPortsReassigned)
        .onMessage(Siblings.class, this::onSiblings)
        .build();
  }

  /** A frame from the link: a model-time event, or link management handled at once. */
  private Behavior<PortMessage> onLinkFrame(LinkFrame frame) {
    time.frame(frame, forwarding::fromLink);
    return this;
  }

  /** A message from sibling {@code from} due at model time {@code at}. */
  private Behavior<PortMessage> timed(long at, int from, PortMessage msg) {
    time.receive(at, 1 + from, msg);
    return this;
  }

  /** Handles one model-time event, in the synchronizer's order. */
  private void onTimed(PortMessage event) {
    if (tables.reach(time.now())) { // a reassignment due now is in force for every event at this time
      config.tableChanged(tables.table());
    }
    if (event instanceof PartnerLink.Gone g) {
      port.partnerGoneAtItsTime(g);
    } else if (event instanceof LinkFrame f) {
      forwarding.fromLink(f);
    } else if (event instanceof Forward f) {
      forwarding.toLink(f);
    } else if (event instanceof CreditsReleased c) {
      crossbar.released(c.headers(), c.data(), c.at());
    } else if (event instanceof ConfigAccess c) {
      forwarding.configAccess(c);
    } else if (event instanceof Manage m) {
      management.manage(m);
    } else if (event instanceof PortStateChanged p) {
      management.portState(p);
    } else if (event instanceof SetActive a) {
      management.setActive(a);
    } else if (event instanceof SetWindows w) {
      setWindows(w);
    }
  }

  /** At model {@code msg.at()} this port routes (and translates) by the NTB port's new windows. */
  private void setWindows(SetWindows msg) {
    ManagementAgent.WindowOrder o = msg.order();
    if (tables.windows(o)) {
      config.tableChanged(tables.table());
    }
  }

  /**
   * Joins the run's time keeper: the channels are the link and every sibling (a switch latency:
   * TLPs and released credit cross the chip).
   */
  private Behavior<PortMessage> onJoinKeeper(JoinKeeper msg) {
    if (!time.joined()) {
      crossbar.declare(config::siblingName, this::siblingLookahead);
      time.join(msg, getContext().getSelf().narrow());
    }
    return this;
  }

  private Behavior<PortMessage> onActivate(Activate msg) {
    link.activate();
    return this;
  }

  private Behavior<PortMessage> onGetStats(GetStats msg) {
    msg.replyTo().tell(errors.stats(config.name(), link, config.ntbRefused()));
    return this;
  }

  private Behavior<PortMessage> onProgramRequesterId(ProgramRequesterId msg) {
    msg.replyTo().tell(config.program(msg.direction(), msg.requester()));
    return this;
  }

  private Behavior<PortMessage> onTableChanged(TableChanged msg) {
    config.tableChanged(tables.published(msg.table()));
    return this;
  }

  /** Held until the port's clock reaches it: a model-time event of its own at that time. */
  private Behavior<PortMessage> onPortsReassigned(PortsReassigned msg) {
    tables.schedule(msg.effectiveAt(), msg.ports(), msg.virtualSwitch());
    if (!time.joined()) { // free-running: no model clock to wait for, nor to move to the stamp
      if (tables.reach(Long.MAX_VALUE)) {
        config.tableChanged(tables.table());
      }
      return this;
    }
    if (msg.effectiveAt() < time.now()) {
      getContext().getLog().warn("Port [{}] got a reassignment due at {} ns behind its clock at {} ns:"
          + " in force from its clock on", config.name(), msg.effectiveAt(), time.now());
    }
    time.scheduleStamped(msg.effectiveAt(), new ReassignmentDue(msg.effectiveAt()));
    return this;
  }

  private Behavior<PortMessage> onSiblings(Siblings msg) {
    crossbar.siblings(msg.ports());
    crossbar.declare(config::siblingName, this::siblingLookahead); // counted from the first message, as the link is
    return this;
  }

  /** The link end's effects, applied by this actor. */
  private final class Wire implements LinkEnd.Listener {
    @Override
    public void send(LinkFrame frame) {
      port.send(frame);
    }

    @Override
    public void transmitted(Object token, Tlp tlp, long sentAt) {
      forwarding.transmitted(token, tlp, sentAt);
    }

    @Override
    public void linkUp(long modelAt) {
      getContext().getLog().debug("Port [{}] link up", config.name());
      if (link.counters().linkDowns > 0) { // back up after a failure; the first training is the description's
        management.linkState(link.state(), modelAt);
      }
    }

    @Override
    public void linkTrained(long modelAt) {
      getContext().getLog().debug("Port [{}] link trained, DL_Protected", config.name());
      if (link.counters().linkDowns > 0) { // as linkUp: the first training is the description's
        management.linkState(link.state(), modelAt);
      }
    }

    @Override
    public void linkDown(ErrorMessage.Cause cause, long modelAt, List<LinkEnd.Queued> purged) {
      forwarding.linkDown(cause, modelAt, purged);
      management.linkState(DataLinkState.DL_INACTIVE, modelAt);
    }
  }

  /** The kernel's lookahead to sibling {@code n} (see {@link FabricSettings#siblingLookaheadNs}). */
  private long siblingLookahead(int n) {
    io.rackfabric.fabric.routing.PortConfig sibling = config.view().port(n);
    return settings.siblingLookaheadNs(config.role() == io.rackfabric.fabric.routing.PortRole.NTB,
        sibling != null && sibling.role() == io.rackfabric.fabric.routing.PortRole.NTB);
  }
}
