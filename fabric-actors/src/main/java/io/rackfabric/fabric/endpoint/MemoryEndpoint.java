package io.rackfabric.fabric.endpoint;

import akka.actor.NoSerializationVerificationNeeded;
import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.control.ControlOrigins;
import io.rackfabric.fabric.link.DataLinkState;
import io.rackfabric.fabric.link.LinkDirectory;
import io.rackfabric.fabric.link.LinkEnd;
import io.rackfabric.fabric.link.LinkFrame;
import io.rackfabric.fabric.link.LinkParameters;
import io.rackfabric.fabric.link.PartnerLink;
import io.rackfabric.fabric.link.PortMessage;
import io.rackfabric.fabric.port.LinkPort;
import io.rackfabric.fabric.rootcomplex.RootRelay;
import io.rackfabric.fabric.settings.FabricSettings;
import io.rackfabric.fabric.stats.EndpointStats;
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
import io.rackfabric.fabric.tlp.MemRead;
import io.rackfabric.fabric.tlp.MemWrite;
import io.rackfabric.fabric.tlp.Tlp;
import io.rackfabric.fabric.wire.WireMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongFunction;

/**
 * A memory endpoint at the end of one link: it stores posted writes that hit its BARs, answers
 * reads with completions split at Max_Payload_Size, and can act as a requester and a traffic
 * generator. As the root complex of a domain it also collects AER messages. Anything outside its
 * BARs gets Unsupported Request (reads) or is dropped and counted (writes).
 */
public final class MemoryEndpoint extends AbstractBehavior<PortMessage> {

  public sealed interface Command extends PortMessage
      permits Write, Read, WriteAs, ReadAs, ChangeAccessCheck, ConfigRequest, StartTraffic, GetStats,
          AwaitWrites, AwaitLinkUp, CountIssuedBefore, Watch, WatchErrors, Peek, Store, AttachGuest, DetachGuest, GuestDone, WakeGuest, CancelWake, SendToPeer, PeerMessage {}

  /**
   * Issues one posted write into the fabric, at model time {@code at} (the issuing software's
   * clock), or at the endpoint's current model time when {@code at} is negative. A root's write
   * into its own memory (its BARs) is stored at once and never reaches the link.
   */
  public record Write(long address, byte[] data, long at) implements Command, WireMessage {
    /** A write issued at the endpoint's current model time. */
    public Write(long address, byte[] data) {
      this(address, data, -1);
    }
  }

  /**
   * Issues one read into the fabric at model time {@code at} (the issuing software's or device's
   * clock), or at the endpoint's current model time when {@code at} is negative; the answer is a
   * {@link ReadResult}, whose data arrived at {@code at + latencyNs} when {@code at} was given.
   */
  public record Read(long address, int length, long at, ActorRef<ReadResult> replyTo)
      implements Command, WireMessage {
    /** A read issued at the endpoint's current model time. */
    public Read(long address, int length, ActorRef<ReadResult> replyTo) {
      this(address, length, -1, replyTo);
    }
  }

  public record ReadResult(long address, CompletionStatus status, byte[] data, long latencyNs)
      implements WireMessage {}

  /**
   * {@link Write} issued under another requester ID: one of the functions this endpoint stands
   * for (a device or SR-IOV virtual function in a root's domain, a function of a multi-function
   * device). Issued at the endpoint's current model time.
   */
  public record WriteAs(int requester, long address, byte[] data) implements Command, WireMessage {}

  /**
   * {@link Read} issued under another requester ID, as {@link WriteAs}; its completions come back
   * to that ID and are accepted for it.
   */
  public record ReadAs(int requester, long address, int length, ActorRef<ReadResult> replyTo)
      implements Command, WireMessage {}

  /**
   * Issues one configuration request (a write when {@code writeValue} is set, else a read) of
   * {@code type} 0 or 1 to function {@code target}, as a root complex enumerating its domain does.
   * The answer is a {@link ConfigResult}. A switch drops configuration requests that arrive from
   * below a downstream port without an answer (Multi-peer), so such a request is never answered.
   */
  public record ConfigRequest(int target, int type, int register, Integer writeValue, ActorRef<ConfigResult> replyTo)
      implements Command, WireMessage {}

  /**
   * A configuration request's completion: the register's value for a read, 0 for a write.
   * {@code status} is null when no completion came within the completion timeout
   * ({@code rackfabric.fabric.completion-timeout}): answered by nobody, as for an absent function.
   */
  public record ConfigResult(int target, int register, CompletionStatus status, int value, long latencyNs)
      implements WireMessage {}

  public record StartTraffic(TrafficPlan plan, ActorRef<TrafficDone> replyTo) implements Command, WireMessage {}

  /**
   * A traffic job finished: requests sent (writes) or completed (reads), the model time span, and
   * the wall time it took.
   */
  public record TrafficDone(String id, long sent, long failed, long modelStart, long modelEnd, long wallNanos)
      implements WireMessage {}

  public record GetStats(ActorRef<EndpointStats> replyTo) implements Command, WireMessage {}

  /**
   * From now on, counts the unique numbered writes that arrive here issued (stamped) before model
   * time {@code modelAt}: what a run checks for loss across its first fault, however the traffic
   * after the fault interleaves with it ({@link EndpointStats#uniqueIssuedBefore}).
   */
  public record CountIssuedBefore(long modelAt) implements Command, WireMessage {}

  /**
   * Replies once this endpoint has received {@code uniqueWrites} distinct numbered writes in all
   * (at once if it already has): a cheap way to wait for a stream without polling statistics.
   */
  public record AwaitWrites(long uniqueWrites, ActorRef<WritesReached> replyTo) implements Command, WireMessage {}

  public record WritesReached(String id, long uniqueWrites) implements WireMessage {}

  /** Reports every posted write that lands in {@code range} to {@code replyTo}. */
  public record Watch(AddressRange range, ActorRef<EndpointEvent> replyTo) implements Command, WireMessage {}

  /** Reports AER messages reaching this root, and its own link going down, to {@code replyTo}. */
  public record WatchErrors(ActorRef<EndpointEvent> replyTo) implements Command, WireMessage {}

  /** Replies once this endpoint's link is up (DL_ACTIVE or DL_PROTECTED), at once if it is. */
  public record AwaitLinkUp(ActorRef<LinkReady> replyTo) implements Command, WireMessage {}

  public record LinkReady(String id, DataLinkState state) implements WireMessage {}

  /**
   * Changes this endpoint's inbound access check (its IOMMU): opens or closes pages, installs one.
   * Answered with {@link AccessCheckResult}; a refused change leaves the check as it was. Applied
   * only when {@code replyTo} is on this node, the run's driver or a management host's node; any
   * other is dropped unanswered (see {@link io.rackfabric.fabric.control.ControlOrigin}).
   */
  public record ChangeAccessCheck(AccessCheckChange change, ActorRef<AccessCheckResult> replyTo)
      implements Command, WireMessage {}

  /** What a {@link ChangeAccessCheck} came to; {@code detail} says what changed, or why not. */
  public record AccessCheckResult(String endpoint, boolean accepted, String detail) implements WireMessage {}

  /** Reads this endpoint's own memory directly, bypassing the fabric (tests, debugging). */
  public record Peek(long address, int length, ActorRef<byte[]> replyTo) implements Command, WireMessage {}

  /**
   * The host's own CPU storing into its memory, bypassing the fabric: host software keeping
   * structures there that peers read through the fabric (a FreeQ). Not reported to watches,
   * which are for writes arriving from the fabric; outside the BARs it is dropped and counted.
   */
  public record Store(long address, byte[] data) implements Command, WireMessage {}


  /**
   * Host software next to this endpoint becomes its guest (see {@link GuestCall}): what the
   * endpoint would send to one of {@code replyRefs} (the adapters the guest watches and reads
   * with) goes to {@code guest} as a call instead. Answered with {@link GuestCall.Attached}.
   */
  public record AttachGuest(ActorRef<GuestCall> guest, List<ActorRef<?>> replyRefs)
      implements Command, NoSerializationVerificationNeeded {}

  /**
   * A guest's software stopped: it is called no more, and a call open to it is taken as answered
   * (else the endpoint would wait for it for ever). The endpoint also tells itself this when a
   * guest's actor stops without saying so.
   */
  public record DetachGuest(ActorRef<GuestCall> guest) implements Command, NoSerializationVerificationNeeded {}

  /** A guest has done what call {@code call} asked of it (sent every write and read it caused). */
  public record GuestDone(long call) implements Command, NoSerializationVerificationNeeded {}

  /**
   * A guest's timer: a {@link GuestCall.Wake} at model time {@code at} (a device's clock running
   * on while its firmware is hung). Due at once when the endpoint is not under the kernel. A
   * {@code background} wake (a periodic timer: a heartbeat, a deadline each heartbeat moves) keeps
   * no released rack running (see {@link io.rackfabric.fabric.time.Synchronizer#scheduleBackground}).
   */
  public record WakeGuest(ActorRef<GuestCall> guest, long at, long token, boolean background)
      implements Command, NoSerializationVerificationNeeded {

    public WakeGuest(ActorRef<GuestCall> guest, long at, long token) {
      this(guest, at, token, false);
    }
  }

  /**
   * A guest takes back its wake {@code token} (a time-out whose request was answered, a timer it
   * replaced): the wake no longer keeps the rack running to its time. One already called, or never
   * asked for, is no change; free-running there is nothing to take back (wakes are due at once).
   * Sent inside a call, it arrives while the endpoint still waits in that call.
   */
  public record CancelWake(ActorRef<GuestCall> guest, long token)
      implements Command, NoSerializationVerificationNeeded {}

  /**
   * From a guest of this endpoint: {@code payload} for guest {@code to} of endpoint {@code peer}
   * (reached at {@code peerEndpoint}), sent at model time {@code at}, inside a call. Under the
   * kernel it goes out on the guest channel declared for {@code peer} ({@link GuestPeer}) and is
   * handled there as a model-time event, the channel's lookahead later: guests that talk to each
   * other directly then act at their model times, and nothing waits inside a call for the other.
   * To a guest of this same endpoint it needs no channel: one of the endpoint's own events at
   * {@code at}. Without a channel to another {@code peer} it is dropped with a warning.
   */
  public record SendToPeer(String peer, ActorRef<Command> peerEndpoint, ActorRef<GuestCall> to, WireMessage payload,
      long at) implements Command, NoSerializationVerificationNeeded {}

  /** Endpoint to endpoint: a guest message of {@link SendToPeer}, due at {@code dueAt}. */
  public record PeerMessage(String from, ActorRef<GuestCall> to, WireMessage payload, long dueAt)
      implements Command, WireMessage {}

  /** A guest's wake, due as one of the endpoint's model-time events. */
  private record GuestWake(ActorRef<GuestCall> guest, long token) implements PortMessage,
      NoSerializationVerificationNeeded {}

  private final String id;
  private final LinkEnd link;
  /** Model-time order of what arrives from the link and of the endpoint's own events. */
  private final PortTime time;
  /** The link side: partner, driver's link commands, ticks, wire. */
  private final LinkPort port;
  /** The completer: BARs, memory, access check, configuration space. */
  private final EndpointTarget target;
  /** The requester: what it issues, their completions, its traffic generator. */
  private final EndpointRequester requester;
  private final List<EndpointStats.AerRecord> aer = new ArrayList<>();
  private final List<ActorRef<LinkReady>> linkWaiters = new ArrayList<>();
  private final List<ActorRef<EndpointEvent>> errorWatchers = new ArrayList<>();
  private final EndpointGuests guests = new EndpointGuests();
  private final GuestChannels peers;
  /** A relaying root's peer-to-peer path back down its link, or null. */
  private final RootRelay relay;

  /** An endpoint that serves every inbound request (no IOMMU). */
  public static Behavior<Command> create(
      String id, int bdf, boolean root, List<AddressRange> bars, LinkParameters linkParams,
      String partnerEnd, FabricSettings settings) {
    return create(id, bdf, root, bars, linkParams, partnerEnd, settings, InboundAccessCheck.allowAll());
  }

  /**
   * An endpoint that checks every inbound memory request with {@code accessCheck} (a host's IOMMU):
   * a denied read is answered with Unsupported Request, a denied write dropped, both counted per
   * requester in {@link EndpointStats#accessDenied()}. The endpoint owns the check from now on:
   * pass a fresh one, keep no reference, change it with {@link ChangeAccessCheck}.
   */
  public static Behavior<Command> create(
      String id, int bdf, boolean root, List<AddressRange> bars, LinkParameters linkParams,
      String partnerEnd, FabricSettings settings, InboundAccessCheck accessCheck) {
    return create(id, bdf, root, bars, linkParams, partnerEnd, settings, accessCheck, List.of());
  }

  /** As above, with guest channels to {@code peers} (see {@link SendToPeer}). */
  public static Behavior<Command> create(
      String id, int bdf, boolean root, List<AddressRange> bars, LinkParameters linkParams,
      String partnerEnd, FabricSettings settings, InboundAccessCheck accessCheck, List<GuestPeer> peers) {
    return create(id, bdf, root, bars, linkParams, partnerEnd, settings, accessCheck, peers, null);
  }

  /** As above; a root with {@code relay} (null: none) sends peer-to-peer requests back down ({@link RootRelay}). */
  public static Behavior<Command> create(String id, int bdf, boolean root, List<AddressRange> bars,
      LinkParameters linkParams, String partnerEnd, FabricSettings settings, InboundAccessCheck accessCheck,
      List<GuestPeer> peers, RootRelay.Setup relay) {
    if (relay != null && !root) {
      throw new IllegalArgumentException("endpoint " + id + ": relay is for a root (root=true) only");
    }
    if (accessCheck == null) {
      throw new IllegalArgumentException("endpoint " + id + ": accessCheck is null (use InboundAccessCheck.allowAll())");
    }
    return Behaviors.<PortMessage>setup(ctx ->
        new MemoryEndpoint(ctx, id, bdf, root, bars, linkParams, partnerEnd, settings, accessCheck, peers, relay)).narrow();
  }

  private MemoryEndpoint(
      ActorContext<PortMessage> context, String id, int bdf, boolean root,
      List<AddressRange> bars, LinkParameters linkParams, String partnerEnd, FabricSettings settings,
      InboundAccessCheck accessCheck, List<GuestPeer> guestPeers, RootRelay.Setup relaying) {
    super(context);
    this.id = id;
    ActorRef<LinkFrame> self = context.getSelf().narrow();
    this.link = new LinkEnd(linkParams, settings.receiveBuffers(), settings.timers(),
        settings.replay(), settings.autoActivate(), System.nanoTime() & 0xFFFFF, new Wire(), System::nanoTime);
    this.time = new PortTime(id, context.getSelf(), link, partnerEnd, this::onTimed);
    this.port = new LinkPort(context, id, "Endpoint", link, time, settings.timers(), this::holdGuests);
    this.peers = new GuestChannels(guestPeers, time);
    this.target = new EndpointTarget(id, bdf, root, bars, settings.maxPayload(), settings.completionLatencyNs(),
        accessCheck, new TargetOutbound(), context.getLog());
    this.requester = new EndpointRequester(id, target, link, time, settings, new RequesterReplies(settings));
    this.relay = relaying == null ? null : new RootRelay(settings.rootComplex(), relaying, target::bdf, target::claims,
        (tlp, at) -> link.offer(tlp, at, -1));
    LinkDirectory.attach(context, id, self, partnerEnd, LinkPort.Connect::new);
  }

  @Override
  public Receive<PortMessage> createReceive() {
    return port.linkMessages(time.kernelMessages(newReceiveBuilder(), () -> this), () -> this)
        .onMessage(LinkFrame.class, this::onLinkFrame)
        .onMessage(JoinKeeper.class, this::onJoinKeeper)
        .onMessage(Write.class, this::onWrite)
        .onMessage(Read.class, this::onRead)
        .onMessage(WriteAs.class, this::onWriteAs)
        .onMessage(ReadAs.class, this::onReadAs)
        .onMessage(ChangeAccessCheck.class, this::onChangeAccessCheck)
        .onMessage(ConfigRequest.class, this::onConfigRequest)
        .onMessage(EndpointRequester.ConfigTimedOut.class, this::onConfigTimedOut)
        .onMessage(StartTraffic.class, this::onStartTraffic)
        .onMessage(GetStats.class, this::onGetStats)
        .onMessage(CountIssuedBefore.class, this::onCountIssuedBefore)
        .onMessage(AwaitWrites.class, this::onAwaitWrites)
        .onMessage(AwaitLinkUp.class, this::onAwaitLinkUp)
        .onMessage(Watch.class, this::onWatch)
        .onMessage(AttachGuest.class, this::onAttachGuest)
        .onMessage(GuestDone.class, this::onGuestDone)
        .onMessage(DetachGuest.class, this::onDetachGuest)
        .onMessage(WakeGuest.class, this::onWakeGuest)
        .onMessage(CancelWake.class, this::onCancelWake)
        .onMessage(SendToPeer.class, this::onSendToPeer)
        .onMessage(PeerMessage.class, this::onPeerMessage)
        .onMessage(WatchErrors.class, this::onWatchErrors)
        .onMessage(Peek.class, this::onPeek)
        .onMessage(Store.class, this::onStore)
        .build();
  }

  /** A frame from the link: a model-time event, or link management handled at once. */
  private Behavior<PortMessage> onLinkFrame(LinkFrame frame) {
    time.frame(frame, this::onFrame);
    return this;
  }

  /** Handles one model-time event, in the synchronizer's order. */
  private void onTimed(PortMessage event) {
    if (event instanceof PartnerLink.Gone g) {
      port.partnerGoneAtItsTime(g);
    } else if (event instanceof LinkFrame f) {
      onFrame(f);
    } else if (event == EndpointRequester.PlanStart.INSTANCE) {
      requester.traffic().due();
    } else if (event instanceof GuestWake w) {
      if (guests.attached(w.guest())) { // a detached guest's timers end with it
        w.guest().tell(new GuestCall.Wake(guests.open(w.guest()), time.now(), w.token()));
        time.suspend();
      }
    } else if (event instanceof PeerMessage m) {
      if ((peers.knows(m.from()) || m.from().equals(id)) && guests.all().contains(m.to())) {
        m.to().tell(new GuestCall.FromPeer(guests.open(m.to()), time.now(), m.from(), m.payload()));
        time.suspend();
      } else {
        getContext().getLog().warn("Endpoint [{}] dropped a guest message from [{}]: {}", id, m.from(),
            peers.knows(m.from()) ? "its guest is not attached here" : "no guest channel from it");
      }
    } else if (event instanceof Write w) {
      onWrite(w);
    } else if (event instanceof Read r) {
      onRead(r);
    } else if (event instanceof EndpointRequester.ConfigTimedOut t) {
      onConfigTimedOut(t);
    }
  }

  /** Joins the run's time keeper; the one channel is the link. */
  private Behavior<PortMessage> onJoinKeeper(JoinKeeper msg) {
    time.join(msg, getContext().getSelf().narrow());
    guests.all().forEach(g -> g.tell(new GuestCall.Attached(true)));
    return this;
  }

  private Behavior<PortMessage> onAttachGuest(AttachGuest msg) {
    guests.attach(msg.guest(), msg.replyRefs());
    getContext().watchWith(msg.guest(), new DetachGuest(msg.guest()));
    msg.guest().tell(new GuestCall.Attached(time.joined()));
    return this;
  }

  private Behavior<PortMessage> onDetachGuest(DetachGuest msg) {
    getContext().unwatch(msg.guest());
    if (guests.detach(msg.guest())) {
      time.resume();
    }
    return this;
  }

  private Behavior<PortMessage> onGuestDone(GuestDone msg) {
    if (guests.answered(msg.call())) {
      time.resume();
    }
    return this;
  }

  /**
   * A hold of the link reaches the guests too ({@link GuestCall.Hold}); {@code reached} runs once
   * each answered. A notice outside model time: the endpoint's events go on meanwhile.
   */
  private void holdGuests(long modelAt, Runnable reached) {
    guests.openNotices(reached).forEach((guest, call) -> guest.tell(new GuestCall.Hold(call, modelAt)));
  }

  private Behavior<PortMessage> onWakeGuest(WakeGuest msg) {
    GuestWake wake = new GuestWake(msg.guest(), msg.token());
    if (msg.background()) {
      time.scheduleBackground(msg.at(), wake);
    } else {
      time.schedule(msg.at(), wake);
    }
    return this;
  }

  /** The queued wake is found by equality: the same guest and token. */
  private Behavior<PortMessage> onCancelWake(CancelWake msg) {
    time.cancel(new GuestWake(msg.guest(), msg.token()));
    return this;
  }

  private Behavior<PortMessage> onSendToPeer(SendToPeer msg) {
    if (msg.peer().equals(id)) { // a neighbour guest: in order with the endpoint's own events
      time.schedule(msg.at(), new PeerMessage(id, msg.to(), msg.payload(), msg.at()));
      return this;
    }
    GuestChannels.Out out = peers.out(msg.peer());
    if (out == null) {
      getContext().getLog().warn("Endpoint [{}] has no guest channel to [{}]: a guest's {} dropped", id, msg.peer(),
          msg.payload() == null ? "message" : msg.payload().getClass().getSimpleName());
      return this;
    }
    long at = time.joined() ? Math.max(msg.at(), time.now()) : msg.at();
    msg.peerEndpoint().tell(new PeerMessage(id, msg.to(), msg.payload(), at + out.lookaheadNs()));
    time.sent(out.channel());
    return this;
  }

  /** Counted in whatever it carries (its sender counted it out), and judged when it is due. */
  private Behavior<PortMessage> onPeerMessage(PeerMessage msg) {
    time.receive(msg.dueAt(), peers.in(msg.from()), msg);
    return this;
  }

  /**
   * Tells {@code to} {@code msg}, or, when {@code to} is a guest's, calls the guest with it: the
   * endpoint's next events then wait for its answer (see {@link GuestCall}).
   */
  private <T> void tellOrCall(ActorRef<T> to, T msg, LongFunction<GuestCall> asCall) {
    ActorRef<GuestCall> guest = guests.guestOf(to);
    if (guest == null) {
      to.tell(msg);
      return;
    }
    guest.tell(asCall.apply(guests.open(guest)));
    time.suspend();
  }

  /**
   * Under the kernel a write or read stamped later than the endpoint's clock (a guest's next
   * packet, a host's delayed answer) is one of its model-time events at that time, so that it
   * takes the link in model-time order with everything else; true when it was put off so.
   */
  private boolean putOff(PortMessage msg, long at) {
    if (!time.joined() || at <= time.now()) {
      return false;
    }
    time.schedule(at, msg);
    return true;
  }

  private Behavior<PortMessage> onFrame(LinkFrame frame) {
    long arrival = link.onFrame(frame);
    if (arrival < 0) {
      return this;
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
        getContext().getLog().warn("Endpoint [{}] unexpected completion for {} (tag {}), dropped", id,
            Bdf.format(c.requester()), c.tag());
      }
    } else if (tlp instanceof ConfigRead || tlp instanceof ConfigWrite) {
      target.config(tlp, arrival);
    } else if (tlp instanceof ErrorMessage e) {
      reportError(new EndpointStats.AerRecord(Bdf.format(e.requester()), e.severity().name(), e.cause().name(), arrival));
      getContext().getLog().info("Endpoint [{}] AER {} {} from {} at model {} ns", id, e.severity(), e.cause(),
          Bdf.format(e.requester()), arrival);
    }
    link.free(tlp, arrival);
    return this;
  }

  private Behavior<PortMessage> onWrite(Write msg) {
    if (putOff(msg, msg.at())) {
      return this;
    }
    if (target.root() && target.claims(msg.address(), msg.data().length)) {
      // A root's own memory (a host's CPU storing to its DRAM): it never reaches the link, as
      // RouteExplainer says, and is not reported to watchers, which follow inbound writes. A
      // device's write to its own BAR does go out (a multicast window may overlap it).
      target.storeOwn(msg.address(), msg.data());
      return this;
    }
    requester.write(msg.address(), msg.data(), msg.at());
    return this;
  }

  private Behavior<PortMessage> onRead(Read msg) {
    if (putOff(msg, msg.at())) {
      return this;
    }
    if (target.root() && target.claims(msg.address(), msg.length())) {
      msg.replyTo().tell(new ReadResult(msg.address(), CompletionStatus.SUCCESSFUL,
          target.read(msg.address(), msg.length()), 0)); // own memory, as for Write
      return this;
    }
    requester.read(msg, target.bdf(), msg.address(), msg.length(), msg.at(), msg.replyTo());
    return this;
  }

  private Behavior<PortMessage> onReadAs(ReadAs msg) {
    if (msg.requester() < 0 || msg.requester() > 0xFFFF) {
      getContext().getLog().warn("Endpoint [{}] ReadAs requester=0x{} is not a 16-bit ID; refused", id,
          Integer.toHexString(msg.requester()));
      msg.replyTo().tell(new ReadResult(msg.address(), CompletionStatus.COMPLETER_ABORT, null, 0));
      return this;
    }
    requester.read(msg, msg.requester(), msg.address(), msg.length(), -1, msg.replyTo());
    return this;
  }

  private Behavior<PortMessage> onWriteAs(WriteAs msg) {
    if (msg.requester() < 0 || msg.requester() > 0xFFFF) {
      getContext().getLog().warn("Endpoint [{}] WriteAs requester=0x{} is not a 16-bit ID; dropped", id,
          Integer.toHexString(msg.requester()));
      return this;
    }
    requester.writeAs(msg.requester(), msg.address(), msg.data());
    return this;
  }

  private Behavior<PortMessage> onConfigRequest(ConfigRequest msg) {
    requester.config(msg);
    return this;
  }

  private Behavior<PortMessage> onConfigTimedOut(EndpointRequester.ConfigTimedOut msg) {
    requester.configTimedOut(msg);
    return this;
  }

  private Behavior<PortMessage> onStartTraffic(StartTraffic msg) {
    if (!requester.startTraffic(msg)) {
      getContext().getLog().warn("Endpoint [{}] is already running traffic; request refused", id);
    }
    return this;
  }

  private Behavior<PortMessage> onCountIssuedBefore(CountIssuedBefore msg) {
    target.arrivals().countIssuedBefore(msg.modelAt());
    return this;
  }

  private Behavior<PortMessage> onGetStats(GetStats msg) {
    var c = link.counters();
    PortStats ps = new PortStats(id, link.state(), c.tlpsReceived, c.tlpsSent, c.dllpsSent, c.dllpsReceived,
        0, 0, 0, c.purged, c.droppedLinkDown, c.receiverOverflows, 0, c.linkUps, c.linkDowns, link.modelNow(),
        0, LinkRetryStats.of(c));
    ArrivalBook arrivals = target.arrivals();
    StreamTracker streams = arrivals.streams();
    msg.replyTo().tell(new EndpointStats(id, arrivals.writes(), streams.unique(), streams.duplicates(),
        streams.reordered(), arrivals.bytes(), target.readsServed(), target.outsideBars(), requester.writesSent(),
        requester.readsSent(), requester.readsCompleted(), requester.readsFailed(), arrivals.latencyHistogram(),
        arrivals.minLatency(), arrivals.maxLatency(), List.copyOf(aer), ps, target.denials().snapshot(),
        arrivals.uniqueIssuedBefore()));
    return this;
  }

  private Behavior<PortMessage> onChangeAccessCheck(ChangeAccessCheck msg) {
    if (ControlOrigins.admitsConfiguration(getContext(), id, msg, msg.replyTo())) {
      msg.replyTo().tell(target.changeAccessCheck(msg.change()));
    }
    return this;
  }

  private Behavior<PortMessage> onAwaitWrites(AwaitWrites msg) {
    target.arrivals().await(msg.uniqueWrites(), unique -> msg.replyTo().tell(new WritesReached(id, unique)));
    return this;
  }

  private Behavior<PortMessage> onWatch(Watch msg) {
    target.watch(msg);
    return this;
  }

  private Behavior<PortMessage> onWatchErrors(WatchErrors msg) {
    errorWatchers.add(msg.replyTo());
    return this;
  }

  /** The root's AER sink: an error message or its own link's failure, shown to the error watchers. */
  private void reportError(EndpointStats.AerRecord error) {
    aer.add(error);
    EndpointEvent event = new EndpointEvent.ErrorReported(id, error);
    errorWatchers.forEach(w -> tellOrCall(w, event, call -> new GuestCall.Event(call, event)));
  }

  private Behavior<PortMessage> onAwaitLinkUp(AwaitLinkUp msg) {
    linkWaiters.add(msg.replyTo());
    answerLinkWaiters();
    return this;
  }

  private void answerLinkWaiters() {
    if (link.isUp()) {
      linkWaiters.forEach(w -> w.tell(new LinkReady(id, link.state())));
      linkWaiters.clear();
    }
  }

  private Behavior<PortMessage> onPeek(Peek msg) {
    msg.replyTo().tell(target.read(msg.address(), msg.length()));
    return this;
  }

  private Behavior<PortMessage> onStore(Store msg) {
    target.store(msg.address(), msg.data());
    return this;
  }

  /** The completer's answers go on the link; what it stored is shown to the watchers (or their guest). */
  private final class TargetOutbound implements EndpointTarget.Outbound {
    @Override
    public void offer(Tlp tlp, long at) {
      link.offer(tlp, at, -1);
    }

    @Override
    public void written(EndpointEvent.MemoryWritten event, Watch watch) {
      tellOrCall(watch.replyTo(), event, call -> new GuestCall.Event(call, event));
    }
  }

  private final class RequesterReplies implements EndpointRequester.Replies {
    private final FabricSettings settings;

    RequesterReplies(FabricSettings settings) {
      this.settings = settings;
    }

    @Override
    public <T> void answer(ActorRef<T> to, T msg, LongFunction<GuestCall> asCall) {
      tellOrCall(to, msg, asCall);
    }

    @Override
    public void afterWallTimeout(EndpointRequester.ConfigTimedOut timeout) {
      getContext().scheduleOnce(settings.freeRunningCompletionTimeout(), getContext().getSelf(), timeout);
    }
  }

  private final class Wire implements LinkEnd.Listener {
    @Override
    public void send(LinkFrame frame) {
      port.send(frame);
    }

    @Override
    public void transmitted(Object token, Tlp tlp, long sentAt) {
      if (requester.traffic().runningWrites()) {
        requester.traffic().pump();
      }
    }

    @Override
    public void linkUp(long modelAt) {
      getContext().getLog().debug("Endpoint [{}] link up", id);
      requester.traffic().pump();
      answerLinkWaiters();
    }

    @Override
    public void linkDown(ErrorMessage.Cause cause, long modelAt, List<LinkEnd.Queued> purged) {
      getContext().getLog().info("Endpoint [{}] link down ({}), {} queued TLPs lost", id, cause, purged.size());
      if (target.root()) {
        reportError(new EndpointStats.AerRecord(Bdf.format(target.bdf()), ErrorMessage.Severity.FATAL.name(),
            cause.name(), modelAt));
      }
    }
  }
}
