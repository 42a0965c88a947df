package io.rackfabric.host.ftgm;

import io.rackfabric.host.nic.McpMode;
import io.rackfabric.host.nic.ReceiveToken;
import io.rackfabric.host.nic.SendToken;
import io.rackfabric.host.nic.StreamKey;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What one FTGM process keeps of its port's card state (FTGM section 4.1): a copy of every send token
 * until its callback, a copy of every receive token until its message arrived, the next sequence
 * number of every stream it sends on (generated here, not on the card), and the last acknowledged
 * sequence number of every stream it receives on.
 */
public final class HostCopies {

  private record SendKey(StreamKey stream, long seq) {}

  private final int port;
  private final Map<StreamKey, Long> nextSeq = new HashMap<>();
  private final Map<StreamKey, Long> lastAcked = new TreeMap<>((a, b) -> a.toString().compareTo(b.toString()));
  private final Map<SendKey, SendToken> sends = new LinkedHashMap<>();
  private final Map<Long, ReceiveToken> receives = new LinkedHashMap<>();

  public HostCopies(int port) {
    this.port = port;
  }

  /** gm_send: numbers the token on its (remote node, port) stream and keeps a copy. */
  public SendToken send(SendToken token) {
    if (token.port() != port) {
      throw new IllegalArgumentException("token.port=" + token.port() + " is not this port " + port);
    }
    StreamKey stream = token.stream(McpMode.FTGM);
    long seq = nextSeq.merge(stream, 1L, Long::sum) - 1;
    SendToken numbered = token.withSeq(seq);
    sends.put(new SendKey(stream, seq), numbered);
    return numbered;
  }

  /** Just before the callback: the card is done with the token. */
  public void sendCompleted(SendToken token) {
    sends.remove(new SendKey(token.stream(McpMode.FTGM), token.seq()));
  }

  /** gm_provide_receive_buffer. */
  public void receiveProvided(ReceiveToken token) {
    receives.put(token.buffer(), token);
  }

  /** A message reached {@code token}'s buffer and the card ACKed {@code seq} on {@code stream}. */
  public void received(ReceiveToken token, StreamKey stream, long seq) {
    receives.remove(token.buffer());
    lastAcked.merge(stream, seq, Math::max);
  }

  /** Send tokens the card still holds, in the order they were sent. */
  public List<SendToken> sendTokens() {
    return List.copyOf(sends.values());
  }

  public List<ReceiveToken> receiveTokens() {
    return List.copyOf(receives.values());
  }

  public Map<StreamKey, Long> lastAcked() {
    return Map.copyOf(lastAcked);
  }

  /** The sequence number the next send on {@code stream} gets. */
  public long nextSeq(StreamKey stream) {
    return nextSeq.getOrDefault(stream, 0L);
  }
}
