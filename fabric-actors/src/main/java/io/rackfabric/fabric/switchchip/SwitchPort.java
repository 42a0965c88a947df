package io.rackfabric.fabric.switchchip;

import akka.actor.NoSerializationVerificationNeeded;
import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import io.rackfabric.fabric.config.PortRegisters;
import io.rackfabric.fabric.credit.EgressReleases;
import io.rackfabric.fabric.credit.MulticastShadow;
import io.rackfabric.fabric.link.LinkDirectory;
import io.rackfabric.fabric.link.LinkEnd;
import io.rackfabric.fabric.link.LinkFrame;
import io.rackfabric.fabric.link.LinkParameters;
import io.rackfabric.fabric.link.PartnerLink;
import io.rackfabric.fabric.link.PortMessage;
import io.rackfabric.fabric.port.LinkPort;
import io.rackfabric.fabric.ntb.NtbDirection;
import io.rackfabric.fabric.ntb.NtbTranslation;
import io.rackfabric.fabric.ntb.RequesterIdEntry;
import io.rackfabric.fabric.routing.PortConfig;
import io.rackfabric.fabric.routing.PortRole;
import io.rackfabric.fabric.routing.RouteDecision;
import io.rackfabric.fabric.routing.RoutingTable;
import io.rackfabric.fabric.routing.RoutingView;
import io.rackfabric.fabric.routing.SwitchRouter;
import io.rackfabric.fabric.settings.FabricSettings;
import io.rackfabric.fabric.stats.LinkRetryStats;
import io.rackfabric.fabric.stats.PortStats;
import io.rackfabric.fabric.time.JoinKeeper;
import io.rackfabric.fabric.time.PortTime;
import io.rackfabric.fabric.tlp.Bdf;
import io.rackfabric.fabric.tlp.Completion;
import io.rackfabric.fabric.tlp.CompletionStatus;
import io.rackfabric.fabric.tlp.ConfigRead;
import io.rackfabric.fabric.tlp.ConfigWrite;
import io.rackfabric.fabric.tlp.ErrorMessage;
import io.rackfabric.fabric.tlp.Tlp;
import io.rackfabric.fabric.tlp.TlpClass;
import io.rackfabric.fabric.tlp.Tlps;
import io.rackfabric.fabric.wire.WireMessage;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;

/**
 * One port of a switch chip: a transparent bridge (upstream or downstream) or an NTB port. TLPs
 * from its link are routed by {@link SwitchRouter} and handed to the egress sibling; TLPs from
 * siblings leave through its link under credit flow control. The ingress buffer a TLP occupied is
 * released back to the ingress port only after the TLP left the egress port (in batches), so
 * backpressure reaches the sender's link as in a real switch and nothing queues without bound.
 */
public final class SwitchPort extends AbstractBehavior<PortMessage> {

  public sealed interface Command extends PortMessage
      permits Activate, GetStats, ProgramRequesterId, Forward,
          ConfigAccess, CreditsReleased, TableChanged, Siblings {}

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
   * Egress sibling {@code from} returns buffer space of TLPs that came in through this port; it
   * is free here at model time {@code at} (across the chip, a switch latency after it was freed).
   */
  record CreditsReleased(int[] headers, int[] data, long at, int from)
      implements Command, NoSerializationVerificationNeeded {}

  record TableChanged(RoutingTable table) implements Command, NoSerializationVerificationNeeded {}

  record Siblings(Map<Integer, ActorRef<Command>> ports)
      implements Command, NoSerializationVerificationNeeded {}

  private final int number;
  private final String name;
  private final FabricSettings settings;
  private final ActorRef<SwitchChip.Command> chip;
  private final LinkEnd link;
  private final ActorRef<LinkFrame> self;
  private RoutingView view;
  private PortConfig config;
  /** What configuration requests read and write; ahead of the routing table until it catches up. */
  private PortRegisters registers;
  /**
   * Configuration completions held until the table holds this port's writes: a root that saw the
   * completion may route by the new registers at once.
   */
  private final List<Runnable> afterTable = new java.util.ArrayList<>();
  private NtbTranslation ntb;
  /** The internal bus {@link #ntb} was built for: its link-side proxies may live there. */
  private int ntbInternalBus;
  @SuppressWarnings("unchecked")
  private ActorRef<Command>[] siblings = new ActorRef[32];
  /** Model-time order of everything that arrives from the link and from siblings. */
  private final PortTime time;
  /** The link side: partner, driver's link commands, ticks, wire. */
  private final LinkPort port;
  private final String switchId;
  private final int[] siblingChannel = new int[32];
  private final EgressReleases releases;
  private final MulticastShadow shadow = new MulticastShadow();
  private long unsupported;
  private long droppedPosted;
  private long silentDrops;
  private long lostOnLinkDown;
  private long aerSent;

  public static Behavior<Command> create(
      String switchId,
      int number,
      RoutingTable table,
      LinkParameters linkParams,
      String partnerEnd,
      FabricSettings settings,
      ActorRef<SwitchChip.Command> chip) {
    return Behaviors.<PortMessage>setup(ctx ->
        new SwitchPort(ctx, switchId, number, table, linkParams, partnerEnd, settings, chip)).narrow();
  }

  private SwitchPort(
      ActorContext<PortMessage> context,
      String switchId,
      int number,
      RoutingTable table,
      LinkParameters linkParams,
      String partnerEnd,
      FabricSettings settings,
      ActorRef<SwitchChip.Command> chip) {
    super(context);
    this.number = number;
    this.settings = settings;
    this.chip = chip;
    this.releases = new EgressReleases(settings.releaseBatch());
    adopt(table);
    this.name = switchId + "." + config.name();
    this.self = context.getSelf().narrow();
    this.link = new LinkEnd(linkParams, settings.receiveBuffers(), settings.timers(),
        settings.replay(), settings.autoActivate(), System.nanoTime() & 0xFFFFF, new Wire(), System::nanoTime);
    this.switchId = switchId;
    this.time = new PortTime(name, context.getSelf(), link, partnerEnd, this::onTimed);
    this.port = new LinkPort(context, name, "Port", link, time, settings.timers());
    java.util.Arrays.fill(siblingChannel, -1);
    LinkDirectory.attach(context, name, self, partnerEnd, LinkPort.Connect::new);
  }

  private void adopt(RoutingTable newTable) {
    PortConfig mine = newTable.port(number);
    if (mine == null) {
      throw new IllegalArgumentException("routing table has no port " + number);
    }
    if (registers == null) {
      registers = new PortRegisters(mine);
    } else {
      mine = registers.adopt(mine);
    }
    this.view = RoutingView.of(newTable);
    this.config = mine;
    if (mine.role() == PortRole.NTB) {
      int internalBus = newTable.internalBus(mine.virtualSwitch());
      if (ntb == null) {
        ntb = new NtbTranslation(mine.ntb(), internalBus, number);
      } else if (!mine.ntb().equals(ntb.config()) || internalBus != ntbInternalBus) {
        ntb = ntb.reconfigured(mine.ntb(), internalBus);
      }
      ntbInternalBus = internalBus;
      for (RequesterIdEntry e : ntb.unplaced()) {
        getContext().getLog().warn("Port [{}] requester-ID entry {} not placed: its index holds"
            + " another requester since first use", name, e);
      }
    }
  }

  @Override
  public Receive<PortMessage> createReceive() {
    return port.linkMessages(time.kernelMessages(newReceiveBuilder(), () -> this), () -> this)
        .onMessage(LinkFrame.class, this::onLinkFrame)
        .onMessage(Forward.class, msg -> timed(msg.readyAt(), msg.from(), msg))
        .onMessage(CreditsReleased.class, msg -> timed(msg.at(), msg.from(), msg))
        .onMessage(ConfigAccess.class, msg -> timed(msg.readyAt(), msg.ingress(), msg))
        .onMessage(JoinKeeper.class, this::onJoinKeeper)
        .onMessage(Activate.class, this::onActivate)
        .onMessage(GetStats.class, this::onGetStats)
        .onMessage(ProgramRequesterId.class, this::onProgramRequesterId)
        .onMessage(TableChanged.class, this::onTableChanged)
        .onMessage(Siblings.class, this::onSiblings)
        .build();
  }

  /** A frame from the link: a model-time event, or link management handled at once. */
  private Behavior<PortMessage> onLinkFrame(LinkFrame frame) {
    time.frame(frame, this::onFrame);
    return this;
  }

  /** A message from sibling {@code from} due at model time {@code at}. */
  private Behavior<PortMessage> timed(long at, int from, PortMessage msg) {
    time.receive(at, 1 + from, msg);
    return this;
  }

  /** Handles one model-time event, in the synchronizer's order. */
  private void onTimed(PortMessage event) {
    if (event instanceof PartnerLink.Gone g) {
      port.partnerGoneAtItsTime(g);
    } else if (event instanceof LinkFrame f) {
      onFrame(f);
    } else if (event instanceof Forward f) {
      onForward(f);
    } else if (event instanceof CreditsReleased c) {
      onCreditsReleased(c);
    } else if (event instanceof ConfigAccess c) {
      onConfigAccess(c);
    }
  }

  /**
   * Joins the run's time keeper: the channels are the link and every sibling (a switch latency:
   * TLPs and released credit cross the chip).
   */
  private Behavior<PortMessage> onJoinKeeper(JoinKeeper msg) {
    if (!time.joined()) {
      declareSiblings();
      time.join(msg, getContext().getSelf().narrow());
    }
    return this;
  }

  private String siblingName(int n) {
    return switchId + "." + view.port(n).name();
  }

  /** Tells sibling {@code port} a model-time message, counted for the time keeper. */
  private void tellSibling(int port, Command msg) {
    siblings[port].tell(msg);
    if (siblingChannel[port] >= 0) {
      time.sent(siblingChannel[port]);
    }
  }

  private Behavior<PortMessage> onFrame(LinkFrame frame) {
    long arrival = link.onFrame(frame);
    if (arrival < 0) {
      return this;
    }
    Tlp received = LinkEnd.tlpOf(frame);
    Tlp tlp = received;
    long ready = arrival + settings.switchLatencyNs();
    if (config.role() == PortRole.NTB) {
      if (received instanceof ConfigRead || received instanceof ConfigWrite) {
        answerConfig(received, arrival, number, true);
        link.free(received, arrival);
        return this;
      }
      tlp = ntb.toLink(received);
      if (tlp == null) {
        reject(received, arrival, "hits no virtual-side BAR of NTB " + name);
        link.free(received, arrival);
        return this;
      }
      ready += settings.ntbLatencyNs();
    }
    RouteDecision decision = SwitchRouter.route(view, number, tlp);
    if (decision instanceof RouteDecision.Forward f) {
      sendToSibling(f.port(), new Forward(tlp, ready, number, number), received, arrival);
    } else if (decision instanceof RouteDecision.Multicast m) {
      int copies = 0;
      for (int port : m.ports()) {
        if (siblings[port] != null) {
          tellSibling(port, new Forward(tlp, ready, number, number));
          copies++;
        }
      }
      if (copies == 0) {
        link.free(received, arrival);
      } else {
        shadow.replicated(received.tlpClass(), copies, Tlps.dataCredits(received));
      }
    } else if (decision instanceof RouteDecision.LocalConfig lc) {
      if (lc.port() == number) {
        answerConfig(tlp, arrival, number, false);
        link.free(received, arrival);
      } else {
        sendToSibling(lc.port(), new ConfigAccess(tlp, ready, number), received, arrival);
      }
    } else if (decision instanceof RouteDecision.Unsupported u) {
      reject(tlp, arrival, u.why());
      link.free(received, arrival);
    } else {
      silentDrops++;
      link.free(received, arrival);
    }
    return this;
  }

  private void sendToSibling(int port, Command msg, Tlp received, long arrival) {
    if (siblings[port] == null) {
      reject(received, arrival, "port " + port + " is not running");
      link.free(received, arrival);
    } else {
      tellSibling(port, msg);
    }
  }

  /** PCIe's answer to a TLP nothing claims: UR for requests, drop and count for the rest. */
  private void reject(Tlp tlp, long at, String why) {
    if (tlp.tlpClass() == TlpClass.NON_POSTED) {
      unsupported++;
      getContext().getLog().debug("Port [{}] Unsupported Request: {}", name, why);
      Completion ur = Completion.error(myBdf(), tlp, CompletionStatus.UNSUPPORTED_REQUEST, at);
      if (!link.offer(ur, at, -1)) {
        lostOnLinkDown++;
      }
    } else {
      droppedPosted++;
      getContext().getLog().debug("Port [{}] dropped {}: {}", name, tlp.getClass().getSimpleName(), why);
    }
  }

  private Behavior<PortMessage> onForward(Forward msg) {
    Tlp tlp = msg.tlp();
    long ready = msg.readyAt();
    if (config.role() == PortRole.NTB) {
      Tlp out = ntb.toVirtual(tlp);
      if (out == null) {
        bounce(tlp, ready, msg.ingress(), "NTB " + name + " cannot relay it (no link-side BAR or proxy)");
        return this;
      }
      tlp = out;
      ready += settings.ntbLatencyNs();
    } else if (config.role() == PortRole.DOWNSTREAM) {
      tlp = toType0IfOwnBus(tlp);
    }
    if (!link.isUp() && link.counters().linkDowns > 0) {
      // DL_Down after a failure, while the link retrains: PCIe discards (UR for a request) rather
      // than hold TLPs, which would keep their ingress buffer and stall everything behind it.
      bounce(msg.tlp(), ready, msg.ingress(), "link of " + name + " is down, retraining");
      return this;
    }
    if (msg.ingress() >= 0) {
      releases.queued(msg.ingress());
    }
    if (!link.offer(tlp, ready, msg.ingress())) {
      if (msg.ingress() >= 0) {
        releases.unqueued(msg.ingress());
      }
      bounce(msg.tlp(), ready, msg.ingress(), "link of " + name + " is down");
    }
    return this;
  }

  /** A forwarded TLP cannot leave here: answer it back into the switch and free its buffer. */
  private void bounce(Tlp tlp, long at, int ingress, String why) {
    if (tlp.tlpClass() == TlpClass.NON_POSTED) {
      unsupported++;
      Completion ur = Completion.error(myBdf(), tlp, CompletionStatus.UNSUPPORTED_REQUEST, at);
      routeGenerated(ur, at);
    } else {
      droppedPosted++;
    }
    getContext().getLog().debug("Port [{}] {}: {}", name, tlp.getClass().getSimpleName(), why);
    if (ingress >= 0) {
      returnSpace(releases.consumed(ingress, tlp, at));
    }
  }

  /** Sends a TLP this port created (a completion, an AER message) to where the router says. */
  private void routeGenerated(Tlp tlp, long at) {
    RouteDecision d = SwitchRouter.route(view, number, tlp);
    if (d instanceof RouteDecision.Forward f && siblings[f.port()] != null) {
      tellSibling(f.port(), new Forward(tlp, at + settings.switchLatencyNs(), -1, number));
    } else if (config.role() != PortRole.UPSTREAM || !(tlp instanceof ErrorMessage)) {
      if (!link.offer(tlp, at, -1)) {
        lostOnLinkDown++;
      }
    }
  }

  private Tlp toType0IfOwnBus(Tlp tlp) {
    int secondary = config.bridge().secondaryBus();
    if (tlp instanceof ConfigRead r && r.type() == 1 && Bdf.bus(r.target()) == secondary) {
      return r.asType0();
    }
    if (tlp instanceof ConfigWrite w && w.type() == 1 && Bdf.bus(w.target()) == secondary) {
      return w.asType0();
    }
    return tlp;
  }

  /**
   * Sends a batch of freed buffer space back to the ingress port it belongs to, across the chip:
   * it is free there a switch latency after it was freed here (never before now).
   */
  private void returnSpace(EgressReleases.Batch batch) {
    if (batch != null && siblings[batch.ingress()] != null) {
      long at = Math.max(batch.at(), time.now()) + settings.switchLatencyNs();
      tellSibling(batch.ingress(), new CreditsReleased(batch.headers(), batch.data(), at, number));
    }
  }

  private Behavior<PortMessage> onCreditsReleased(CreditsReleased msg) {
    long at = msg.at();
    for (TlpClass c : TlpClass.ALL) {
      int i = c.ordinal();
      long h = shadow.absorbHeaders(c, msg.headers()[i]);
      long d = shadow.absorbData(c, msg.data()[i]);
      if (h > 0 || d > 0) {
        link.free(c, (int) h, (int) d, at);
      }
    }
    return this;
  }

  private Behavior<PortMessage> onConfigAccess(ConfigAccess msg) {
    Tlp request = msg.request();
    Completion cpl = configCompletion(request, msg.readyAt(), false);
    ActorRef<Command> ingress = siblings[msg.ingress()];
    if (ingress != null) {
      sendWhenPublished(() -> tellSibling(msg.ingress(),
          new Forward(cpl, msg.readyAt() + settings.switchLatencyNs(), -1, number)));
    }
    returnSpace(releases.consumed(msg.ingress(), request, msg.readyAt()));
    return this;
  }

  /** Sends a configuration completion now, or once the table holds this port's writes. */
  private void sendWhenPublished(Runnable send) {
    if (registers.awaitingTable()) {
      afterTable.add(send);
    } else {
      send.run();
    }
  }

  /** Answers a configuration request that arrived on this port's own link. */
  private void answerConfig(Tlp request, long at, int ingress, boolean virtualSide) {
    Completion cpl = configCompletion(request, at, virtualSide);
    sendWhenPublished(() -> {
      if (!link.offer(cpl, at + settings.switchLatencyNs(), -1)) {
        lostOnLinkDown++;
      }
    });
  }

  private Completion configCompletion(Tlp request, long at, boolean virtualSide) {
    int completer = virtualSide ? config.ntb().virtualSideBdf() : myBdf();
    if (request instanceof ConfigRead r) {
      int value = registers.read(r.register(), virtualSide);
      byte[] data = ByteBuffer.allocate(4).putInt(value).array();
      return new Completion(completer, r.requester(), r.tag(), 0, CompletionStatus.SUCCESSFUL,
          4, 0, 4, data, at, 0);
    }
    ConfigWrite w = (ConfigWrite) request;
    PortConfig changed = registers.write(w.register(), w.value(), virtualSide);
    if (changed != null) {
      chip.tell(new SwitchChip.PortConfigured(changed));
    }
    return new Completion(completer, w.requester(), w.tag(), 0, CompletionStatus.SUCCESSFUL,
        0, 0, 0, null, at, 0);
  }

  private int myBdf() {
    if (config.role() == PortRole.UPSTREAM) {
      return Bdf.of(config.bridge().primaryBus(), 0, 0);
    }
    if (config.role() == PortRole.NTB && config.ntb().linkSideBus() >= 0) {
      return ntb.linkSideBdf();
    }
    int internal = Math.max(0, view.internalBus(config.virtualSwitch()));
    return Bdf.of(internal, number, 0);
  }

  private Behavior<PortMessage> onActivate(Activate msg) {
    link.activate();
    return this;
  }

  private Behavior<PortMessage> onGetStats(GetStats msg) {
    var c = link.counters();
    msg.replyTo().tell(new PortStats(name, link.state(), c.tlpsReceived, c.tlpsSent, c.dllpsSent,
        c.dllpsReceived, unsupported, droppedPosted, silentDrops, lostOnLinkDown, c.droppedLinkDown,
        c.receiverOverflows, aerSent, c.linkUps, c.linkDowns, link.modelNow(),
        ntb == null ? 0 : ntb.refused(NtbDirection.TO_VIRTUAL) + ntb.refused(NtbDirection.TO_LINK),
        LinkRetryStats.of(c)));
    return this;
  }

  private Behavior<PortMessage> onProgramRequesterId(ProgramRequesterId msg) {
    String reason = null;
    if (config.role() != PortRole.NTB) {
      reason = "port " + name + " is " + config.role() + ", not an NTB port";
    } else if (msg.direction() == null) {
      reason = "direction is missing (TO_VIRTUAL or TO_LINK)";
    } else if (msg.requester() < 0 || msg.requester() > 0xFFFF) {
      reason = "requester=0x" + Integer.toHexString(msg.requester()) + " is not a 16-bit requester ID";
    }
    int proxy = reason != null ? -1 : ntb.program(msg.direction(), msg.requester());
    if (reason == null && proxy < 0) {
      reason = "the " + msg.direction() + " requester-ID table of NTB " + name + " is full ("
          + ntb.capacity(msg.direction()) + " entries: " + ntb.space(msg.direction()) + ")";
    }
    if (reason != null) {
      getContext().getLog().warn("Port [{}] requester ID not programmed: {}", name, reason);
      msg.replyTo().tell(new RequesterIdRejected(name, msg.direction(), msg.requester(), reason));
      return this;
    }
    RequesterIdEntry entry = ntb.programmedEntry(msg.direction(), msg.requester());
    if (!config.ntb().requesterIds().contains(entry)) {
      // The translation has the entry already; the chip adds it to the routing table (the one
      // writer of port configurations), and the port adopts that table when it is published.
      chip.tell(new SwitchChip.NtbReprogrammed(number, entry));
    }
    msg.replyTo().tell(new RequesterIdProgrammed(name, msg.direction(), msg.requester(), entry.index(), proxy));
    return this;
  }

  private Behavior<PortMessage> onTableChanged(TableChanged msg) {
    adopt(msg.table());
    if (!registers.awaitingTable() && !afterTable.isEmpty()) {
      List<Runnable> held = List.copyOf(afterTable);
      afterTable.clear();
      held.forEach(Runnable::run);
    }
    return this;
  }

  private Behavior<PortMessage> onSiblings(Siblings msg) {
    msg.ports().forEach((n, ref) -> siblings[n] = ref);
    declareSiblings(); // counted from the first message, as the link is (see PortTime)
    return this;
  }

  private void declareSiblings() {
    if (time.joined()) {
      return;
    }
    for (int n = 0; n < siblings.length; n++) {
      if (siblings[n] != null && n != number && siblingChannel[n] < 0) {
        siblingChannel[n] = time.declare(siblingName(n), settings.switchLatencyNs());
      }
    }
  }

  /** The link end's effects, applied by this actor. */
  private final class Wire implements LinkEnd.Listener {
    @Override
    public void send(LinkFrame frame) {
      port.send(frame);
    }

    @Override
    public void transmitted(Object token, Tlp tlp, long sentAt) {
      int ingress = (Integer) token;
      if (ingress < 0) {
        return;
      }
      returnSpace(releases.transmitted(ingress, tlp, sentAt));
    }

    @Override
    public void linkUp(long modelAt) {
      getContext().getLog().debug("Port [{}] link up", name);
    }

    @Override
    public void linkDown(ErrorMessage.Cause cause, long modelAt, List<LinkEnd.Queued> purged) {
      getContext().getLog().info("Port [{}] link down ({}), {} queued TLPs lost", name, cause, purged.size());
      lostOnLinkDown += purged.size();
      for (LinkEnd.Queued q : purged) {
        int ingress = (Integer) q.token();
        if (ingress >= 0) {
          releases.purged(ingress, q.tlp(), modelAt);
        }
      }
      for (int i = 0; i < 32; i++) {
        returnSpace(releases.flush(i));
      }
      if (config.role() != PortRole.UPSTREAM) {
        aerSent++;
        routeGenerated(new ErrorMessage(myBdf(), ErrorMessage.Severity.FATAL, cause, modelAt), modelAt);
      }
    }
  }
}
