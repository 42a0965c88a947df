package io.rackfabric.fabric.endpoint;

import akka.actor.typed.ActorRef;
import akka.actor.typed.javadsl.ActorContext;
import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.link.LinkEnd;
import io.rackfabric.fabric.link.LinkFrame;
import io.rackfabric.fabric.link.LinkParameters;
import io.rackfabric.fabric.link.PortMessage;
import io.rackfabric.fabric.port.LinkPort;
import io.rackfabric.fabric.rootcomplex.RootRelay;
import io.rackfabric.fabric.settings.FabricSettings;
import io.rackfabric.fabric.time.PortTime;
import io.rackfabric.fabric.tlp.ErrorMessage;
import io.rackfabric.fabric.tlp.Tlp;
import java.util.List;
import java.util.function.LongFunction;

/**
 * A memory endpoint's parts, built and connected for its actor ({@link MemoryEndpoint}), which
 * hands each message to one of them. Only the wiring is here: the link's events go to the port,
 * the traffic generator, the link's waiters and the AER sink; the completer's answers go on the
 * link and what it stored to its watchers; the requester's replies to their askers, as a call when
 * the asker is a guest's, and a free-running configuration time-out to the actor after its wall
 * wait. Not thread-safe: the endpoint actor's own.
 */
final class EndpointParts {

  private final String id;
  private final ActorContext<PortMessage> context;
  private final FabricSettings settings;
  final LinkEnd link;
  /** Model-time order of what arrives from the link and of the endpoint's own events. */
  final PortTime time;
  /** Host software attached to it: calls, wakes, guest channels, holds. */
  final GuestSide guests;
  /** The link side: partner, driver's link commands, ticks, wire. */
  final LinkPort port;
  /** The completer: BARs, memory, access check, configuration space. */
  final EndpointTarget target;
  /** The requester: what it issues, their completions, its traffic generator. */
  final EndpointRequester requester;
  /** What software asks it to write and read, on the way to the requester. */
  final RequestIntake intake;
  /** As a root, the AER messages it collects. */
  final AerSink aer;
  /** Its statistics and the waits for its writes and link. */
  final EndpointReports reports;
  /** Where each model-time event goes. */
  final EndpointEvents events;
  /** Its device manager and, on the fabric manager's endpoint, the fabric manager. */
  final EndpointManagement management;
  /** What only a control origin may change: its access check and lent devices' BAR windows. */
  private final EndpointControl control;

  EndpointParts(ActorContext<PortMessage> context, String id, int bdf, boolean root, List<AddressRange> bars,
      LinkParameters linkParams, String partnerEnd, FabricSettings settings, InboundAccessCheck accessCheck,
      List<GuestPeer> guestPeers, RootRelay.Setup relaying, ManagementSetup managed) {
    this.id = id;
    this.context = context;
    this.settings = settings;
    this.link = new LinkEnd(linkParams, settings.receiveBuffers(), settings.timers(),
        settings.replay(), settings.autoActivate(), System.nanoTime() & 0xFFFFF, new Wire(), System::nanoTime);
    link.meter().window(settings.wireMeterFromNs(), settings.wireMeterToNs());
    this.time = new PortTime(id, context.getSelf(), link, partnerEnd, this::onTimed);
    this.guests = new GuestSide(id, context, time, guestPeers);
    this.port = new LinkPort(context, id, "Endpoint", link, time, settings.timers(), guests::hold);
    this.target = new EndpointTarget(id, bdf, root, bars, settings.maxPayload(), settings.completionLatencyNs(),
        accessCheck, new TargetOutbound(), context.getLog());
    this.management = new EndpointManagement(id, link, time, settings, managed, guests, context.getLog());
    this.requester = new EndpointRequester(id, target, link, time, settings, new RequesterReplies(),
        management::chosenRoute);
    this.intake = new RequestIntake(id, time, target, requester, context.getLog());
    this.aer = new AerSink(id, guests, context.getLog());
    this.reports = new EndpointReports(id, link, target, requester, aer, management);
    this.control = new EndpointControl(context, id, target, requester.barWindows());
    RootRelay relay = relaying == null ? null : new RootRelay(settings.rootComplex(), relaying, target::bdf,
        target::claims, (tlp, at) -> link.offer(tlp, at, -1));
    this.events = new EndpointEvents(id, link, port, target, requester, intake, guests, aer, relay, management,
        context.getLog());
  }

  /** Registers each part's own messages on the endpoint's receive builder. */
  void register(PartMessages on) {
    intake.register(on);
    control.register(on);
    reports.register(on);
    guests.register(on);
  }

  private void onTimed(PortMessage event) {
    events.timed(event);
  }

  /** The completer's answers go on the link; what it stored is shown to the watchers (or their guest). */
  private final class TargetOutbound implements EndpointTarget.Outbound {
    @Override
    public void offer(Tlp tlp, long at) {
      link.offer(tlp, at, -1);
    }

    @Override
    public void written(EndpointEvent.MemoryWritten event, MemoryEndpoint.Watch watch) {
      guests.tellOrCall(watch.replyTo(), event, call -> new GuestCall.Event(call, event));
    }
  }

  private final class RequesterReplies implements EndpointRequester.Replies {
    @Override
    public <T> void answer(ActorRef<T> to, T msg, LongFunction<GuestCall> asCall) {
      guests.tellOrCall(to, msg, asCall);
    }

    @Override
    public void afterWallTimeout(EndpointRequester.ConfigTimedOut timeout) {
      context.scheduleOnce(settings.freeRunningCompletionTimeout(), context.getSelf(), timeout);
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
      context.getLog().debug("Endpoint [{}] link up", id);
      requester.traffic().pump();
      reports.linkUp();
      management.linkState(link.state(), modelAt);
    }

    @Override
    public void linkTrained(long modelAt) {
      context.getLog().debug("Endpoint [{}] link trained, DL_Protected", id);
      reports.linkUp(); // trained: management packets pass, which is what a run waits for
      management.linkState(link.state(), modelAt);
    }

    @Override
    public void linkDown(ErrorMessage.Cause cause, long modelAt, List<LinkEnd.Queued> purged) {
      context.getLog().info("Endpoint [{}] link down ({}), {} queued TLPs lost", id, cause, purged.size());
      if (target.root()) {
        aer.linkDown(target.bdf(), cause, modelAt);
      }
      management.linkState(io.rackfabric.fabric.link.DataLinkState.DL_INACTIVE, modelAt);
    }
  }
}
