package io.rackfabric.host.ftgm;

import io.rackfabric.host.nic.ReceiveToken;
import io.rackfabric.host.nic.SendToken;
import java.util.ArrayDeque;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * A steady-traffic application on one port: it sends its flow's messages to one peer port as send
 * tokens allow, keeps its receive buffers provided, and, told of a reset port (GM), does what a GM
 * application can: sends again every message whose callback it did not get, and provides its
 * buffers anew.
 */
final class TrafficPort implements PortLibrary.Application {

  private static final long BUFFER_STRIDE = 4096;

  private final PortLibrary library;
  private final DeliveryLog log;
  private final int flow;
  private final String peer;
  private final int peerPort;
  private final FtgmSettings settings;
  private final long sendBase;
  private final long receiveBase;
  private final ArrayDeque<Long> backlog = new ArrayDeque<>();
  private final Set<Long> unconfirmed = new LinkedHashSet<>();
  private int tokens;
  private long next;

  TrafficPort(PortLibrary library, DeliveryLog log, int flow, String peer, int peerPort, FtgmSettings settings) {
    this.library = library;
    this.log = log;
    this.flow = flow;
    this.peer = peer;
    this.peerPort = peerPort;
    this.settings = settings;
    this.tokens = settings.sendTokens();
    this.sendBase = 0x1000_0000L + (long) library.port() * 0x10_0000L;
    this.receiveBase = sendBase + 0x8_0000L;
  }

  void start(long at) {
    for (int i = 0; i < settings.receiveTokens(); i++) {
      library.provideReceiveBuffer(receiveBase + i * BUFFER_STRIDE, settings.messageBytes(), at);
    }
  }

  /** The application has its next message to send at {@code at}. */
  void submit(long at) {
    long payload = DeliveryLog.payload(flow, next++);
    log.submitted(payload, at);
    backlog.add(payload);
    pump(at);
  }

  private void pump(long at) {
    long t = at;
    while (tokens > 0 && !backlog.isEmpty()) {
      long payload = backlog.poll();
      tokens--;
      unconfirmed.add(payload);
      long buffer = sendBase + (payload & 0xFFFF_FFFFL) % settings.sendTokens() * BUFFER_STRIDE;
      t = library.send(peer, peerPort, payload, settings.messageBytes(), buffer, t);
    }
  }

  @Override
  public void sendCompleted(SendToken token, long at) {
    if (unconfirmed.remove(token.payload())) {
      tokens++;
      log.confirmed(token.payload());
    }
    pump(at);
  }

  @Override
  public void received(long payload, ReceiveToken token, long at) {
    log.delivered(payload, at);
    library.provideReceiveBuffer(token.buffer(), token.size(), at);
  }

  @Override
  public void portReset(long at) {
    ArrayDeque<Long> again = new ArrayDeque<>(unconfirmed);
    again.addAll(backlog);
    backlog.clear();
    backlog.addAll(again);
    unconfirmed.clear();
    tokens = settings.sendTokens();
    start(at);
    pump(at);
  }
}
