package io.rackfabric.host.ftgm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.rackfabric.host.nic.McpMode;
import io.rackfabric.host.nic.ReceiveToken;
import io.rackfabric.host.nic.SendToken;
import io.rackfabric.host.nic.StreamKey;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HostCopiesTest {

  static SendToken token(String node, int remotePort, long payload) {
    return new SendToken(1, node, remotePort, -1, payload, 64, 0x1000 + payload * 64);
  }

  @Test
  void shouldNumberEachRemoteNodeAndPortStreamFromZeroWhenSending() {
    HostCopies c = new HostCopies(1);
    assertEquals(0, c.send(token("a", 0, 1)).seq());
    assertEquals(1, c.send(token("a", 0, 2)).seq());
    assertEquals(0, c.send(token("b", 0, 3)).seq());
    assertEquals(0, c.send(token("a", 3, 4)).seq());
    assertEquals(2, c.nextSeq(StreamKey.of(McpMode.FTGM, "a", 1, 0)));
  }

  @Test
  void shouldKeepASendTokenUntilItsCallbackWhenSending() {
    HostCopies c = new HostCopies(1);
    SendToken first = c.send(token("a", 0, 1));
    SendToken second = c.send(token("a", 0, 2));
    assertEquals(List.of(first, second), c.sendTokens());
    c.sendCompleted(first);
    assertEquals(List.of(second), c.sendTokens());
  }

  @Test
  void shouldDropAReceiveTokenAndKeepTheAckNumberWhenAMessageArrives() {
    HostCopies c = new HostCopies(2);
    ReceiveToken t1 = new ReceiveToken(2, 0x8000, 64);
    ReceiveToken t2 = new ReceiveToken(2, 0x9000, 64);
    c.receiveProvided(t1);
    c.receiveProvided(t2);
    StreamKey s = StreamKey.of(McpMode.FTGM, "remote", 2, 0);
    c.received(t1, s, 7);
    assertEquals(List.of(t2), c.receiveTokens());
    assertEquals(Map.of(s, 7L), c.lastAcked());
    c.received(t2, s, 6); // never backwards
    assertEquals(Map.of(s, 7L), c.lastAcked());
  }

  @Test
  void shouldRefuseATokenOfAnotherPortWhenSending() {
    HostCopies c = new HostCopies(3);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> c.send(token("a", 0, 1)));
    assertEquals("token.port=1 is not this port 3", e.getMessage());
  }
}
