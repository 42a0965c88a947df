package io.rackfabric.host.controlplane;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rackfabric.host.controlplane.ControlPlaneHost.Replicate;
import io.rackfabric.persistence.controller.ControllerEvent;
import io.rackfabric.persistence.controller.ControllerEvent.HostAdded;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReplicaFeedTest {

  /** An operation of {@code events} events numbered from {@code first}. */
  private static Replicate op(long first, int events) {
    List<ControllerEvent> list = new ArrayList<>();
    for (int i = 0; i < events; i++) {
      list.add(new HostAdded("ch" + (first + i), 0x100, 0, 4096, first + i));
    }
    return new Replicate(first, list, first, null, null);
  }

  @Test
  void shouldSendAtOnceWhenTheReplicaIsIdleAndBatchWhatComesWhileItWrites() {
    ReplicaFeed feed = new ReplicaFeed();
    Replicate a = op(5, 1);
    List<ReplicaFeed.Batch> now = feed.arrived(a);
    assertEquals(List.of(new ReplicaFeed.Batch(List.of(a))), now);

    Replicate b = op(6, 2);
    Replicate c = op(8, 1);
    assertTrue(feed.arrived(b).isEmpty(), "the replica writes a");
    assertTrue(feed.arrived(c).isEmpty());
    assertEquals(2, feed.waiting());

    List<ReplicaFeed.Batch> next = feed.answered();
    assertEquals(1, next.size(), "b and c follow on: one write");
    assertEquals(6, next.get(0).firstSeqNr());
    assertEquals(List.of(b, c), next.get(0).requests());
    assertEquals(3, next.get(0).events().size());
    assertEquals(1, feed.writing());
    assertTrue(feed.answered().isEmpty());
    assertEquals(0, feed.writing());
  }

  @Test
  void shouldSplitWhereTheNumbersDoNotFollowOnWhenBatching() {
    ReplicaFeed feed = new ReplicaFeed();
    feed.arrived(op(1, 1));
    Replicate resend = op(1, 1);
    Replicate after = op(2, 1);
    Replicate gap = op(9, 1);
    feed.arrived(after);
    feed.arrived(resend);
    feed.arrived(gap);
    List<ReplicaFeed.Batch> next = feed.answered();
    assertEquals(List.of(new ReplicaFeed.Batch(List.of(after)), new ReplicaFeed.Batch(List.of(resend)),
        new ReplicaFeed.Batch(List.of(gap))), next, "each out-of-line operation for the replica to judge alone");
    assertEquals(3, feed.writing());
  }

  @Test
  void shouldSendWhatWaitsWhenFlushedDuringAWrite() {
    ReplicaFeed feed = new ReplicaFeed();
    feed.arrived(op(1, 1));
    feed.arrived(op(2, 1));
    assertEquals(1, feed.flush().size());
    assertEquals(2, feed.writing());
    assertEquals(0, feed.waiting());
    assertTrue(feed.answered().isEmpty());
    assertTrue(feed.answered().isEmpty());
  }

  @Test
  void shouldRefuseAnAnswerWhenNothingWasSent() {
    ReplicaFeed feed = new ReplicaFeed();
    IllegalStateException e = assertThrows(IllegalStateException.class, feed::answered);
    assertTrue(e.getMessage().contains("no batch"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> new ReplicaFeed.Batch(List.of()));
  }
}
