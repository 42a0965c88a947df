package io.rackfabric.fabric.endpoint;

import akka.actor.typed.ActorRef;
import io.rackfabric.fabric.endpoint.MemoryEndpoint.AwaitLinkUp;
import io.rackfabric.fabric.endpoint.MemoryEndpoint.AwaitWrites;
import io.rackfabric.fabric.endpoint.MemoryEndpoint.CountIssuedBefore;
import io.rackfabric.fabric.endpoint.MemoryEndpoint.GetStats;
import io.rackfabric.fabric.endpoint.MemoryEndpoint.LinkReady;
import io.rackfabric.fabric.endpoint.MemoryEndpoint.Peek;
import io.rackfabric.fabric.endpoint.MemoryEndpoint.Watch;
import io.rackfabric.fabric.endpoint.MemoryEndpoint.WatchErrors;
import io.rackfabric.fabric.endpoint.MemoryEndpoint.WatchPathTable;
import io.rackfabric.fabric.endpoint.MemoryEndpoint.WritesReached;
import io.rackfabric.fabric.link.LinkEnd;
import io.rackfabric.fabric.stats.EndpointStats;
import io.rackfabric.fabric.stats.LinkRetryStats;
import io.rackfabric.fabric.stats.WireUse;
import io.rackfabric.fabric.stats.PortStats;
import java.util.ArrayList;
import java.util.List;

/**
 * What a memory endpoint tells about itself when asked: its statistics ({@link GetStats}), the
 * answers once its writes have arrived or its link is up ({@link AwaitWrites}, {@link AwaitLinkUp}),
 * its memory read directly ({@link Peek}), and the watches that hand on what lands in its memory,
 * the AER messages it collects and the path tables its device manager comes to hold ({@link Watch},
 * {@link WatchErrors}, {@link WatchPathTable}). Not thread-safe: the endpoint actor's own.
 */
final class EndpointReports {

  private final String id;
  private final LinkEnd link;
  private final EndpointTarget target;
  private final EndpointRequester requester;
  private final AerSink aer;
  private final List<ActorRef<LinkReady>> linkWaiters = new ArrayList<>();

  private final EndpointManagement management;

  EndpointReports(String id, LinkEnd link, EndpointTarget target, EndpointRequester requester, AerSink aer,
      EndpointManagement management) {
    this.management = management;
    this.id = id;
    this.link = link;
    this.target = target;
    this.requester = requester;
    this.aer = aer;
  }

  /** Takes the questions about the endpoint and the watches on it. */
  void register(PartMessages on) {
    on.on(GetStats.class, msg -> msg.replyTo().tell(stats()))
        .on(CountIssuedBefore.class, msg -> countIssuedBefore(msg.modelAt()))
        .on(AwaitWrites.class, msg -> awaitWrites(msg.uniqueWrites(), msg.replyTo()))
        .on(AwaitLinkUp.class, msg -> awaitLinkUp(msg.replyTo()))
        .on(Peek.class, msg -> msg.replyTo().tell(target.read(msg.address(), msg.length())))
        .on(Watch.class, target::watch)
        .on(WatchErrors.class, msg -> aer.watch(msg.replyTo()))
        .on(WatchPathTable.class, msg -> management.watchPathTable(msg.replyTo()));
  }

  EndpointStats stats() {
    var c = link.counters();
    PortStats ps = new PortStats(id, link.state(), c.tlpsReceived, c.tlpsSent, c.dllpsSent, c.dllpsReceived,
        0, 0, 0, c.purged, c.droppedLinkDown, c.receiverOverflows, 0, c.linkUps, c.linkDowns, link.modelNow(),
        0, LinkRetryStats.of(c), WireUse.of(link.meter(), link.params()),
        io.rackfabric.fabric.stats.LinkActivation.of(c));
    ArrivalBook arrivals = target.arrivals();
    StreamTracker streams = arrivals.streams();
    return new EndpointStats(id, arrivals.writes(), streams.unique(), streams.duplicates(),
        streams.reordered(), arrivals.bytes(), target.readsServed(), target.outsideBars(), requester.writesSent(),
        requester.readsSent(), requester.readsCompleted(), requester.readsFailed(), arrivals.latencyHistogram(),
        arrivals.minLatency(), arrivals.maxLatency(), aer.records(), ps, target.denials().snapshot(),
        arrivals.uniqueIssuedBefore(), management.report(), requester.barWindows().refusals(),
        management.pathTable());
  }

  void countIssuedBefore(long modelAt) {
    target.arrivals().countIssuedBefore(modelAt);
  }

  void awaitWrites(long uniqueWrites, ActorRef<WritesReached> replyTo) {
    target.arrivals().await(uniqueWrites, unique -> replyTo.tell(new WritesReached(id, unique)));
  }

  void awaitLinkUp(ActorRef<LinkReady> replyTo) {
    linkWaiters.add(replyTo);
    linkUp();
  }

  /** Answers the link's waiters if it is up. */
  void linkUp() {
    if (link.isUp()) {
      linkWaiters.forEach(w -> w.tell(new LinkReady(id, link.state())));
      linkWaiters.clear();
    }
  }
}
