package io.rackfabric.host.controlplane;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.rackfabric.host.controlplane.Admission.Verdict;
import java.util.List;
import org.junit.jupiter.api.Test;

class AdmissionTest {

  @Test
  void shouldRefuseBeyondTheBoundWhenOpen() {
    Admission<String> a = new Admission<>(2, 10);
    a.open();
    assertEquals(Verdict.SEND, a.offer("a"));
    assertEquals(Verdict.SEND, a.offer("b"));
    assertEquals(Verdict.REFUSED, a.offer("c"));
    a.done();
    assertEquals(Verdict.SEND, a.offer("d"));
    assertEquals(2, a.inFlight());
  }

  @Test
  void shouldQueueInOrderAndReleaseUnderTheBoundWhenReopened() {
    Admission<String> a = new Admission<>(2, 3);
    for (String r : List.of("a", "b", "c")) {
      assertEquals(Verdict.QUEUED, a.offer(r));
    }
    assertEquals(Verdict.REFUSED, a.offer("d"), "the queue is bounded too");
    assertEquals(List.of("a", "b"), a.open());
    assertEquals(List.of(), a.next());
    a.done();
    assertEquals(List.of("c"), a.next());
    assertEquals(0, a.queued());
  }

  @Test
  void shouldHandBackTheQueueWhenTakenAndKeepInFlightWhenClosed() {
    Admission<String> a = new Admission<>(4, 4);
    a.open();
    a.offer("a");
    a.close();
    a.offer("b");
    a.offer("c");
    assertEquals(List.of("b", "c"), a.takeQueued());
    assertEquals(1, a.inFlight());
    a.done();
    assertThrows(IllegalStateException.class, a::done);
  }
}
