package io.rackfabric.fabric.endpoint;

import akka.actor.NoSerializationVerificationNeeded;
import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.PostStop;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.address.Addresses;
import io.rackfabric.fabric.config.BarRegisters;
import io.rackfabric.fabric.config.ConfigSpace;
import io.rackfabric.fabric.control.ControlOrigins;
import io.rackfabric.fabric.link.DataLinkState;
import io.rackfabric.fabric.link.FaultHorizon;
import io.rackfabric.fabric.link.LinkDirectory;
import io.rackfabric.fabric.link.LinkEnd;
import io.rackfabric.fabric.link.LinkErrors;
import io.rackfabric.fabric.link.LinkFrame;
import io.rackfabric.fabric.link.LinkParameters;
import io.rackfabric.fabric.link.LinkTicks;
import io.rackfabric.fabric.link.PartnerLink;
import io.rackfabric.fabric.link.PortMessage;
import io.rackfabric.fabric.port.LinkPort;
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
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * A memory endpoint at the end of one link: it stores posted writes that hit its BARs, answers
 * reads with completions split at Max_Payload_Size, and can act as a requester and a traffic
 * generator. As the root complex of a domain it also collects AER messages. Anything outside its
 * BARs gets Unsupported Request (reads) or is dropped and counted (writes).
 */
public final class MemoryEndpoint extends AbstractBehavior<PortMessage> {

  public sealed interface Command extends PortMessage
      permits Connect, SetLink, InjectLinkErrors, HoldFrom, Write, Read, WriteAs, ReadAs, ChangeAccessCheck, ConfigRequest, StartTraffic, GetStats,
          AwaitWrites, AwaitLinkUp, CountIssuedBefore, Watch, WatchErrors, Peek, Store, Tick, AttachGuest, GuestDone, WakeGuest {}

  public record Connect(ActorRef<LinkFrame> partner) implements Command, WireMessage {}

  /**
   * Fault injection: takes the link down (or brings it back) at this end, at a model time.
   * {@code origin} is the sending side: applied only from the run's driver or this node ({@link
   * io.rackfabric.fabric.control.ControlOrigin}), as are the other fault and access-check messages.
   */
  public record SetLink(boolean up, long modelAt, ActorRef<?> origin) implements Command, WireMessage {}

  /**
   * Fault injection: drops, corrupts or delays TLPs this endpoint transmits (see {@link
   * LinkErrors}); {@link LinkErrors#NONE} stops it. Answered with the errors now in force.
   */
  public record InjectLinkErrors(LinkErrors errors, ActorRef<LinkErrors> replyTo)
      implements Command, WireMessage {}

  /**
   * Holds TLPs that would start on this end's link at or after {@code modelAt} until raised
   * ({@code Long.MAX_VALUE}: hold nothing); answered once in effect. Scenarios set it to the next
   * fault's model time (see {@link io.rackfabric.fabric.link.LinkEnd#holdFrom}).
   */
  public record HoldFrom(long modelAt, ActorRef<FaultHorizon> replyTo) implements Command, WireMessage {}

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

  /** A guest has done what call {@code call} asked of it (sent every write and read it caused). */
  public record GuestDone(long call) implements Command, NoSerializationVerificationNeeded {}

  /**
   * A guest's timer: a {@link GuestCall.Wake} at model time {@code at} (a device's clock running
   * on while its firmware is hung). Due at once when the endpoint is not under the kernel.
   */
  public record WakeGuest(ActorRef<GuestCall> guest, long at, long token)
      implements Command, NoSerializationVerificationNeeded {}

  /** A configuration request's completion timeout: due as a model-time event, or a wall timer free-running. */
  private record ConfigTimedOut(int tag, ConfigRequest request) implements PortMessage,
      NoSerializationVerificationNeeded {}

  /** A guest's wake, due as one of the endpoint's model-time events. */
  private record GuestWake(ActorRef<GuestCall> guest, long token) implements PortMessage,
      NoSerializationVerificationNeeded {}

  // Local only, like every scheduled tick: exempt from serialize-messages checks.
  private enum Tick implements Command, NoSerializationVerificationNeeded { INSTANCE }

  /** The endpoint's own model-time event: a traffic plan's first (or, under the kernel, next) request is due. */
  private enum PlanStart implements PortMessage, NoSerializationVerificationNeeded { INSTANCE }


  private final String id;
  /** Its ID; PCIe functions capture bus and device from the type-0 configuration writes they get. */
  private int bdf;
  private final boolean root;
  /** The ranges its BARs decode; they follow configuration writes to {@link #barRegisters}. */
  private List<AddressRange> bars;
  private final BarRegisters barRegisters;
  private final FabricSettings settings;
  private final LinkEnd link;
  private final ActorRef<LinkFrame> self;
  /** Model-time order of what arrives from the link and of the endpoint's own events. */
  private final PortTime time;
  /** The link side: partner, driver's link commands, ticks, wire. */
  private final LinkPort port;
  private final SparseMemory memory = new SparseMemory();
  private final ArrivalBook arrivals = new ArrivalBook();
  /** Under the kernel, each outstanding configuration request's completion timeout (an event). */
  private final Map<ConfigRequest, ConfigTimedOut> configTimeouts = new IdentityHashMap<>();
  /** Outstanding non-posted requests by tag: the Read or ConfigRequest asking, null for traffic. */
  private final PendingReads<Command> reads = new PendingReads<>();
  private final List<EndpointStats.AerRecord> aer = new ArrayList<>();
  private final List<ActorRef<LinkReady>> linkWaiters = new ArrayList<>();
  private final List<Watch> watches = new ArrayList<>();
  private final List<ActorRef<EndpointEvent>> errorWatchers = new ArrayList<>();
  private final AccessDenials denials = new AccessDenials();
  private final EndpointGuests guests = new EndpointGuests();
  private InboundAccessCheck accessCheck;
  private long readsServed;
  private long outsideBars;
  private long writesSent;
  private long readsSent;
  private long readsCompleted;
  private long readsFailed;
  private long streamSeq;
  // The running traffic job, if any.
  private final TrafficGenerator traffic;
  private ActorRef<TrafficDone> planReplyTo;

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
    if (accessCheck == null) {
      throw new IllegalArgumentException("endpoint " + id + ": accessCheck is null (use InboundAccessCheck.allowAll())");
    }
    return Behaviors.<PortMessage>setup(ctx ->
        new MemoryEndpoint(ctx, id, bdf, root, bars, linkParams, partnerEnd, settings, accessCheck)).narrow();
  }

  private MemoryEndpoint(
      ActorContext<PortMessage> context, String id, int bdf, boolean root,
      List<AddressRange> bars, LinkParameters linkParams, String partnerEnd, FabricSettings settings,
      InboundAccessCheck accessCheck) {
    super(context);
    this.accessCheck = accessCheck;
    this.id = id;
    this.bdf = bdf;
    this.root = root;
    this.bars = List.copyOf(bars);
    this.barRegisters = new BarRegisters(this.bars, false);
    this.settings = settings;
    this.self = context.getSelf().narrow();
    this.link = new LinkEnd(linkParams, settings.receiveBuffers(), settings.timers(),
        settings.replay(), settings.autoActivate(), System.nanoTime() & 0xFFFFF, new Wire(), System::nanoTime);
    this.time = new PortTime(id, context.getSelf(), link, partnerEnd, this::onTimed);
    this.port = new LinkPort(context, id, "Endpoint", link, time,
        LinkTicks.start(context, settings.timers(), Tick.INSTANCE));
    this.traffic = new TrafficGenerator(id, new GeneratorPort());
    LinkDirectory.attach(context, id, self, partnerEnd, Connect::new);
  }

  @Override
  public Receive<PortMessage> createReceive() {
    return time.kernelMessages(newReceiveBuilder(), () -> this)
        .onMessage(LinkFrame.class, this::onLinkFrame)
        .onMessage(JoinKeeper.class, this::onJoinKeeper)
        .onMessage(Tick.class, this::onTick)
        .onMessage(Write.class, this::onWrite)
        .onMessage(Read.class, this::onRead)
        .onMessage(WriteAs.class, this::onWriteAs)
        .onMessage(ReadAs.class, this::onReadAs)
        .onMessage(ChangeAccessCheck.class, this::onChangeAccessCheck)
        .onMessage(ConfigRequest.class, this::onConfigRequest)
        .onMessage(ConfigTimedOut.class, this::onConfigTimedOut)
        .onMessage(StartTraffic.class, this::onStartTraffic)
        .onMessage(GetStats.class, this::onGetStats)
        .onMessage(CountIssuedBefore.class, this::onCountIssuedBefore)
        .onMessage(AwaitWrites.class, this::onAwaitWrites)
        .onMessage(AwaitLinkUp.class, this::onAwaitLinkUp)
        .onMessage(Watch.class, this::onWatch)
        .onMessage(AttachGuest.class, this::onAttachGuest)
        .onMessage(GuestDone.class, this::onGuestDone)
        .onMessage(WakeGuest.class, this::onWakeGuest)
        .onMessage(WatchErrors.class, this::onWatchErrors)
        .onMessage(Peek.class, this::onPeek)
        .onMessage(Store.class, this::onStore)
        .onMessage(Connect.class, this::onConnect)
        .onMessage(PartnerLink.Gone.class, this::onPartnerGone)
        .onMessage(SetLink.class, this::onSetLink)
        .onMessage(InjectLinkErrors.class, this::onInjectLinkErrors)
        .onMessage(HoldFrom.class, this::onHoldFrom)
        .onSignal(PostStop.class, this::onPostStop)
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
    } else if (event == PlanStart.INSTANCE) {
      traffic.due();
    } else if (event instanceof GuestWake w) {
      w.guest().tell(new GuestCall.Wake(guests.open(), time.now(), w.token()));
      time.suspend();
    } else if (event instanceof Write w) {
      onWrite(w);
    } else if (event instanceof Read r) {
      onRead(r);
    } else if (event instanceof ConfigTimedOut t) {
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
    msg.guest().tell(new GuestCall.Attached(time.joined()));
    return this;
  }

  private Behavior<PortMessage> onGuestDone(GuestDone msg) {
    if (guests.answered(msg.call())) {
      time.resume();
    }
    return this;
  }

  private Behavior<PortMessage> onWakeGuest(WakeGuest msg) {
    time.schedule(msg.at(), new GuestWake(msg.guest(), msg.token()));
    return this;
  }

  /**
   * Tells {@code to} {@code msg}, or, when {@code to} is a guest's, calls the guest with it: the
   * endpoint's next events then wait for its answer (see {@link GuestCall}).
   */
  private <T> void tellOrCall(ActorRef<T> to, T msg, java.util.function.LongFunction<GuestCall> asCall) {
    ActorRef<GuestCall> guest = guests.guestOf(to);
    if (guest == null) {
      to.tell(msg);
      return;
    }
    guest.tell(asCall.apply(guests.open()));
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
    if (tlp instanceof MemWrite w) {
      onMemWrite(w, arrival);
    } else if (tlp instanceof MemRead r) {
      onMemRead(r, arrival);
    } else if (tlp instanceof Completion c) {
      onCompletion(c, arrival);
    } else if (tlp instanceof ConfigRead || tlp instanceof ConfigWrite) {
      onConfig(tlp, arrival);
    } else if (tlp instanceof ErrorMessage e) {
      reportError(new EndpointStats.AerRecord(Bdf.format(e.requester()), e.severity().name(), e.cause().name(), arrival));
      getContext().getLog().info("Endpoint [{}] AER {} {} from {} at model {} ns", id, e.severity(), e.cause(),
          Bdf.format(e.requester()), arrival);
    }
    link.free(tlp, arrival);
    return this;
  }

  private boolean claims(long address, int length) {
    for (AddressRange bar : bars) {
      if (bar.containsAll(address, length)) {
        return true;
      }
    }
    return false;
  }

  private void onMemWrite(MemWrite w, long arrival) {
    if (accessCheck.decide(w.requester(), w.address(), w.length(), true) == InboundAccessCheck.Decision.DENY) {
      // A posted write gets no answer: dropped and counted, never seen by watchers.
      denials.count(w.requester(), true);
      getContext().getLog().debug("Endpoint [{}] denied write of {} bytes at {} by {}", id, w.length(),
          Addresses.hex(w.address()), Bdf.format(w.requester()));
      return;
    }
    if (!claims(w.address(), w.length())) {
      outsideBars++;
      return;
    }
    if (w.data() != null) {
      memory.write(w.address(), w.data());
    }
    boolean watched = false;
    for (int i = 0; i < watches.size(); i++) {
      Watch watch = watches.get(i);
      if (watch.range().overlaps(new AddressRange(w.address(), w.address() + w.length() - 1))) {
        watched = true;
        EndpointEvent event = new EndpointEvent.MemoryWritten(id, w.address(), w.length(), w.data(), w.requester(),
            arrival);
        tellOrCall(watch.replyTo(), event, call -> new GuestCall.Event(call, event));
      }
    }
    arrivals.arrived(w.requester(), w.seq(), w.originAt(), w.length(), arrival, !watched);
  }

  private void onMemRead(MemRead r, long arrival) {
    long at = arrival + settings.completionLatencyNs();
    if (accessCheck.decide(r.requester(), r.address(), r.length(), false) == InboundAccessCheck.Decision.DENY) {
      // Blocked by the IOMMU: Unsupported Request, as a root complex answers a translation fault.
      denials.count(r.requester(), false);
      getContext().getLog().debug("Endpoint [{}] denied read of {} bytes at {} by {}", id, r.length(),
          Addresses.hex(r.address()), Bdf.format(r.requester()));
      link.offer(Completion.error(bdf, r, CompletionStatus.UNSUPPORTED_REQUEST, at), at, -1);
      return;
    }
    if (!claims(r.address(), r.length())) {
      outsideBars++;
      link.offer(Completion.error(bdf, r, CompletionStatus.UNSUPPORTED_REQUEST, at), at, -1);
      return;
    }
    readsServed++;
    int mps = settings.maxPayload();
    for (int offset = 0; offset < r.length(); offset += mps) {
      int n = Math.min(mps, r.length() - offset);
      byte[] data = memory.read(r.address() + offset, n);
      link.offer(new Completion(bdf, r.requester(), r.tag(), r.tc(), CompletionStatus.SUCCESSFUL,
          r.length() - offset, offset, n, data, r.originAt(), r.seq()), at, -1);
    }
  }

  private void onCompletion(Completion c, long arrival) {
    if (c.requester() != bdf && !reads.expects(c.tag(), c.requester())) {
      // A completion is matched by transaction ID, requester ID and tag: one for another
      // requester is an Unexpected Completion (a routing or NTB translation error), not ours.
      getContext().getLog().warn("Endpoint [{}] unexpected completion for {} (tag {}), dropped", id,
          Bdf.format(c.requester()), c.tag());
      return;
    }
    PendingReads.Done<Command> done = reads.complete(c, arrival);
    if (done == null) {
      return;
    }
    long latency = done.completedAt() - done.originAt();
    if (done.context() instanceof ConfigRequest q) {
      ConfigTimedOut timeout = configTimeouts.remove(q);
      if (timeout != null) {
        time.cancel(timeout);
      }
      int value = done.data() != null && done.data().length == 4 ? ByteBuffer.wrap(done.data()).getInt() : 0;
      q.replyTo().tell(new ConfigResult(q.target(), q.register(), done.status(), value, latency));
      return;
    }
    if (done.status() == CompletionStatus.SUCCESSFUL) {
      readsCompleted++;
    } else {
      readsFailed++;
    }
    if (done.context() instanceof Read r) {
      ReadResult result = new ReadResult(c.seq(), done.status(), done.data(), latency);
      tellOrCall(r.replyTo(), result, call -> new GuestCall.ReadDone(call, result));
    } else if (done.context() instanceof ReadAs r) {
      r.replyTo().tell(new ReadResult(c.seq(), done.status(), done.data(), latency));
    } else {
      traffic.readCompleted(done.status() == CompletionStatus.SUCCESSFUL);
    }
  }

  private void onConfig(Tlp request, long arrival) {
    long at = arrival + settings.completionLatencyNs();
    Completion cpl;
    if (request instanceof ConfigRead r) {
      int value = BarRegisters.isBarRegister(r.register())
          ? barRegisters.read(r.register())
          : ConfigSpace.readType0(ConfigSpace.VENDOR_EMULATED, ConfigSpace.DEVICE_MEMORY,
              root ? 0x060000 : 0x050000, List.of(), r.register());
      cpl = new Completion(bdf, r.requester(), r.tag(), 0, CompletionStatus.SUCCESSFUL, 4, 0, 4,
          ByteBuffer.allocate(4).putInt(value).array(), at, 0);
    } else {
      ConfigWrite w = (ConfigWrite) request;
      if (w.type() == 0) {
        bdf = w.target();
      }
      if (barRegisters.write(w.register(), w.value())) {
        // Only the decode moves: what was stored stays at its old address (enumeration runs
        // before any data is written).
        List<AddressRange> moved = new ArrayList<>(barRegisters.windows());
        moved.addAll(bars.subList(moved.size(), bars.size())); // BARs config space cannot show
        bars = List.copyOf(moved);
        getContext().getLog().debug("Endpoint [{}] BARs now {}", id, bars);
      }
      cpl = new Completion(bdf, w.requester(), w.tag(), 0, CompletionStatus.SUCCESSFUL, 0, 0, 0, null, at, 0);
    }
    link.offer(cpl, at, -1);
  }

  private Behavior<PortMessage> onWrite(Write msg) {
    if (putOff(msg, msg.at())) {
      return this;
    }
    if (root && claims(msg.address(), msg.data().length)) {
      // A root's own memory (a host's CPU storing to its DRAM): it never reaches the link, as
      // RouteExplainer says, and is not reported to watchers, which follow inbound writes. A
      // device's write to its own BAR does go out (a multicast window may overlap it).
      memory.write(msg.address(), msg.data());
      return this;
    }
    long now = msg.at() >= 0 ? msg.at() : link.modelNow();
    writesSent++;
    link.offer(new MemWrite(bdf, 0, 0, msg.address(), msg.data().length, msg.data(), now, streamSeq++), now, -1);
    return this;
  }

  private Behavior<PortMessage> onRead(Read msg) {
    if (putOff(msg, msg.at())) {
      return this;
    }
    if (root && claims(msg.address(), msg.length())) {
      msg.replyTo().tell(new ReadResult(msg.address(), CompletionStatus.SUCCESSFUL,
          memory.read(msg.address(), msg.length()), 0)); // own memory, as for Write
      return this;
    }
    issueRead(msg, bdf, msg.address(), msg.length(), msg.at(), msg.replyTo());
    return this;
  }

  private Behavior<PortMessage> onReadAs(ReadAs msg) {
    if (msg.requester() < 0 || msg.requester() > 0xFFFF) {
      getContext().getLog().warn("Endpoint [{}] ReadAs requester=0x{} is not a 16-bit ID; refused", id,
          Integer.toHexString(msg.requester()));
      msg.replyTo().tell(new ReadResult(msg.address(), CompletionStatus.COMPLETER_ABORT, null, 0));
      return this;
    }
    issueRead(msg, msg.requester(), msg.address(), msg.length(), -1, msg.replyTo());
    return this;
  }

  private void issueRead(Command context, int requester, long address, int length, long at,
      ActorRef<ReadResult> replyTo) {
    long now = at >= 0 ? at : link.modelNow();
    int tag = reads.start(context, length, now, requester == bdf ? -1 : requester);
    if (tag < 0) {
      replyTo.tell(new ReadResult(address, CompletionStatus.COMPLETER_ABORT, null, 0));
      return;
    }
    readsSent++;
    // The read's seq carries its address back in the result, for the caller's convenience.
    if (!link.offer(new MemRead(requester, tag, 0, address, length, now, address), now, -1)) {
      reads.cancel(tag); // the link is down: nothing will ever complete it
      readsFailed++;
      replyTo.tell(new ReadResult(address, CompletionStatus.UNSUPPORTED_REQUEST, null, 0));
    }
  }

  private Behavior<PortMessage> onWriteAs(WriteAs msg) {
    if (msg.requester() < 0 || msg.requester() > 0xFFFF) {
      getContext().getLog().warn("Endpoint [{}] WriteAs requester=0x{} is not a 16-bit ID; dropped", id,
          Integer.toHexString(msg.requester()));
      return this;
    }
    long now = link.modelNow();
    writesSent++;
    link.offer(new MemWrite(msg.requester(), 0, 0, msg.address(), msg.data().length, msg.data(), now,
        streamSeq++), now, -1);
    return this;
  }

  private Behavior<PortMessage> onConfigRequest(ConfigRequest msg) {
    long now = link.modelNow();
    int tag = reads.start(msg, msg.writeValue() == null ? 4 : 0, now);
    if (tag < 0) {
      msg.replyTo().tell(new ConfigResult(msg.target(), msg.register(), CompletionStatus.COMPLETER_ABORT, 0, 0));
      return this;
    }
    Tlp request = msg.writeValue() == null
        ? new ConfigRead(bdf, tag, msg.target(), msg.type(), msg.register(), now)
        : new ConfigWrite(bdf, tag, msg.target(), msg.type(), msg.register(), msg.writeValue(), now);
    if (!link.offer(request, now, -1)) {
      reads.cancel(tag); // the link is down: nothing will ever complete it
      msg.replyTo().tell(new ConfigResult(msg.target(), msg.register(), CompletionStatus.UNSUPPORTED_REQUEST, 0, 0));
      return this;
    }
    ConfigTimedOut timeout = new ConfigTimedOut(tag, msg);
    if (time.joined()) {
      configTimeouts.put(msg, timeout); // taken back when the completion comes first
      time.schedule(now + settings.completionTimeoutNs(), timeout);
    } else {
      getContext().scheduleOnce(settings.freeRunningCompletionTimeout(), getContext().getSelf(), timeout);
    }
    return this;
  }

  /** A configuration request still unanswered at its completion timeout is answered by nobody. */
  private Behavior<PortMessage> onConfigTimedOut(ConfigTimedOut msg) {
    configTimeouts.remove(msg.request());
    if (reads.context(msg.tag()) != msg.request()) {
      return this; // completed in time (its tag may be another request's by now)
    }
    reads.cancel(msg.tag());
    long waited = time.joined() ? settings.completionTimeoutNs() : 0;
    msg.request().replyTo().tell(new ConfigResult(msg.request().target(), msg.request().register(), null, 0, waited));
    return this;
  }

  private Behavior<PortMessage> onStartTraffic(StartTraffic msg) {
    if (traffic.running()) {
      msg.replyTo().tell(new TrafficDone(id, 0, msg.plan().count(), 0, 0, 0));
      getContext().getLog().warn("Endpoint [{}] is already running traffic; request refused", id);
      return this;
    }
    planReplyTo = msg.replyTo();
    traffic.start(msg.plan(), System.nanoTime());
    return this;
  }

  /** The endpoint's side of its traffic generator: the link, the read tags, the model clock. */
  private final class GeneratorPort implements TrafficGenerator.Port {
    @Override
    public boolean canIssue(boolean readPlan) {
      return link.isUp() && link.queuedBeforeHorizon() < TrafficGenerator.AHEAD && (!readPlan || reads.hasFreeTag());
    }

    @Override
    public boolean write(long address, int size, byte[] data, long at) {
      writesSent++;
      return link.offer(new MemWrite(bdf, 0, 0, address, size, data, at, streamSeq++), at, -1);
    }

    @Override
    public boolean read(long address, int size, long at) {
      int tag = reads.start(null, size, at);
      readsSent++;
      return link.offer(new MemRead(bdf, tag, 0, address, size, at, streamSeq++), at, -1);
    }

    @Override
    public int readsOutstanding() {
      return reads.outstanding();
    }

    @Override
    public boolean paced() {
      return time.joined();
    }

    @Override
    public long now() {
      return time.now();
    }

    @Override
    public long linkNow() {
      return link.modelNow();
    }

    @Override
    public void wakeAt(long at) {
      time.schedule(at, PlanStart.INSTANCE);
    }

    @Override
    public void finished(TrafficDone done) {
      planReplyTo.tell(done);
      planReplyTo = null;
    }
  }

  private Behavior<PortMessage> onCountIssuedBefore(CountIssuedBefore msg) {
    arrivals.countIssuedBefore(msg.modelAt());
    return this;
  }

  private Behavior<PortMessage> onGetStats(GetStats msg) {
    var c = link.counters();
    PortStats ps = new PortStats(id, link.state(), c.tlpsReceived, c.tlpsSent, c.dllpsSent, c.dllpsReceived,
        0, 0, 0, c.purged, c.droppedLinkDown, c.receiverOverflows, 0, c.linkUps, c.linkDowns, link.modelNow(),
        0, LinkRetryStats.of(c));
    StreamTracker streams = arrivals.streams();
    msg.replyTo().tell(new EndpointStats(id, arrivals.writes(), streams.unique(), streams.duplicates(),
        streams.reordered(), arrivals.bytes(), readsServed, outsideBars, writesSent, readsSent, readsCompleted,
        readsFailed, arrivals.latencyHistogram(), arrivals.minLatency(), arrivals.maxLatency(),
        List.copyOf(aer), ps, denials.snapshot(), arrivals.uniqueIssuedBefore()));
    return this;
  }

  private Behavior<PortMessage> onChangeAccessCheck(ChangeAccessCheck msg) {
    if (!ControlOrigins.admitsConfiguration(getContext(), id, msg, msg.replyTo())) {
      return this;
    }
    AccessCheckChange.Result result;
    if (msg.change() == null) {
      result = AccessCheckChange.Result.refused("change is missing");
    } else {
      try {
        result = msg.change().applyTo(id, accessCheck);
      } catch (RuntimeException e) {
        // A change must refuse bad input itself; one that throws still must not stop the endpoint.
        result = AccessCheckChange.Result.refused(msg.change() + " failed: " + e);
      }
    }
    if (result.accepted() && result.check() != null) {
      accessCheck = result.check();
      getContext().getLog().debug("Endpoint [{}] access check: {}", id, result.detail());
    } else {
      getContext().getLog().info("Endpoint [{}] access check change refused: {}", id, result.detail());
    }
    msg.replyTo().tell(new AccessCheckResult(id, result.accepted() && result.check() != null, result.detail()));
    return this;
  }

  private Behavior<PortMessage> onAwaitWrites(AwaitWrites msg) {
    arrivals.await(msg.uniqueWrites(), unique -> msg.replyTo().tell(new WritesReached(id, unique)));
    return this;
  }

  private Behavior<PortMessage> onWatch(Watch msg) {
    watches.add(msg);
    return this;
  }

  private Behavior<PortMessage> onWatchErrors(WatchErrors msg) {
    errorWatchers.add(msg.replyTo());
    return this;
  }

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
    msg.replyTo().tell(memory.read(msg.address(), msg.length()));
    return this;
  }

  private Behavior<PortMessage> onStore(Store msg) {
    if (claims(msg.address(), msg.data().length)) {
      memory.write(msg.address(), msg.data());
    } else {
      outsideBars++;
    }
    return this;
  }

  private Behavior<PortMessage> onTick(Tick msg) {
    port.tick();
    return this;
  }

  private Behavior<PortMessage> onConnect(Connect msg) {
    port.connect(msg.partner());
    return this;
  }

  private Behavior<PortMessage> onPartnerGone(PartnerLink.Gone msg) {
    port.partnerGone(msg);
    return this;
  }

  private Behavior<PortMessage> onSetLink(SetLink msg) {
    port.setLink(msg, msg.up(), msg.modelAt(), msg.origin());
    return this;
  }

  private Behavior<PortMessage> onInjectLinkErrors(InjectLinkErrors msg) {
    port.injectErrors(msg, msg.errors(), msg.replyTo());
    return this;
  }

  private Behavior<PortMessage> onHoldFrom(HoldFrom msg) {
    port.holdFrom(msg, msg.modelAt(), msg.replyTo());
    return this;
  }

  private Behavior<PortMessage> onPostStop(PostStop signal) {
    port.stop();
    return this;
  }

  private final class Wire implements LinkEnd.Listener {
    @Override
    public void send(LinkFrame frame) {
      port.send(frame);
    }

    @Override
    public void transmitted(Object token, Tlp tlp, long sentAt) {
      if (traffic.runningWrites()) {
        traffic.pump();
      }
    }

    @Override
    public void linkUp(long modelAt) {
      getContext().getLog().debug("Endpoint [{}] link up", id);
      traffic.pump();
      answerLinkWaiters();
    }

    @Override
    public void linkDown(ErrorMessage.Cause cause, long modelAt, List<LinkEnd.Queued> purged) {
      getContext().getLog().info("Endpoint [{}] link down ({}), {} queued TLPs lost", id, cause, purged.size());
      if (root) {
        reportError(new EndpointStats.AerRecord(Bdf.format(bdf), ErrorMessage.Severity.FATAL.name(), cause.name(), modelAt));
      }
    }
  }
}
