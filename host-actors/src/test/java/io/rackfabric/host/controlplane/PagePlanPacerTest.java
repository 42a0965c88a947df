package io.rackfabric.host.controlplane;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import io.rackfabric.host.controlplane.ControlPlaneClient.OpenPages;
import io.rackfabric.host.controlplane.ControlPlaneClient.PagePlan;
import io.rackfabric.host.controlplane.ControlPlaneClient.PagesDone;
import io.rackfabric.persistence.controller.Controller.Status;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

class PagePlanPacerTest {

  private static final ActorTestKit KIT = ActorTestKit.create();
  private static final Logger LOG = LoggerFactory.getLogger(PagePlanPacerTest.class);

  private final RequestAttemptsTest.FakeTransport transport = new RequestAttemptsTest.FakeTransport();
  private final ClientRequests requests = new ClientRequests("ch1-driver",
      new BorrowerRoot("ch1-driver", null, null, null, null, LOG), () -> 0L, LOG);
  private final PagePlanPacer pacer = new PagePlanPacer("ch1-driver", requests, LOG);

  @AfterAll
  static void shutdown() {
    KIT.shutdownTestKit();
  }

  @Test
  void shouldAnswerRejectedWithoutStartingWhenThePlanIsMalformed() {
    TestProbe<PagesDone> replyTo = KIT.createTestProbe();
    assertFalse(pacer.open(new OpenPages(new PagePlan("ch1", 0x100, 0, 0, 5, 10), replyTo.ref())));
    PagesDone done = replyTo.receiveMessage();
    assertEquals(Status.REJECTED, done.requests().get(0).status());
    assertEquals("count=0 must be at least 1", done.requests().get(0).detail());
    assertFalse(pacer.running());
  }

  @Test
  void shouldAskForTheNextPageUntilTheLastThenStopWhenOnTheWallClock() {
    TestProbe<PagesDone> replyTo = KIT.createTestProbe();
    requests.begin(transport, null, RequestAttemptsTest.CLIENT, 2);
    assertTrue(pacer.open(new OpenPages(new PagePlan("ch1", 0x100, 0, 2, 5, 10), replyTo.ref())));
    assertTrue(pacer.running());
    pacer.start(transport, null);
    assertEquals(List.of("page"), transport.calls, "the second page's turn is asked for");
    assertEquals(1, transport.sent.size());
    pacer.issueNext(transport);
    assertEquals(List.of("page"), transport.calls, "nothing after the last");
    pacer.issueNext(transport);
    assertEquals(List.of("page", "stop"), transport.calls);
  }
}
