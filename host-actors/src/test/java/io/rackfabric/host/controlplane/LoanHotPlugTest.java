package io.rackfabric.host.controlplane;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.persistence.controller.Controller;
import io.rackfabric.persistence.controller.Controller.OperationResult;
import io.rackfabric.persistence.controller.Controller.Status;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class LoanHotPlugTest {

  private static OperationResult answer(Status status) {
    return new OperationResult(status, 1, 100_482, status == Status.ACCEPTED ? null : "refused", List.of());
  }

  private static final Controller.BorrowDevice BORROW =
      new Controller.BorrowDevice("gpu1", "ch2", null, 0x18_0000_0000L, 8L << 30, 0, 100_000, null);
  private static final Controller.ReturnDevice RETURN = new Controller.ReturnDevice("gpu1", "ch2", 250_000, null);

  @Test
  void shouldHotAddTheDeviceWhenABorrowIsAccepted() {
    assertEquals(Optional.of(new MemoryEndpoint.HotAdd("gpu1", null)),
        LoanHotPlug.change(BORROW, answer(Status.ACCEPTED), null));
  }

  @Test
  void shouldHotRemoveTheDeviceWhenAReturnIsAccepted() {
    assertEquals(Optional.of(new MemoryEndpoint.HotRemove("gpu1", null)),
        LoanHotPlug.change(RETURN, answer(Status.ACCEPTED), null));
  }

  @Test
  void shouldChangeNothingWhenTheAnswerIsARefusalOrMissing() {
    assertTrue(LoanHotPlug.change(BORROW, answer(Status.REJECTED), null).isEmpty());
    assertTrue(LoanHotPlug.change(RETURN, answer(Status.REJECTED), null).isEmpty());
    assertTrue(LoanHotPlug.change(BORROW, null, null).isEmpty(), "given up: no answer");
  }

  @Test
  void shouldChangeNothingWhenTheOperationIsNoBorrowOrReturn() {
    assertTrue(LoanHotPlug.change(new Controller.MapDmaBuffer("gpu1", "ch2", 4L << 30, 1 << 20, 0, null),
        answer(Status.ACCEPTED), null).isEmpty());
  }
}
