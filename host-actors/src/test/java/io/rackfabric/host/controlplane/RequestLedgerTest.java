package io.rackfabric.host.controlplane;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.testkit.typed.javadsl.TestInbox;
import io.rackfabric.host.controlplane.ControlPlaneClient.RequestRecord;
import io.rackfabric.persistence.controller.Controller;
import io.rackfabric.persistence.controller.Controller.OperationResult;
import io.rackfabric.persistence.controller.Controller.Status;
import io.rackfabric.persistence.controller.ControllerEvent;
import io.rackfabric.persistence.controller.PagePermission;
import java.util.List;
import org.junit.jupiter.api.Test;

class RequestLedgerTest {

  private static RequestQueue.Open open(long seq, long at) {
    return new RequestQueue.Open(seq,
        new Controller.OpenIommuPage("ch1", 0x100, seq * 4096, PagePermission.READ, at, null), 0);
  }

  @Test
  void shouldRecordTheAnswerAndTellTheRequesterOnceWhenAnswered() {
    RequestLedger ledger = new RequestLedger();
    TestInbox<OperationResult> requester = TestInbox.create();
    ledger.issued(1, requester.getRef(), 1_000);
    OperationResult result = new OperationResult(Status.ACCEPTED, 7, 60, "opened", List.of(new ControllerEvent.RequestApplied("ch1-driver", 1, 60)));
    RequestRecord r = ledger.closed(open(1, 50), result, 2, "opened", 1_400);
    assertEquals(new RequestRecord(1, 50, 60, Status.ACCEPTED, "opened", 2, 400, false), r);
    assertSame(result, requester.receiveMessage());
    ledger.closed(open(1, 50), result, 3, "opened", 1_500);
    assertFalse(requester.hasMessages(), "the requester hears once");
    assertEquals(2, ledger.records().size());
  }

  @Test
  void shouldMarkARepeatWhenAcceptedWithoutEvents() {
    RequestLedger ledger = new RequestLedger();
    ledger.issued(1, null, 0);
    RequestRecord r = ledger.closed(open(1, 5), new OperationResult(Status.ACCEPTED, 7, 9, "already applied",
        List.of()), 2, "already applied", 10);
    assertTrue(r.alreadyApplied());
  }

  @Test
  void shouldTellTheRequesterNotMasterWhenGivenUp() {
    RequestLedger ledger = new RequestLedger();
    TestInbox<OperationResult> requester = TestInbox.create();
    ledger.issued(4, requester.getRef(), 100);
    RequestRecord r = ledger.closed(open(4, 30), null, 5, "given up", 900);
    assertEquals(-1, r.answeredAt());
    assertNull(r.status());
    assertEquals(800, r.wallLatencyNs());
    OperationResult told = requester.receiveMessage();
    assertEquals(Status.NOT_MASTER, told.status());
    assertEquals(30, told.at());
    assertEquals("given up", told.detail());
  }

  @Test
  void shouldKeepRecordsInTheOrderTheRequestsEndedWhenSeveralEnd() {
    RequestLedger ledger = new RequestLedger();
    ledger.issued(1, null, 0);
    ledger.issued(2, null, 0);
    ledger.closed(open(2, 0), null, 1, "given up", 5);
    ledger.closed(open(1, 0), null, 1, "given up", 5);
    assertEquals(List.of(2L, 1L), ledger.records().stream().map(RequestRecord::requestSeq).toList());
  }
}
