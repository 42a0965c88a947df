package io.rackfabric.host.controlplane;

import akka.actor.typed.ActorRef;
import io.rackfabric.persistence.controller.Controller.AddDevice;
import io.rackfabric.persistence.controller.Controller.AddHost;
import io.rackfabric.persistence.controller.Controller.AssignVf;
import io.rackfabric.persistence.controller.Controller.BorrowDevice;
import io.rackfabric.persistence.controller.Controller.CloseIommuPage;
import io.rackfabric.persistence.controller.Controller.CompleteEnumeration;
import io.rackfabric.persistence.controller.Controller.FreeVf;
import io.rackfabric.persistence.controller.Controller.InitPfDriver;
import io.rackfabric.persistence.controller.Controller.MapDmaBuffer;
import io.rackfabric.persistence.controller.Controller.MoveLoanWindow;
import io.rackfabric.persistence.controller.Controller.OfferDevice;
import io.rackfabric.persistence.controller.Controller.OpenIommuPage;
import io.rackfabric.persistence.controller.Controller.Operation;
import io.rackfabric.persistence.controller.Controller.OperationResult;
import io.rackfabric.persistence.controller.Controller.RemoveDevice;
import io.rackfabric.persistence.controller.Controller.RemoveHost;
import io.rackfabric.persistence.controller.Controller.ReturnDevice;
import io.rackfabric.persistence.controller.Controller.UnmapDmaBuffer;
import io.rackfabric.persistence.controller.Controller.WithdrawOffer;
import io.rackfabric.persistence.controller.Controller.Request;
import io.rackfabric.persistence.controller.Controller.ProgramRequesterId;
import io.rackfabric.persistence.controller.Controller.ReprogramWindow;
import io.rackfabric.persistence.controller.Controller.TakeTemplateImage;

/**
 * Copies of controller operations with another model time and reply address: the management
 * host stamps an operation with the time it handles it (a request queued through a take-over is
 * served after it) and has the answer come back to itself before the requester.
 */
final class Operations {

  private Operations() {}

  // An if-chain: pattern matching in switch is not final in Java 17.
  static Operation restamp(Operation op, long at, ActorRef<OperationResult> to) {
    if (op instanceof Request o) {
      return new Request(o.client(), o.requestSeq(), restamp(o.operation(), at, to));
    } else if (op instanceof AddHost o) {
      return new AddHost(o.host(), o.requester(), o.memoryBase(), o.memorySize(), at, to);
    } else if (op instanceof RemoveHost o) {
      return new RemoveHost(o.host(), at, to);
    } else if (op instanceof AddDevice o) {
      return new AddDevice(o.device(), o.kind(), o.bdf(), o.location(), o.bars(), o.totalVfs(), at, to);
    } else if (op instanceof RemoveDevice o) {
      return new RemoveDevice(o.device(), at, to);
    } else if (op instanceof CompleteEnumeration o) {
      return new CompleteEnumeration(o.root(), at, to);
    } else if (op instanceof InitPfDriver o) {
      return new InitPfDriver(o.nic(), o.vfs(), at, to);
    } else if (op instanceof AssignVf o) {
      return new AssignVf(o.nic(), o.host(), at, to);
    } else if (op instanceof FreeVf o) {
      return new FreeVf(o.nic(), o.vf(), at, to);
    } else if (op instanceof OpenIommuPage o) {
      return new OpenIommuPage(o.host(), o.requester(), o.pageAddress(), o.permission(), at, to);
    } else if (op instanceof CloseIommuPage o) {
      return new CloseIommuPage(o.host(), o.requester(), o.pageAddress(), at, to);
    } else if (op instanceof ReprogramWindow o) {
      return new ReprogramWindow(o.ntb(), o.bar(), o.base(), o.size(), o.translatedBase(), at, to);
    } else if (op instanceof ProgramRequesterId o) {
      return new ProgramRequesterId(o.ntb(), o.direction(), o.index(), o.original(), at, to);
    } else if (op instanceof TakeTemplateImage o) {
      return new TakeTemplateImage(at, to);
    } else if (op instanceof io.rackfabric.persistence.controller.Controller.RecordFabricDatabase o) {
      return new io.rackfabric.persistence.controller.Controller.RecordFabricDatabase(o.manager(), o.change(),
          o.changedAt(), at, to);
    }
    return restampLoan(op, at, to);
  }

  /** Device Lending's operations. */
  private static Operation restampLoan(Operation op, long at, ActorRef<OperationResult> to) {
    if (op instanceof OfferDevice o) {
      return new OfferDevice(o.device(), o.lender(), o.kind(), o.bars(), at, to);
    } else if (op instanceof WithdrawOffer o) {
      return new WithdrawOffer(o.device(), o.lender(), at, to);
    } else if (op instanceof BorrowDevice o) {
      return new BorrowDevice(o.device(), o.borrower(), o.vm(), o.windowBase(), o.windowSize(), o.windowTarget(),
          o.msiAddress(), at, to);
    } else if (op instanceof ReturnDevice o) {
      return new ReturnDevice(o.device(), o.borrower(), at, to);
    } else if (op instanceof MapDmaBuffer o) {
      return new MapDmaBuffer(o.device(), o.borrower(), o.bufferAddress(), o.size(), at, to);
    } else if (op instanceof UnmapDmaBuffer o) {
      return new UnmapDmaBuffer(o.device(), o.borrower(), o.deviceAddress(), at, to);
    } else if (op instanceof MoveLoanWindow o) {
      return new MoveLoanWindow(o.device(), o.borrower(), o.windowBase(), o.windowSize(), o.windowTarget(), at, to);
    }
    throw new IllegalArgumentException("operation " + op.getClass().getName() + " is not known here");
  }
}
