package io.rackfabric.fabric.endpoint;

import akka.actor.typed.javadsl.ActorContext;
import io.rackfabric.fabric.control.ControlOrigins;
import io.rackfabric.fabric.endpoint.MemoryEndpoint.BarWindowsChanged;
import io.rackfabric.fabric.endpoint.MemoryEndpoint.ChangeAccessCheck;
import io.rackfabric.fabric.endpoint.MemoryEndpoint.GateBarWindows;
import io.rackfabric.fabric.endpoint.MemoryEndpoint.HotAdd;
import io.rackfabric.fabric.endpoint.MemoryEndpoint.HotRemove;
import io.rackfabric.fabric.link.PortMessage;

/**
 * What only a control origin may change on a memory endpoint (see {@link
 * io.rackfabric.fabric.control.ControlOrigin}): its inbound access check ({@link ChangeAccessCheck})
 * and the BAR windows of devices lent to its host ({@link GateBarWindows}, {@link HotAdd}, {@link
 * HotRemove}). A change from anyone else is dropped unanswered; an admitted one is answered with
 * what it came to. Not thread-safe: the endpoint actor's own.
 */
final class EndpointControl {

  private final ActorContext<PortMessage> context;
  private final String id;
  private final EndpointTarget target;
  private final BarWindows barWindows;

  EndpointControl(ActorContext<PortMessage> context, String id, EndpointTarget target, BarWindows barWindows) {
    this.context = context;
    this.id = id;
    this.target = target;
    this.barWindows = barWindows;
  }

  /** Takes the control origins' changes. */
  void register(PartMessages on) {
    on.on(ChangeAccessCheck.class, this::changeAccessCheck)
        .on(GateBarWindows.class, this::gateBarWindows)
        .on(HotAdd.class, this::hotAdd)
        .on(HotRemove.class, this::hotRemove);
  }

  private void changeAccessCheck(ChangeAccessCheck msg) {
    if (ControlOrigins.admitsConfiguration(context, id, msg, msg.replyTo())) {
      msg.replyTo().tell(target.changeAccessCheck(msg.change()));
    }
  }

  private void gateBarWindows(GateBarWindows msg) {
    if (ControlOrigins.admitsConfiguration(context, id, msg, msg.replyTo())) {
      msg.replyTo().tell(barWindowsChanged(msg.device(), barWindows.gate(msg.device(), msg.windows()),
          "gated closed: " + msg.windows()));
    }
  }

  private void hotAdd(HotAdd msg) {
    if (ControlOrigins.admitsConfiguration(context, id, msg, msg.replyTo())) {
      msg.replyTo().tell(barWindowsChanged(msg.device(), barWindows.hotAdd(msg.device()),
          "hot-added: BAR windows open"));
    }
  }

  private void hotRemove(HotRemove msg) {
    if (ControlOrigins.admitsConfiguration(context, id, msg, msg.replyTo())) {
      msg.replyTo().tell(barWindowsChanged(msg.device(), barWindows.hotRemove(msg.device()),
          "hot-removed: BAR windows closed"));
    }
  }

  private BarWindowsChanged barWindowsChanged(String device, String refusal, String done) {
    if (refusal != null) {
      context.getLog().info("Endpoint [{}] BAR windows of {}: refused: {}", id, device, refusal);
      return new BarWindowsChanged(id, device, false, refusal);
    }
    context.getLog().debug("Endpoint [{}] BAR windows of {}: {}", id, device, done);
    return new BarWindowsChanged(id, device, true, done);
  }
}
