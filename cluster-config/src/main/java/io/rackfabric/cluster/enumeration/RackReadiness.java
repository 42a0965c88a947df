package io.rackfabric.cluster.enumeration;

import akka.actor.NoSerializationVerificationNeeded;
import akka.actor.typed.ActorRef;
import akka.actor.typed.Behavior;
import akka.actor.typed.javadsl.AbstractBehavior;
import akka.actor.typed.javadsl.ActorContext;
import akka.actor.typed.javadsl.Behaviors;
import akka.actor.typed.javadsl.Receive;
import akka.actor.typed.javadsl.TimerScheduler;
import akka.actor.typed.receptionist.Receptionist;
import io.rackfabric.cluster.node.ComponentKeys;
import io.rackfabric.cluster.topology.EndpointSpec;
import io.rackfabric.cluster.topology.LinkSpec;
import io.rackfabric.cluster.topology.SwitchSpec;
import io.rackfabric.cluster.topology.Topology;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.fabric.link.DataLinkState;
import io.rackfabric.fabric.routing.PortConfig;
import io.rackfabric.fabric.stats.EndpointStats;
import io.rackfabric.fabric.stats.PortStats;
import io.rackfabric.fabric.switchchip.SwitchChip;
import io.rackfabric.fabric.switchchip.SwitchPort;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Tells when every link of a topology is up, so that enumeration finds what is there: a request
 * through a port whose link has not trained yet is answered Unsupported Request, as if nothing
 * were behind it. Ports have no "link up" event to subscribe to, so their state is asked for
 * every {@code interval}; replies once all ends are up, or at the deadline naming those that are
 * not.
 */
public final class RackReadiness extends AbstractBehavior<RackReadiness.Command> {

  public sealed interface Command permits AwaitReady, Found, PortFound, EndStateSeen, Tick {}

  /** Replies with {@link Readiness} once every linked end is up, or after {@code timeout}. */
  public record AwaitReady(Duration timeout, ActorRef<Readiness> replyTo)
      implements Command, NoSerializationVerificationNeeded {}

  /** Whether the rack is up; {@code notUp} names the link ends that are not. */
  public record Readiness(boolean ready, List<String> notUp) implements NoSerializationVerificationNeeded {}

  private record Found(Receptionist.Listing listing) implements Command, NoSerializationVerificationNeeded {}

  private record PortFound(String end, SwitchChip.PortReply reply) implements Command, NoSerializationVerificationNeeded {}

  private record EndStateSeen(String end, DataLinkState state) implements Command, NoSerializationVerificationNeeded {}

  private enum Tick implements Command, NoSerializationVerificationNeeded { INSTANCE }

  /** How one link end is asked whether its link is up. */
  private interface Asker {
    void ask();
  }

  private final Topology topology;
  private final Duration interval;
  private final TimerScheduler<Command> timers;
  /** Every linked end, and once found, how to ask it. */
  private final Map<String, Asker> ends = new LinkedHashMap<>();
  private final Map<String, Boolean> up = new LinkedHashMap<>();
  private final List<ActorRef<Readiness>> waiting = new ArrayList<>();
  /** Components the Receptionist did not list yet. */
  private final Set<String> unfound = new LinkedHashSet<>();
  // One adapter per message class (a second one would replace the first): replies name their end.
  private final ActorRef<Receptionist.Listing> listings;
  private final ActorRef<PortStats> portStats;
  private final ActorRef<EndpointStats> endpointStats;
  private long deadline = Long.MAX_VALUE;

  public static Behavior<Command> create(Topology topology, Duration interval) {
    return Behaviors.setup(ctx -> Behaviors.withTimers(timers -> new RackReadiness(ctx, topology, interval, timers)));
  }

  private RackReadiness(ActorContext<Command> context, Topology topology, Duration interval,
      TimerScheduler<Command> timers) {
    super(context);
    this.topology = topology;
    this.interval = interval;
    this.timers = timers;
    this.listings = context.messageAdapter(Receptionist.Listing.class, Found::new);
    this.portStats = context.messageAdapter(PortStats.class, st -> new EndStateSeen(st.name(), st.state()));
    this.endpointStats = context.messageAdapter(EndpointStats.class,
        st -> new EndStateSeen(st.id(), st.link().state()));
    for (LinkSpec l : topology.links()) {
      up.put(l.a(), false);
      up.put(l.b(), false);
    }
    for (SwitchSpec s : topology.switches()) {
      if (s.ports().stream().anyMatch(p -> up.containsKey(LinkSpec.end(s.id(), p.name())))) {
        unfound.add(s.id());
      }
    }
    for (EndpointSpec e : topology.endpoints()) {
      if (up.containsKey(e.id())) {
        unfound.add(e.id());
      }
    }
    unfound.forEach(this::find);
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(AwaitReady.class, this::onAwaitReady)
        .onMessage(Found.class, this::onFound)
        .onMessage(PortFound.class, this::onPortFound)
        .onMessage(EndStateSeen.class, this::onEndStateSeen)
        .onMessage(Tick.class, this::onTick)
        .build();
  }

  private Behavior<Command> onAwaitReady(AwaitReady msg) {
    waiting.add(msg.replyTo());
    deadline = Math.min(deadline, System.nanoTime() + msg.timeout().toNanos());
    timers.startTimerWithFixedDelay(Tick.INSTANCE, interval);
    return answerIfDone();
  }

  private Behavior<Command> onFound(Found msg) {
    String keyId = msg.listing().getKey().id();
    String id = keyId.substring(keyId.indexOf(':') + 1);
    if (topology.switchSpec(id).isPresent()) {
      var refs = msg.listing().getServiceInstances(ComponentKeys.switchChip(id));
      if (refs.isEmpty()) {
        return this; // registered a moment later than asked: looked up again on the next tick
      }
      unfound.remove(id);
      ActorRef<SwitchChip.Command> chip = refs.iterator().next();
      for (PortConfig p : topology.switchSpec(id).orElseThrow().ports()) {
        String end = LinkSpec.end(id, p.name());
        if (up.containsKey(end)) {
          getContext().ask(SwitchChip.PortReply.class, chip, Duration.ofSeconds(5),
              replyTo -> new SwitchChip.PortRef(p.number(), replyTo), (reply, failure) -> new PortFound(end, reply));
        }
      }
    } else {
      var refs = msg.listing().getServiceInstances(ComponentKeys.endpoint(id));
      if (refs.isEmpty()) {
        return this;
      }
      unfound.remove(id);
      ActorRef<MemoryEndpoint.Command> ep = refs.iterator().next();
      ends.put(id, () -> ep.tell(new MemoryEndpoint.GetStats(endpointStats)));
    }
    return this;
  }

  private void find(String id) {
    var key = topology.switchSpec(id).isPresent() ? ComponentKeys.switchChip(id) : ComponentKeys.endpoint(id);
    getContext().getSystem().receptionist().tell(Receptionist.find(key, listings));
  }

  private Behavior<Command> onPortFound(PortFound msg) {
    if (msg.reply() == null) {
      unfound.add(LinkSpec.componentOf(msg.end())); // the chip did not answer: look it up again
    } else if (msg.reply().port() != null) {
      ActorRef<SwitchPort.Command> port = msg.reply().port();
      ends.put(msg.end(), () -> port.tell(new SwitchPort.GetStats(portStats)));
    }
    return this;
  }

  private Behavior<Command> onEndStateSeen(EndStateSeen msg) {
    if (up.containsKey(msg.end())) {
      up.put(msg.end(), msg.state() == DataLinkState.DL_ACTIVE || msg.state() == DataLinkState.DL_PROTECTED);
    }
    return answerIfDone();
  }

  private Behavior<Command> onTick(Tick msg) {
    if (System.nanoTime() > deadline) {
      reply(false);
      return this;
    }
    unfound.forEach(this::find);
    ends.forEach((end, asker) -> {
      if (!up.get(end)) {
        asker.ask();
      }
    });
    return this;
  }

  private Behavior<Command> answerIfDone() {
    if (!waiting.isEmpty() && !up.containsValue(false)) {
      reply(true);
    }
    return this;
  }

  private void reply(boolean ready) {
    List<String> notUp = up.entrySet().stream().filter(e -> !e.getValue()).map(Map.Entry::getKey).toList();
    waiting.forEach(w -> w.tell(new Readiness(ready, notUp)));
    waiting.clear();
    deadline = Long.MAX_VALUE;
    timers.cancel(Tick.INSTANCE);
  }
}
