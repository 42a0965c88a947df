package io.rackfabric.fabric.endpoint;

import akka.actor.NoSerializationVerificationNeeded;
import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import akka.actor.typed.javadsl.ReceiveBuilder;
import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.link.DataLinkState;
import io.rackfabric.fabric.link.LinkDirectory;
import io.rackfabric.fabric.link.LinkFrame;
import io.rackfabric.fabric.link.LinkParameters;
import io.rackfabric.fabric.link.PortMessage;
import io.rackfabric.fabric.port.LinkPort;
import io.rackfabric.fabric.rootcomplex.RootRelay;
import io.rackfabric.fabric.settings.FabricSettings;
import io.rackfabric.fabric.stats.EndpointStats;
import io.rackfabric.fabric.time.JoinKeeper;
import io.rackfabric.fabric.tlp.CompletionStatus;
import io.rackfabric.fabric.wire.WireMessage;
import java.util.List;

/**
 * A memory endpoint at the end of one link: it stores posted writes that hit its BARs, answers
 * reads with completions split at Max_Payload_Size, and can act as a requester and a traffic
 * generator. As the root complex of a domain it also collects AER messages. Anything outside its
 * BARs gets Unsupported Request (reads) or is dropped and counted (writes). The actor only hands
 * each message to one of its parts ({@link EndpointParts}).
 */
public final class MemoryEndpoint extends AbstractBehavior<PortMessage> {

  public sealed interface Command extends PortMessage
      permits Write, Read, WriteAs, ReadAs, ChangeAccessCheck, GateBarWindows, HotAdd, HotRemove, ConfigRequest, StartTraffic, GetStats,
          AwaitWrites, AwaitLinkUp, CountIssuedBefore, Watch, WatchErrors, WatchPathTable, Peek, Store, AttachGuest, DetachGuest, GuestDone, WakeGuest, CancelWake, SendToPeer, PeerMessage, KeepFabricDatabase, FabricDatabaseKept,
          StartDiscovery {}

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

  /**
   * The answer to a read of {@code address} issued at model time {@code issuedAt} (-1: not known),
   * {@code latencyNs} later: the issue time tells apart reads of one address (a read lost on a dead
   * link is never answered: no completion timeout in the model).
   */
  public record ReadResult(long address, CompletionStatus status, byte[] data, long latencyNs, long issuedAt)
      implements WireMessage {
    /** An answer whose read's issue time is not known. */
    public ReadResult(long address, CompletionStatus status, byte[] data, long latencyNs) {
      this(address, status, data, latencyNs, -1);
    }
  }

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
  /**
   * A traffic plan is over: requests sent and failed, its model span, its wall time, and how many
   * of its requests went to a shifted address, following the path table ({@link TrafficPlan#follow}).
   */
  public record TrafficDone(String id, long sent, long failed, long modelStart, long modelEnd, long wallNanos,
      long rerouted) implements WireMessage {}

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

  /**
   * Tells {@code replyTo} ({@link EndpointEvent.PathTableWritten}) each time this endpoint's device
   * manager comes to hold a distribution of paths whole; a guest's ref is called with it.
   */
  public record WatchPathTable(ActorRef<EndpointEvent> replyTo) implements Command, WireMessage {}

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

  /**
   * Gates {@code device}'s BAR windows as this root reaches them ({@code windows}, addresses of
   * its own domain leading through NTBs to another host's device), closed until a {@link HotAdd}
   * (Device Lending section 4: the borrower's mapping of a lent device exists only while it holds
   * the loan). Until then every read there ends in a master abort and every write is dropped, both
   * counted in {@link EndpointStats#barWindows()}. Answered with {@link BarWindowsChanged}; admitted
   * as a {@link ChangeAccessCheck} is.
   */
  public record GateBarWindows(String device, List<AddressRange> windows, ActorRef<BarWindowsChanged> replyTo)
      implements Command, WireMessage {

    public GateBarWindows {
      windows = windows == null ? null : List.copyOf(windows);
    }
  }

  /**
   * {@code device} is hot-added into this host (its borrow was accepted): its gated BAR windows
   * open. Sent by the host's own software in the call in which it learnt of the loan, so it is
   * in force from that model time on. Answered with {@link BarWindowsChanged}.
   */
  public record HotAdd(String device, ActorRef<BarWindowsChanged> replyTo) implements Command, WireMessage {}

  /** {@code device} is hot-removed from this host (returned): its BAR windows close again. */
  public record HotRemove(String device, ActorRef<BarWindowsChanged> replyTo) implements Command, WireMessage {}

  /** What a {@link GateBarWindows}, {@link HotAdd} or {@link HotRemove} came to. */
  public record BarWindowsChanged(String endpoint, String device, boolean accepted, String detail)
      implements WireMessage {}

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

  /**
   * The fabric manager running on this endpoint ({@link ManagementSetup#fabricManager}) starts
   * discovering the fabric at model time {@code at}, or at the endpoint's clock when that is later
   * (as soon as its link is up when it is down then); its report is in the endpoint's statistics
   * ({@link EndpointStats#fabricManager}). Sent once the rack is up and held before {@code at}, as
   * a run's driver hands over traffic. Without a fabric manager here, or a second time, it is
   * refused with a warning.
   */
  public record StartDiscovery(long at) implements Command, WireMessage {}

  /**
   * Guest {@code guest} (the management host's control-plane software in the Ladon rack) keeps the
   * fabric manager's topology database in its controller's event-sourced state: the fabric manager
   * here hands it every change ({@link GuestCall.FabricDatabaseChanged}) and, taking over, asks it
   * for the database ({@link GuestCall.FabricDatabaseWanted}). One keeper; a later one replaces it.
   */
  public record KeepFabricDatabase(ActorRef<GuestCall> guest) implements Command, NoSerializationVerificationNeeded {}

  /**
   * The keeper's answer to {@link GuestCall.FabricDatabaseWanted}, sent inside that call: the
   * database its controller's state holds as a full copy ({@code database}), recorded by fabric
   * manager {@code manager}; {@code database} null when it holds none.
   */
  public record FabricDatabaseKept(String manager, io.rackfabric.fabric.management.DatabaseDelta database)
      implements Command, NoSerializationVerificationNeeded {}

  private final String id;
  /** Its parts, one job each; each message goes to one of them. */
  private final EndpointParts parts;

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
    return create(id, bdf, root, bars, linkParams, partnerEnd, settings, accessCheck, peers, relay,
        ManagementSetup.NONE);
  }

  /**
   * As above, with management {@code managed}: the endpoint's device manager answers PI-4 packets
   * from its configuration space, and the fabric manager runs here when the setup says so
   * ({@link ManagementSetup}).
   */
  public static Behavior<Command> create(String id, int bdf, boolean root, List<AddressRange> bars,
      LinkParameters linkParams, String partnerEnd, FabricSettings settings, InboundAccessCheck accessCheck,
      List<GuestPeer> peers, RootRelay.Setup relay, ManagementSetup managed) {
    if (relay != null && !root) {
      throw new IllegalArgumentException("endpoint " + id + ": relay is for a root (root=true) only");
    }
    if (accessCheck == null) {
      throw new IllegalArgumentException("endpoint " + id + ": accessCheck is null (use InboundAccessCheck.allowAll())");
    }
    return Behaviors.<PortMessage>setup(ctx ->
        new MemoryEndpoint(ctx, id, bdf, root, bars, linkParams, partnerEnd, settings, accessCheck, peers, relay,
            managed == null ? ManagementSetup.NONE : managed)).narrow();
  }

  private MemoryEndpoint(
      ActorContext<PortMessage> context, String id, int bdf, boolean root,
      List<AddressRange> bars, LinkParameters linkParams, String partnerEnd, FabricSettings settings,
      InboundAccessCheck accessCheck, List<GuestPeer> guestPeers, RootRelay.Setup relaying,
      ManagementSetup managed) {
    super(context);
    this.id = id;
    this.parts = new EndpointParts(context, id, bdf, root, bars, linkParams, partnerEnd, settings, accessCheck,
        guestPeers, relaying, managed);
    LinkDirectory.attach(context, id, context.getSelf().narrow(), partnerEnd, LinkPort.Connect::new);
  }

  /**
   * The link's and the kernel's messages, the actor's own, then each part's (see {@link
   * EndpointParts#register}): requests to issue, control origins' changes, questions and watches,
   * the guest protocol.
   */
  @Override
  public Receive<PortMessage> createReceive() {
    ReceiveBuilder<PortMessage> builder =
        parts.port.linkMessages(parts.time.kernelMessages(newReceiveBuilder(), () -> this), () -> this)
            .onMessage(LinkFrame.class, this::onLinkFrame)
            .onMessage(JoinKeeper.class, this::onJoinKeeper)
            .onMessage(StartDiscovery.class, this::onStartDiscovery)
            .onMessage(FabricDatabaseKept.class, this::onFabricDatabaseKept);
    parts.register(new PartMessages(builder, () -> this));
    return builder.build();
  }

  /** A frame from the link: a model-time event, or link management handled at once. */
  private Behavior<PortMessage> onLinkFrame(LinkFrame frame) {
    parts.time.frame(frame, parts.events::frame);
    return this;
  }

  /** Joins the run's time keeper; the one channel is the link. */
  private Behavior<PortMessage> onJoinKeeper(JoinKeeper msg) {
    parts.time.join(msg, getContext().getSelf().narrow());
    parts.guests.joined();
    return this;
  }

  private Behavior<PortMessage> onStartDiscovery(StartDiscovery msg) {
    if (!parts.management.startAt(msg.at())) {
      getContext().getLog().warn("Endpoint [{}] refused a discovery at {} ns: no fabric manager runs here, or it"
          + " started already", id, msg.at());
    }
    return this;
  }

  private Behavior<PortMessage> onFabricDatabaseKept(FabricDatabaseKept msg) {
    parts.management.takeOverKept(msg.manager(), msg.database());
    return this;
  }
}
