package io.rackfabric.host.controlplane;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.persistence.controller.Controller;
import io.rackfabric.persistence.controller.Controller.OperationResult;
import io.rackfabric.persistence.controller.Controller.Status;
import io.rackfabric.persistence.controller.PagePermission;
import java.util.List;
import org.junit.jupiter.api.Test;

class RequestQueueTest {

  private static final long GIVE_UP = 1_000;

  static Controller.Operation page(long k) {
    return new Controller.OpenIommuPage("ch1", 0x100, k * 4096, PagePermission.READ, k, null);
  }

  static OperationResult answer(Status s) {
    return new OperationResult(s, 1, 5, s.name(), List.of());
  }

  @Test
  void shouldSendOneAtATimeInOrderWhenSeveralAreQueued() {
    RequestQueue q = new RequestQueue(2, GIVE_UP);
    assertEquals(1, q.offer(page(1), 0));
    assertEquals(2, q.offer(page(2), 0));
    RequestQueue.Attempt a = q.next().orElseThrow();
    assertEquals(1, a.requestSeq());
    assertEquals(0, a.host());
    assertTrue(q.next().isEmpty(), "the second waits for the first's answer");
    assertEquals(RequestQueue.Next.DONE, q.answered(1, 0, answer(Status.ACCEPTED)));
    assertEquals(2, q.next().orElseThrow().requestSeq());
  }

  @Test
  void shouldTryTheOtherHostWhenNotMasterOrTimedOut() {
    RequestQueue q = new RequestQueue(2, GIVE_UP);
    q.offer(page(1), 0);
    RequestQueue.Attempt first = q.next().orElseThrow();
    assertEquals(RequestQueue.Next.RETRY_NOW, q.timedOut(1, first.host(), first.attempt()));
    RequestQueue.Attempt second = q.retry().orElseThrow();
    assertEquals(1, second.host());
    assertEquals(2, second.attempt());
    // The first attempt's timeout again, or a timeout of an attempt that is not the last: stale.
    assertEquals(RequestQueue.Next.IGNORE, q.timedOut(1, first.host(), first.attempt()));
    assertEquals(RequestQueue.Next.RETRY, q.answered(1, 1, answer(Status.NOT_MASTER)));
    assertEquals(0, q.retry().orElseThrow().host(), "back to the first host");
    // Overloaded: the same host again, later.
    assertEquals(RequestQueue.Next.RETRY, q.answered(1, 0, answer(Status.OVERLOADED)));
    assertEquals(0, q.retry().orElseThrow().host());
  }

  @Test
  void shouldCountALateAnswerOnceWhenTheRequestIsStillOpen() {
    RequestQueue q = new RequestQueue(2, GIVE_UP);
    q.offer(page(1), 0);
    q.offer(page(2), 0);
    RequestQueue.Attempt first = q.next().orElseThrow();
    q.timedOut(1, first.host(), first.attempt());
    q.retry();
    // The first attempt's answer comes after all: the request is answered.
    assertEquals(RequestQueue.Next.DONE, q.answered(1, 0, answer(Status.ACCEPTED)));
    q.next();
    // The second attempt's answer ("already applied") is for a request no longer open.
    assertEquals(RequestQueue.Next.IGNORE, q.answered(1, 1, answer(Status.ACCEPTED)));
    assertEquals(2, q.current().orElseThrow().requestSeq());
  }

  @Test
  void shouldExpireWhenUnansweredPastTheGiveUpTime() {
    RequestQueue q = new RequestQueue(2, GIVE_UP);
    q.offer(page(1), 100);
    q.next();
    assertFalse(q.expired(100 + GIVE_UP));
    assertTrue(q.expired(101 + GIVE_UP));
    assertEquals(1, q.abandon().requestSeq());
    assertTrue(q.current().isEmpty());
  }
}
