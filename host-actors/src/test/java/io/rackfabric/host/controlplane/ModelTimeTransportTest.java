package io.rackfabric.host.controlplane;

import static io.rackfabric.host.controlplane.RequestQueueTest.answer;
import static io.rackfabric.host.controlplane.RequestQueueTest.page;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;

import akka.actor.testkit.typed.javadsl.ActorTestKit;
import akka.actor.testkit.typed.javadsl.TestProbe;
import io.rackfabric.fabric.endpoint.GuestAddress;
import io.rackfabric.fabric.endpoint.GuestCall;
import io.rackfabric.fabric.endpoint.MemoryEndpoint;
import io.rackfabric.host.controlplane.ControlPlaneHost.ClientAnswer;
import io.rackfabric.persistence.controller.Controller.Status;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The driver's transport in model time, on a probe standing for its endpoint: the wakes it makes
 * stale (an answered attempt's time-out, a replaced page or retry timer) are taken back with
 * {@link MemoryEndpoint.CancelWake}, so that they keep no rack running to their time.
 */
class ModelTimeTransportTest {

  static final ActorTestKit testKit = ActorTestKit.create();
  static final ClientSettings CLIENT =
      new ClientSettings(Duration.ofSeconds(1), Duration.ofMillis(100), Duration.ofMinutes(2));

  @AfterAll
  static void shutdown() {
    testKit.shutdownTestKit();
  }

  private final TestProbe<MemoryEndpoint.Command> endpoint = testKit.createTestProbe();
  private final TestProbe<GuestCall> calls = testKit.createTestProbe();
  private final TestProbe<MemoryEndpoint.Command> mmhEndpoint = testKit.createTestProbe();
  private final TestProbe<MemoryEndpoint.Command> bmhEndpoint = testKit.createTestProbe();
  private final ModelTimeTransport transport = new ModelTimeTransport(
      new HostGuest("ch1", endpoint.ref(), calls.ref(), true), "ch1-driver",
      List.of(new GuestAddress("mmh", mmhEndpoint.ref(), calls.ref()),
          new GuestAddress("bmh", bmhEndpoint.ref(), calls.ref())),
      CLIENT);
  private final List<Long> ended = new ArrayList<>();
  private final RequestAttempts attempts = new RequestAttempts("ch1-driver", CLIENT, transport, 2,
      LoggerFactory.getLogger(ModelTimeTransportTest.class), (open, result, n, detail) -> ended.add(open.requestSeq()));

  /** Sends request 1's first attempt at model time {@code at}; returns its time-out's wake. */
  private MemoryEndpoint.WakeGuest sendFirst(long at) {
    transport.at(at);
    attempts.offer(page(1));
    attempts.sendNext();
    endpoint.expectMessageClass(MemoryEndpoint.SendToPeer.class);
    MemoryEndpoint.WakeGuest timeout = endpoint.expectMessageClass(MemoryEndpoint.WakeGuest.class);
    assertEquals(at + CLIENT.attemptTimeout().toNanos(), timeout.at());
    return timeout;
  }

  /** What the host's answer, called by the endpoint at model time {@code at}, makes the driver do. */
  private void answeredAt(long at, String host, Status status) {
    ControlPlaneClient.Answered a = assertInstanceOf(ControlPlaneClient.Answered.class,
        transport.called(new GuestCall.FromPeer(7, at, host, new ClientAnswer(1, answer(status)))));
    attempts.answered(a.requestSeq(), a.host(), a.result());
  }

  @Test
  void shouldTakeBackTheAttemptsTimeOutWhenItsAnswerArrives() {
    MemoryEndpoint.WakeGuest timeout = sendFirst(1_000);

    answeredAt(3_000, "mmh", Status.ACCEPTED);
    assertEquals(List.of(1L), ended);
    assertEquals(new MemoryEndpoint.CancelWake(calls.ref(), timeout.token()), endpoint.receiveMessage());
    endpoint.expectNoMessage(Duration.ofMillis(100));
    // Were it on its way already, it would mean nothing.
    assertNull(transport.called(new GuestCall.Wake(8, timeout.at(), timeout.token())));
  }

  @Test
  void shouldTakeBackTheTimeOutAndKeepTheRetryWhenTheAnswerIsNotMaster() {
    MemoryEndpoint.WakeGuest timeout = sendFirst(1_000);

    answeredAt(3_000, "mmh", Status.NOT_MASTER);
    assertEquals(new MemoryEndpoint.CancelWake(calls.ref(), timeout.token()), endpoint.receiveMessage());
    MemoryEndpoint.WakeGuest retry = endpoint.expectMessageClass(MemoryEndpoint.WakeGuest.class);
    assertEquals(3_000 + CLIENT.retryDelay().toNanos(), retry.at());

    // The retry it still wants: the second attempt goes to the other host, with its own time-out.
    assertEquals(ControlPlaneClient.Retry.INSTANCE, transport.called(new GuestCall.Wake(8, retry.at(), retry.token())));
    attempts.retryOrGiveUp();
    endpoint.expectMessageClass(MemoryEndpoint.SendToPeer.class);
    assertEquals(retry.at() + CLIENT.attemptTimeout().toNanos(),
        endpoint.expectMessageClass(MemoryEndpoint.WakeGuest.class).at());
    endpoint.expectNoMessage(Duration.ofMillis(100));
  }

  @Test
  void shouldTakeBackThePendingPageWakeWhenItIsReplacedOrThePagesStop() {
    transport.nextPage(10_000, 0);
    MemoryEndpoint.WakeGuest first = endpoint.expectMessageClass(MemoryEndpoint.WakeGuest.class);
    transport.nextPage(20_000, 10_000);
    assertEquals(new MemoryEndpoint.CancelWake(calls.ref(), first.token()), endpoint.receiveMessage());
    MemoryEndpoint.WakeGuest second = endpoint.expectMessageClass(MemoryEndpoint.WakeGuest.class);
    assertEquals(20_000, second.at());

    transport.stopPages();
    assertEquals(new MemoryEndpoint.CancelWake(calls.ref(), second.token()), endpoint.receiveMessage());
    transport.stopPages();
    endpoint.expectNoMessage(Duration.ofMillis(100));
  }

  @Test
  void shouldTakeTheMastersLoanEndNoticeAtItsArrivalsModelTime() {
    ControlPlaneHost.LoanEnded ended = new ControlPlaneHost.LoanEnded("gpu1", "ch1", "ch2", 3_002_531,
        "lender=ch1 was removed from the rack at=3002531ns");
    ControlPlaneClient.LoanEndNoticed n = assertInstanceOf(ControlPlaneClient.LoanEndNoticed.class,
        transport.called(new GuestCall.FromPeer(9, 3_003_013, "mmh", ended)));
    assertEquals(new ControlPlaneClient.LoanEndNoticed(ended, 3_003_013), n);
    assertEquals(3_003_013, transport.now(), "the driver's clock is the notice's");
  }
}
