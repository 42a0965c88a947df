package io.rackfabric.host.controlplane;

import static io.rackfabric.host.controlplane.RequestQueueTest.answer;
import static io.rackfabric.host.controlplane.RequestQueueTest.page;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.persistence.controller.Controller;
import io.rackfabric.persistence.controller.Controller.OperationResult;
import io.rackfabric.persistence.controller.Controller.Status;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class RequestAttemptsTest {

  static final ClientSettings CLIENT =
      new ClientSettings(Duration.ofNanos(100), Duration.ofNanos(10), Duration.ofNanos(1_000));

  /** Remembers what the driver asked of its transport; its clock is set by the test. */
  static final class FakeTransport implements ClientTransport {
    final List<RequestQueue.Attempt> sent = new ArrayList<>();
    final List<String> calls = new ArrayList<>();
    long clock;

    @Override
    public long clock() {
      return clock;
    }

    @Override
    public void send(RequestQueue.Attempt a, Controller.Request request) {
      assertEquals(a.requestSeq(), request.requestSeq());
      assertEquals("ch1-driver", request.client());
      sent.add(a);
    }

    @Override
    public void answered() {
      calls.add("answered");
    }

    @Override
    public void retryAfterDelay() {
      calls.add("retry");
    }

    @Override
    public void nextPage(long at, long delayNs) {
      calls.add("page");
    }

    @Override
    public void stopPages() {
      calls.add("stop");
    }

    @Override
    public void useHosts(ControlPlaneClient.UseHosts hosts) {
      calls.add("hosts");
    }
  }

  private record End(long requestSeq, OperationResult result, int attempts, String detail) {}

  private final FakeTransport transport = new FakeTransport();
  private final List<End> ends = new ArrayList<>();
  private final RequestAttempts attempts = new RequestAttempts("ch1-driver", CLIENT, transport, 2,
      LoggerFactory.getLogger(RequestAttemptsTest.class),
      (open, result, n, detail) -> ends.add(new End(open.requestSeq(), result, n, detail)));

  @Test
  void shouldSendTheNextWhenTheOpenOneIsAnswered() {
    assertEquals(1, attempts.offer(page(1)));
    assertEquals(2, attempts.offer(page(2)));
    attempts.sendNext();
    attempts.sendNext();
    assertEquals(1, transport.sent.size(), "one request open at a time");
    attempts.answered(1, 0, answer(Status.ACCEPTED));
    assertEquals(List.of("answered"), transport.calls);
    assertEquals(List.of(new End(1, answer(Status.ACCEPTED), 1, "ACCEPTED")), ends);
    assertEquals(2, transport.sent.get(1).requestSeq());
  }

  @Test
  void shouldRetryAtTheOtherHostAfterTheDelayWhenNotMaster() {
    attempts.offer(page(1));
    attempts.sendNext();
    attempts.answered(1, 0, answer(Status.NOT_MASTER));
    assertEquals(List.of("retry"), transport.calls);
    attempts.retryOrGiveUp();
    assertEquals(1, transport.sent.get(1).host());
    assertEquals(2, transport.sent.get(1).attempt());
    assertTrue(ends.isEmpty());
  }

  @Test
  void shouldTryTheOtherHostAtOnceWhenAnAttemptTimesOut() {
    attempts.offer(page(1));
    attempts.sendNext();
    attempts.timedOut(1, 0, 1);
    assertEquals(2, transport.sent.size());
    assertEquals(1, transport.sent.get(1).host());
    attempts.timedOut(1, 0, 1);
    assertEquals(2, transport.sent.size(), "a stale time-out sends nothing");
  }

  @Test
  void shouldGiveUpAndSendTheNextWhenOpenLongerThanTheGiveUpTime() {
    attempts.offer(page(1));
    attempts.offer(page(2));
    attempts.sendNext();
    transport.clock = 1_001;
    attempts.timedOut(1, 0, 1);
    assertEquals(1, ends.size());
    End gone = ends.get(0);
    assertEquals(1, gone.requestSeq());
    assertNull(gone.result());
    assertEquals(1, gone.attempts());
    assertTrue(gone.detail().startsWith("given up after"), gone.detail());
    assertEquals(2, transport.sent.get(1).requestSeq(), "the next request goes");
  }
}
