package io.rackfabric.host.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PortQueuesTest {

  static SendToken send(int port, long payload) {
    return new SendToken(port, "remote", port, -1, payload, 64, 0x1000);
  }

  @Test
  void shouldOpenOnlyPortsWhosePagesAreInThePageHash() {
    PortQueues q = new PortQueues();
    q.addPages(Set.of(1));
    assertFalse(q.open(0));
    assertTrue(q.open(1));
    assertEquals(Set.of(1), q.openPorts());
    assertFalse(q.isOpen(0));
    assertTrue(q.isOpen(1));
  }

  @Test
  void shouldServeOpenPortsInTurnWhenSeveralHaveSendsQueued() {
    PortQueues q = new PortQueues();
    q.addPages(Set.of(0, 1, 2));
    q.open(0);
    q.open(1);
    for (int k = 0; k < 3; k++) {
      q.addSend(send(0, k));
      q.addSend(send(1, 10 + k));
    }
    q.addSend(send(2, 99)); // port 2 is not open: its token waits
    List<Long> order = new ArrayList<>();
    for (SendToken t = q.nextSend(); t != null; t = q.nextSend()) {
      order.add(t.payload());
    }
    assertEquals(List.of(0L, 10L, 1L, 11L, 2L, 12L), order);
    q.open(2);
    assertEquals(99, q.nextSend().payload());
  }

  @Test
  void shouldTakeTheFirstReceiveBufferBigEnoughWhenSmallerOnesComeFirst() {
    PortQueues q = new PortQueues();
    q.addReceive(new ReceiveToken(0, 0xA000, 32));
    q.addReceive(new ReceiveToken(0, 0xB000, 128));
    q.addReceive(new ReceiveToken(0, 0xC000, 256));
    assertEquals(0xB000, q.takeReceive(0, 100).buffer());
    assertEquals(0xC000, q.takeReceive(0, 100).buffer());
    assertNull(q.takeReceive(0, 100));
    assertEquals(0xA000, q.takeReceive(0, 32).buffer());
    assertNull(q.takeReceive(7, 1), "no such port");
  }

  @Test
  void shouldForgetPortsTokensAndPagesWhenCleared() {
    PortQueues q = new PortQueues();
    q.addPages(Set.of(0));
    q.open(0);
    q.addSend(send(0, 1));
    q.clear();
    assertEquals(Set.of(), q.openPorts());
    assertNull(q.nextSend());
    assertFalse(q.open(0), "the page hash went too");
  }
}
