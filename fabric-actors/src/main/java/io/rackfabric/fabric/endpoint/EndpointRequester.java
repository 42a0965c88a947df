package io.rackfabric.fabric.endpoint;

import akka.actor.NoSerializationVerificationNeeded;
import akka.actor.typed.ActorRef;
import io.rackfabric.fabric.endpoint.MemoryEndpoint.ConfigRequest;
import io.rackfabric.fabric.endpoint.MemoryEndpoint.ConfigResult;
import io.rackfabric.fabric.endpoint.MemoryEndpoint.ReadResult;
import io.rackfabric.fabric.endpoint.MemoryEndpoint.TrafficDone;
import io.rackfabric.fabric.link.LinkEnd;
import io.rackfabric.fabric.link.PortMessage;
import io.rackfabric.fabric.settings.FabricSettings;
import io.rackfabric.fabric.time.PortTime;
import io.rackfabric.fabric.tlp.Completion;
import io.rackfabric.fabric.tlp.CompletionStatus;
import io.rackfabric.fabric.tlp.ConfigRead;
import io.rackfabric.fabric.tlp.ConfigWrite;
import io.rackfabric.fabric.tlp.MemRead;
import io.rackfabric.fabric.tlp.MemWrite;
import io.rackfabric.fabric.tlp.Tlp;
import java.nio.ByteBuffer;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.function.LongFunction;

/**
 * The requester side of a memory endpoint: the writes, reads and configuration requests it issues
 * (for a driver, a guest, or its traffic generator), their tags, the completions that answer them,
 * and a configuration request's completion timeout (a model-time event under the kernel, a wall
 * wait free-running). Not thread-safe: the endpoint actor's own.
 */
final class EndpointRequester {

  /** How the requester answers: a plain tell, or a call when the reply address is a guest's. */
  interface Replies {
    <T> void answer(ActorRef<T> to, T msg, LongFunction<GuestCall> asCall);

    /** Free-running, a configuration request's timeout is a wall-clock message to the endpoint. */
    void afterWallTimeout(ConfigTimedOut timeout);
  }

  /** A configuration request's completion timeout, due at its model time (or after its wall wait). */
  record ConfigTimedOut(int tag, ConfigRequest request) implements PortMessage, NoSerializationVerificationNeeded {}

  /** The endpoint's own model-time event: a traffic plan's first (or, under the kernel, next) request is due. */
  enum PlanStart implements PortMessage, NoSerializationVerificationNeeded { INSTANCE }

  private final String id;
  private final EndpointTarget target;
  private final LinkEnd link;
  private final PortTime time;
  private final FabricSettings settings;
  private final Replies replies;
  /** Outstanding non-posted requests by tag: the Read or ConfigRequest asking, null for traffic. */
  private final PendingReads<MemoryEndpoint.Command> reads = new PendingReads<>();
  /** Under the kernel, each outstanding configuration request's completion timeout (an event). */
  private final Map<ConfigRequest, ConfigTimedOut> configTimeouts = new IdentityHashMap<>();
  private final TrafficGenerator traffic;
  /** Lent devices' BAR windows this root reaches only while it holds their loans. */
  private final BarWindows barWindows = new BarWindows();
  private ActorRef<TrafficDone> planReplyTo;
  private long writesSent;
  private long readsSent;
  private long readsCompleted;
  private long readsFailed;
  private long streamSeq;
  /** The chosen route to a destination in the last path table the endpoint held whole; null: none. */
  private final java.util.function.LongFunction<io.rackfabric.fabric.management.Route> chosenRoutes;

  EndpointRequester(String id, EndpointTarget target, LinkEnd link, PortTime time, FabricSettings settings,
      Replies replies, java.util.function.LongFunction<io.rackfabric.fabric.management.Route> chosenRoutes) {
    this.chosenRoutes = chosenRoutes;
    this.id = id;
    this.target = target;
    this.link = link;
    this.time = time;
    this.settings = settings;
    this.replies = replies;
    this.traffic = new TrafficGenerator(id, new GeneratorPort());
  }

  TrafficGenerator traffic() {
    return traffic;
  }

  BarWindows barWindows() {
    return barWindows;
  }

  /** Whether a write to {@code address} meets a closed BAR window: then dropped and counted. */
  private boolean writeRefused(long address, int length) {
    String device = barWindows.closedDevice(address, length);
    if (device == null) {
      return false;
    }
    barWindows.refusedWrite(device);
    return true;
  }

  /** A posted write from the endpoint's own ID, stamped {@code at} (or the link's clock when -1). */
  void write(long address, byte[] data, long at) {
    long now = at >= 0 ? at : link.modelNow();
    if (writeRefused(address, data.length)) {
      return;
    }
    writesSent++;
    link.offer(new MemWrite(target.bdf(), 0, 0, address, data.length, data, now, streamSeq++), now, -1);
  }

  /** A posted write under another requester ID (one of the functions behind this endpoint). */
  void writeAs(int requester, long address, byte[] data) {
    long now = link.modelNow();
    if (writeRefused(address, data.length)) {
      return;
    }
    writesSent++;
    link.offer(new MemWrite(requester, 0, 0, address, data.length, data, now, streamSeq++), now, -1);
  }

  /** A read for {@code context} under {@code requester}; the result goes to {@code replyTo}. */
  void read(MemoryEndpoint.Command context, int requester, long address, int length, long at,
      ActorRef<ReadResult> replyTo) {
    long now = at >= 0 ? at : link.modelNow();
    String closed = barWindows.closedDevice(address, length);
    if (closed != null) {
      // No bridge of this host claims the address before the device is hot-added: a master abort.
      barWindows.refusedRead(closed);
      readsFailed++;
      refused(context, replyTo, new ReadResult(address, CompletionStatus.UNSUPPORTED_REQUEST, null, 0, now));
      return;
    }
    int bdf = target.bdf();
    int tag = reads.start(context, length, now, requester == bdf ? -1 : requester);
    if (tag < 0) {
      refused(context, replyTo, new ReadResult(address, CompletionStatus.COMPLETER_ABORT, null, 0, now));
      return;
    }
    readsSent++;
    // The read's seq carries its address back in the result, for the caller's convenience.
    if (!link.offer(new MemRead(requester, tag, 0, address, length, now, address), now, -1)) {
      reads.cancel(tag); // the link is down: nothing will ever complete it
      readsFailed++;
      refused(context, replyTo, new ReadResult(address, CompletionStatus.UNSUPPORTED_REQUEST, null, 0, now));
    }
  }

  /**
   * A read that never left answered at once, the way its completion would be: a guest's in a call
   * of its own, so that what the guest does about it enters the model now, not whenever it runs.
   */
  private void refused(MemoryEndpoint.Command context, ActorRef<ReadResult> replyTo, ReadResult result) {
    if (context instanceof MemoryEndpoint.Read) {
      replies.answer(replyTo, result, call -> new GuestCall.ReadDone(call, result));
    } else {
      replyTo.tell(result);
    }
  }

  void config(ConfigRequest msg) {
    long now = link.modelNow();
    int tag = reads.start(msg, msg.writeValue() == null ? 4 : 0, now);
    if (tag < 0) {
      msg.replyTo().tell(new ConfigResult(msg.target(), msg.register(), CompletionStatus.COMPLETER_ABORT, 0, 0));
      return;
    }
    int bdf = target.bdf();
    Tlp request = msg.writeValue() == null
        ? new ConfigRead(bdf, tag, msg.target(), msg.type(), msg.register(), now)
        : new ConfigWrite(bdf, tag, msg.target(), msg.type(), msg.register(), msg.writeValue(), now);
    if (!link.offer(request, now, -1)) {
      reads.cancel(tag); // the link is down: nothing will ever complete it
      msg.replyTo().tell(new ConfigResult(msg.target(), msg.register(), CompletionStatus.UNSUPPORTED_REQUEST, 0, 0));
      return;
    }
    ConfigTimedOut timeout = new ConfigTimedOut(tag, msg);
    if (time.joined()) {
      configTimeouts.put(msg, timeout); // taken back when the completion comes first
      time.schedule(now + settings.completionTimeoutNs(), timeout);
    } else {
      replies.afterWallTimeout(timeout);
    }
  }

  /** A configuration request still unanswered at its completion timeout is answered by nobody. */
  void configTimedOut(ConfigTimedOut msg) {
    configTimeouts.remove(msg.request());
    if (reads.context(msg.tag()) != msg.request()) {
      return; // completed in time (its tag may be another request's by now)
    }
    reads.cancel(msg.tag());
    long waited = time.joined() ? settings.completionTimeoutNs() : 0;
    msg.request().replyTo().tell(new ConfigResult(msg.request().target(), msg.request().register(), null, 0, waited));
  }

  /**
   * A completion from the link: false when it is for another requester (an Unexpected Completion,
   * a routing or NTB translation error), which the endpoint drops.
   */
  boolean completion(Completion c, long arrival) {
    if (c.requester() != target.bdf() && !reads.expects(c.tag(), c.requester())) {
      return false;
    }
    PendingReads.Done<MemoryEndpoint.Command> done = reads.complete(c, arrival);
    if (done == null) {
      return true; // more completions of the same read to come
    }
    long latency = done.completedAt() - done.originAt();
    if (done.context() instanceof ConfigRequest q) {
      ConfigTimedOut timeout = configTimeouts.remove(q);
      if (timeout != null) {
        time.cancel(timeout);
      }
      int value = done.data() != null && done.data().length == 4 ? ByteBuffer.wrap(done.data()).getInt() : 0;
      q.replyTo().tell(new ConfigResult(q.target(), q.register(), done.status(), value, latency));
      return true;
    }
    if (done.status() == CompletionStatus.SUCCESSFUL) {
      readsCompleted++;
    } else {
      readsFailed++;
    }
    if (done.context() instanceof MemoryEndpoint.Read r) {
      ReadResult result = new ReadResult(c.seq(), done.status(), done.data(), latency, done.originAt());
      replies.answer(r.replyTo(), result, call -> new GuestCall.ReadDone(call, result));
    } else if (done.context() instanceof MemoryEndpoint.ReadAs r) {
      r.replyTo().tell(new ReadResult(c.seq(), done.status(), done.data(), latency, done.originAt()));
    } else {
      traffic.readCompleted(done.status() == CompletionStatus.SUCCESSFUL);
    }
    return true;
  }

  /** Starts {@code plan}; false (and the caller is answered) when a plan is already running. */
  boolean startTraffic(MemoryEndpoint.StartTraffic msg) {
    if (traffic.running()) {
      msg.replyTo().tell(new TrafficDone(id, 0, msg.plan().count(), 0, 0, 0, 0));
      return false;
    }
    planReplyTo = msg.replyTo();
    traffic.start(msg.plan(), System.nanoTime());
    return true;
  }

  long writesSent() {
    return writesSent;
  }

  long readsSent() {
    return readsSent;
  }

  long readsCompleted() {
    return readsCompleted;
  }

  long readsFailed() {
    return readsFailed;
  }

  /** The endpoint's side of its traffic generator: the link, the read tags, the model clock. */
  private final class GeneratorPort implements TrafficGenerator.Port {
    @Override
    public boolean canIssue(boolean readPlan) {
      return link.isUp() && link.queuedBeforeHorizon() < TrafficGenerator.AHEAD && (!readPlan || reads.hasFreeTag());
    }

    @Override
    public boolean write(long address, int size, byte[] data, long at) {
      if (writeRefused(address, size)) {
        return false; // dropped before the link: a failed request, counted at the window
      }
      writesSent++;
      return link.offer(new MemWrite(target.bdf(), 0, 0, address, size, data, at, streamSeq++), at, -1);
    }

    @Override
    public boolean read(long address, int size, long at) {
      String closed = barWindows.closedDevice(address, size);
      if (closed != null) {
        barWindows.refusedRead(closed); // a master abort: a failed request
        return false;
      }
      int tag = reads.start(null, size, at);
      readsSent++;
      return link.offer(new MemRead(target.bdf(), tag, 0, address, size, at, streamSeq++), at, -1);
    }

    @Override
    public int readsOutstanding() {
      return reads.outstanding();
    }

    @Override
    public io.rackfabric.fabric.management.Route chosenRoute(long destination) {
      return chosenRoutes.apply(destination);
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
}
