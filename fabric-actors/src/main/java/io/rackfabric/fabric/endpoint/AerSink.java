package io.rackfabric.fabric.endpoint;

import akka.actor.typed.ActorRef;
import io.rackfabric.fabric.stats.EndpointStats;
import io.rackfabric.fabric.tlp.Bdf;
import io.rackfabric.fabric.tlp.ErrorMessage;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;

/**
 * A root complex's AER sink: the error messages reaching its endpoint and its own link's failures,
 * kept for its statistics and shown to its error watchers ({@link MemoryEndpoint.WatchErrors}), as
 * a call when a watcher is a guest's. Not thread-safe: the endpoint actor's own.
 */
final class AerSink {

  private final String id;
  private final GuestSide guests;
  private final Logger log;
  private final List<EndpointStats.AerRecord> records = new ArrayList<>();
  private final List<ActorRef<EndpointEvent>> watchers = new ArrayList<>();

  AerSink(String id, GuestSide guests, Logger log) {
    this.id = id;
    this.guests = guests;
    this.log = log;
  }

  void watch(ActorRef<EndpointEvent> watcher) {
    watchers.add(watcher);
  }

  /** An AER message that arrived at model time {@code arrival}. */
  void received(ErrorMessage e, long arrival) {
    report(new EndpointStats.AerRecord(Bdf.format(e.requester()), e.severity().name(), e.cause().name(), arrival));
    log.info("Endpoint [{}] AER {} {} from {} at model {} ns", id, e.severity(), e.cause(), Bdf.format(e.requester()),
        arrival);
  }

  /** The root's own link ({@code bdf} its ID) went down: a fatal error of its own. */
  void linkDown(int bdf, ErrorMessage.Cause cause, long modelAt) {
    report(new EndpointStats.AerRecord(Bdf.format(bdf), ErrorMessage.Severity.FATAL.name(), cause.name(), modelAt));
  }

  List<EndpointStats.AerRecord> records() {
    return List.copyOf(records);
  }

  private void report(EndpointStats.AerRecord error) {
    records.add(error);
    EndpointEvent event = new EndpointEvent.ErrorReported(id, error);
    watchers.forEach(w -> guests.tellOrCall(w, event, call -> new GuestCall.Event(call, event)));
  }
}
