package io.rackfabric.host.controlplane;

import akka.actor.typed.ActorRef;
import io.rackfabric.fabric.endpoint.AccessCheckChange;
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
  /** Null when the host's IOMMU does not check borrowed devices' DMA. */
  private final LoanDmaPages dmaPages;
  private final ActorRef<MemoryEndpoint.AccessCheckResult> iommuChanged;

  BorrowerRoot(String name, ActorRef<MemoryEndpoint.Command> endpoint,
      ActorRef<MemoryEndpoint.BarWindowsChanged> hotPlugged, LoanDmaPages dmaPages,
      ActorRef<MemoryEndpoint.AccessCheckResult> iommuChanged, Logger log) {
    this.name = name;
    this.endpoint = endpoint;
    this.hotPlugged = hotPlugged;
    this.dmaPages = dmaPages;
    this.iommuChanged = iommuChanged;
    this.log = log;
  }

  /**
   * A request was answered: an accepted borrow or return is hot-plugged at the root now, and an
   * accepted borrow, map, unmap or return changes the host's IOMMU ({@link LoanDmaPages}).
   */
  void answered(Operation operation, OperationResult result) {
    if (endpoint != null) {
      LoanHotPlug.change(operation, result, hotPlugged).ifPresent(endpoint::tell);
      if (dmaPages != null) {
        dmaPages.answered(operation, result).ifPresent(this::changeIommu);
      }
    }
  }

  private void changeIommu(AccessCheckChange change) {
    endpoint.tell(new MemoryEndpoint.ChangeAccessCheck(change, iommuChanged));
  }

  /** The root applied (or refused) a change of its IOMMU for a loan. */
  void iommuChanged(MemoryEndpoint.AccessCheckResult result) {
    if (result.accepted()) {
      log.debug("Client [{}]: IOMMU for a loan: {}", name, result.detail());
    } else {
      log.warn("Client [{}]: IOMMU change for a loan refused: {}", name, result.detail());
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
      if (dmaPages != null) {
        dmaPages.ended(ended.device()).ifPresent(this::changeIommu);
      }
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
