package io.rackfabric.host.controlplane;

import akka.actor.typed.ActorRef;
import io.rackfabric.fabric.endpoint.GuestCall;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.persistence.controller.Controller.Operation;
import io.rackfabric.persistence.controller.Controller.OperationResult;
import java.util.List;
import org.slf4j.Logger;

/**
 * The host's root endpoint as its control-plane driver changes it for loans: an accepted borrow
 * hot-adds the device (its BAR windows open), a return or the controller's end of a loan
 * hot-removes it, and the loan's followers (the device's driver) hear of an end inside the
 * notice's call ({@link LoanEnds}). With no endpoint (a driver next to none) only the followers
 * are told. Not thread-safe: the driver's actor's own.
 */
final class BorrowerRoot {

  private final String name;
  /** Null when the driver runs next to no endpoint. */
  private final ActorRef<MemoryEndpoint.Command> endpoint;
  private final ActorRef<MemoryEndpoint.BarWindowsChanged> hotPlugged;
  private final Logger log;
  private final LoanEnds loanEnds = new LoanEnds();

  BorrowerRoot(String name, ActorRef<MemoryEndpoint.Command> endpoint,
      ActorRef<MemoryEndpoint.BarWindowsChanged> hotPlugged, Logger log) {
    this.name = name;
    this.endpoint = endpoint;
    this.hotPlugged = hotPlugged;
    this.log = log;
  }

  /** A request was answered: an accepted borrow or return is hot-plugged at the root now. */
  void answered(Operation operation, OperationResult result) {
    if (endpoint != null) {
      LoanHotPlug.change(operation, result, hotPlugged).ifPresent(endpoint::tell);
    }
  }

  void follow(ActorRef<ControlPlaneClient.LoanEnd> follower) {
    loanEnds.follow(follower);
  }

  /**
   * The controller ended a loan of this host's (Device Lending's surprise removal), noticed at
   * model {@code at}: the device is hot-removed at the root, its BAR windows closed, and each
   * follower told; true when {@code call} is held for the followers' answers.
   */
  boolean loanEnded(ControlPlaneHost.LoanEnded ended, long at, GuestCall call,
      ActorRef<ControlPlaneClient.LoanEndHandled> replyTo) {
    log.warn("Client [{}]: the controller ended the loan of [{}] at {} ns ({}); hot-removed at {} ns", name,
        ended.device(), ended.at(), ended.reason(), at);
    if (endpoint != null) {
      endpoint.tell(new MemoryEndpoint.HotRemove(ended.device(), hotPlugged));
    }
    return loanEnds.noticed(ended, at, call, replyTo);
  }

  /** A follower answered; the held calls to answer now. */
  List<GuestCall> handled() {
    return loanEnds.handled();
  }

  /** The root applied (or refused) a hot-add or hot-remove. */
  void hotPlugged(MemoryEndpoint.BarWindowsChanged result) {
    log.debug("Client [{}]: BAR windows of {} at {}: {} ({})", name, result.device(), result.endpoint(),
        result.accepted() ? "done" : "not changed", result.detail());
  }
}
