package io.rackfabric.host.ftgm;

import io.rackfabric.fabric.time.ModelClock;
import io.rackfabric.host.nic.McpFirmware;
import io.rackfabric.host.nic.McpMode;
import io.rackfabric.host.nic.PortEvent;
import io.rackfabric.host.nic.ReceiveToken;
import io.rackfabric.host.nic.SendToken;
import io.rackfabric.host.nic.StreamKey;
import java.util.List;
import java.util.Map;
import java.util.function.LongConsumer;

/**
 * The message library of one process owning one port of a card (a CH owning a VF, the MH owning
 * the PF, or the server outside the rack). Under FTGM it keeps the {@link HostCopies} and its
 * FAULT_DETECTED handler restores the card from them (FTGM section 4.4); under GM it keeps nothing,
 * and after a reload it can only tell the application that its port was reset.
 *
 * <p>Model time: each call is stamped with the process's CPU clock; its host cost (Table 2) is
 * paid before the token reaches the card or the application sees a message.
 */
public final class PortLibrary implements FaultToleranceDaemon.Port {

  /** The application on top of the port. */
  public interface Application {
    void sendCompleted(SendToken token, long at);

    void received(long payload, ReceiveToken token, long at);

    /** GM: the card was reloaded; its sends without callback and its buffers are gone. */
    void portReset(long at);
  }

  private final String host;
  private final int port;
  private final McpMode mode;
  private final FtgmSettings settings;
  private final McpFirmware card;
  private final ModelClock clock;
  private final RecoveryLane lane;
  private final HostCopies copies;
  private Application application;
  private LongConsumer onRecovered = at -> { };
  private long cpuFreeAt;
  private long sendCpuNs;
  private long receiveCpuNs;
  private long sends;
  private long receives;

  public PortLibrary(String host, int port, FtgmSettings settings, McpFirmware card, ModelClock clock,
      RecoveryLane lane) {
    this.host = host;
    this.port = port;
    this.mode = card.mode();
    this.settings = settings;
    this.card = card;
    this.clock = clock;
    this.lane = lane;
    this.copies = new HostCopies(port);
  }

  public void attach(Application app, LongConsumer recovered) {
    this.application = app;
    this.onRecovered = recovered;
  }

  /** gm_send at {@code at}; returns when the call returned (the process's CPU is free again). */
  public long send(String remoteNode, int remotePort, long payload, int length, long buffer, long at) {
    long cost = settings.hostSendNs() + (mode == McpMode.FTGM ? settings.sendCopyNs() : 0);
    long done = Math.max(at, cpuFreeAt) + cost;
    cpuFreeAt = done;
    sendCpuNs += cost;
    sends++;
    SendToken token = new SendToken(port, remoteNode, remotePort, -1, payload, length, buffer);
    SendToken posted = mode == McpMode.FTGM ? copies.send(token) : token;
    card.postSend(posted, done);
    return done;
  }

  /** gm_provide_receive_buffer at {@code at}. */
  public void provideReceiveBuffer(long buffer, int size, long at) {
    ReceiveToken token = new ReceiveToken(port, buffer, size);
    if (mode == McpMode.FTGM) {
      copies.receiveProvided(token);
    }
    card.provideReceive(token, Math.max(at, cpuFreeAt));
  }

  /** An event from the port's receive queue, handled at {@code at}. */
  public void deliver(PortEvent event, long at) {
    if (event instanceof PortEvent.SendCompleted s) {
      if (mode == McpMode.FTGM) {
        copies.sendCompleted(s.token());
      }
      application.sendCompleted(s.token(), Math.max(at, cpuFreeAt));
    } else if (event instanceof PortEvent.MessageReceived r) {
      long cost = settings.hostReceiveNs() + (mode == McpMode.FTGM ? settings.receiveCopyNs() : 0);
      long done = Math.max(at, cpuFreeAt) + cost;
      cpuFreeAt = done;
      receiveCpuNs += cost;
      receives++;
      if (mode == McpMode.FTGM) {
        copies.received(r.token(), r.stream(), r.seq());
      }
      application.received(r.payload(), r.token(), done);
    } else if (event instanceof PortEvent.FaultDetected) {
      faultDetected(at);
    }
  }

  /**
   * The FAULT_DETECTED handler: restores the card's send and receive token queues from the copies
   * and the last sequence number of every stream received on, then reopens the port. The handler
   * takes its time through the driver's {@link RecoveryLane}.
   */
  private void faultDetected(long at) {
    List<SendToken> sendTokens = mode == McpMode.FTGM ? copies.sendTokens() : List.of();
    List<ReceiveToken> receiveTokens = mode == McpMode.FTGM ? copies.receiveTokens() : List.of();
    Map<StreamKey, Long> acked = mode == McpMode.FTGM ? copies.lastAcked() : Map.of();
    long duration = settings.portHandlerNs()
        + (long) (sendTokens.size() + receiveTokens.size() + acked.size()) * settings.tokenRestoreNs();
    long end = lane.reserve(at, duration);
    clock.schedule(Math.max(0, end - clock.now()), () -> {
      sendTokens.forEach(card::restoreSend);
      receiveTokens.forEach(card::restoreReceive);
      acked.forEach(card::restoreStream);
      card.openPort(port, end);
      cpuFreeAt = Math.max(cpuFreeAt, end);
      if (mode == McpMode.GM) {
        application.portReset(end);
      }
      onRecovered.accept(end);
    });
  }

  public String host() {
    return host;
  }

  public int port() {
    return port;
  }

  public HostCopies copies() {
    return copies;
  }

  public long sendCpuNs() {
    return sendCpuNs;
  }

  public long receiveCpuNs() {
    return receiveCpuNs;
  }

  public long sends() {
    return sends;
  }

  public long receives() {
    return receives;
  }
}
