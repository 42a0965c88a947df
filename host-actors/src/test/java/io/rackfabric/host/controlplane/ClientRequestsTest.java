package io.rackfabric.host.controlplane;

import static io.rackfabric.host.controlplane.RequestQueueTest.answer;
import static io.rackfabric.host.controlplane.RequestQueueTest.page;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import io.rackfabric.host.controlplane.ControlPlaneClient.PagesDone;
import io.rackfabric.persistence.controller.Controller;
import io.rackfabric.persistence.controller.Controller.OperationResult;
import io.rackfabric.persistence.controller.Controller.Status;
import io.rackfabric.persistence.controller.PagePermission;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

class ClientRequestsTest {

  private static final ActorTestKit KIT = ActorTestKit.create();
  private static final Logger LOG = LoggerFactory.getLogger(ClientRequestsTest.class);

  private final RequestAttemptsTest.FakeTransport transport = new RequestAttemptsTest.FakeTransport();
  private final ClientRequests requests = new ClientRequests("ch1-driver",
      new BorrowerRoot("ch1-driver", null, null, null, null, LOG), () -> 0L, LOG);

  @AfterAll
  static void shutdown() {
    KIT.shutdownTestKit();
  }

  @Test
  void shouldHoldRequestsUntilItBeginsWhenSubmittedBeforeTheHostsAreKnown() {
    requests.submit(page(1), false, null, null);
    requests.submit(page(2), false, null, null);
    assertNull(requests.attempts());
    requests.begin(transport, null, RequestAttemptsTest.CLIENT, 2);
    requests.attempts().sendNext();
    assertEquals(1, transport.sent.size(), "one request open at a time");
    requests.attempts().answered(1, 0, answer(Status.ACCEPTED));
    assertEquals(2, transport.sent.get(1).requestSeq(), "the held requests go in order");
    assertEquals(Status.ACCEPTED, requests.records().get(0).status());
  }

  @Test
  void shouldAnswerADependentRequestNotSentWhenTheOneItFollowsWasRefused() {
    TestProbe<OperationResult> requester = KIT.createTestProbe();
    requests.begin(transport, null, RequestAttemptsTest.CLIENT, 2);
    requests.submit(new Controller.OpenIommuPage("ch1", 0x100, 4096, PagePermission.READ, 1, requester.ref()),
        false, "first", null);
    requests.submit(new Controller.OpenIommuPage("ch1", 0x100, 8192, PagePermission.READ, 2, requester.ref()),
        false, null, "first");
    requests.attempts().answered(1, 0, answer(Status.REJECTED));
    assertEquals(Status.REJECTED, requester.receiveMessage().status());
    OperationResult notSent = requester.receiveMessage();
    assertEquals(Status.REJECTED, notSent.status());
    assertEquals(true, notSent.detail().startsWith(ControlPlaneClient.NOT_SENT), notSent.detail());
    assertEquals(1, transport.sent.size(), "the dependent request is not sent");
  }

  @Test
  void shouldTellWhoAwaitsReadinessOnlyOnceItBeganWhenAskedBefore() {
    TestProbe<PagesDone> early = KIT.createTestProbe();
    requests.awaitReady(early.ref());
    early.expectNoMessage();
    requests.begin(transport, null, RequestAttemptsTest.CLIENT, 2);
    requests.tellReady();
    assertEquals("ch1-driver", early.receiveMessage().client());
    TestProbe<PagesDone> late = KIT.createTestProbe();
    requests.awaitReady(late.ref());
    assertEquals(0, late.receiveMessage().requests().size());
  }
}
