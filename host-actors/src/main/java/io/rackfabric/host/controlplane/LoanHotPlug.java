package io.rackfabric.host.controlplane;

import akka.actor.typed.ActorRef;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.persistence.controller.Controller;
import io.rackfabric.persistence.controller.Controller.Operation;
import io.rackfabric.persistence.controller.Controller.OperationResult;
import io.rackfabric.persistence.controller.Controller.Status;
import java.util.Optional;

/**
 * What a borrower's root does when the controller has answered one of its host's loan requests
 * (Device Lending section 4): an accepted borrow is a hot-add, which opens the device's BAR
 * windows at the host's root; an accepted return is a hot-remove, which closes them. Anything
 * else, and every refusal, changes nothing.
 */
public final class LoanHotPlug {

  private LoanHotPlug() {}

  /**
   * The change to send to the host's root endpoint for {@code operation}'s answer {@code result},
   * answered to {@code replyTo}; empty when there is none.
   */
  public static Optional<MemoryEndpoint.Command> change(Operation operation, OperationResult result,
      ActorRef<MemoryEndpoint.BarWindowsChanged> replyTo) {
    if (result == null || result.status() != Status.ACCEPTED) {
      return Optional.empty();
    }
    if (operation instanceof Controller.BorrowDevice b) {
      return Optional.of(new MemoryEndpoint.HotAdd(b.device(), replyTo));
    }
    if (operation instanceof Controller.ReturnDevice r) {
      return Optional.of(new MemoryEndpoint.HotRemove(r.device(), replyTo));
    }
    return Optional.empty();
  }
}
