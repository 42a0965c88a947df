package io.rackfabric.host.nic;

import io.rackfabric.fabric.time.ModelClock;
import java.util.Set;

/**
 * A message interface's firmware, run like Myrinet's MCP (FTGM sections 3 and 4): send and
 * receive token queues per open port ({@link PortQueues}), one sequence-number stream per
 * connection (GM) or per (connection, port) pair (FTGM), Go-Back-N with ACK and NACK over the link
 * ({@link GoBackNSender}, {@link GoBackNReceiver}, {@link Transmitter}), DMA of messages between
 * host memory and the card, and the interval-timer routine L_timer, which the loop calls every
 * {@link McpTiming#lTimerIntervalNs()} and which resets the spare {@link Watchdog} ({@link
 * IntervalTimers}). This class is the loop: it dispatches each event among those parts.
 *
 * <p>Model time: every entry point carries the model time of its event; the firmware's clock
 * {@code now} advances to it and by its own service time, and everything it issues carries
 * {@code now}. A hung firmware handles nothing (events are dropped, as the card's SRAM is cleared
 * on reset anyway) and stops calling L_timer; the watchdog, being hardware, still runs.
 *
 * <p>Faults: {@link #inject} arms one fault at a {@link FaultPoint} ({@link InjectedFault}); it
 * takes effect the next time the loop executes that point.
 */
public final class McpFirmware {

  /** The card's DMA engine and its packet interface. */
  public interface Hardware {
    /**
     * Starts a DMA at model time {@code at}: host to card ({@code toHost} false) or card to host.
     * The firmware learns of its end through {@link #dmaCompleted}.
     */
    void dma(long tag, boolean toHost, long hostAddress, int length, long at);

    /** A packet onto the link at model time {@code at}. */
    void transmit(McpPacket packet, long at);
  }

  /** The card's owning host: port receive queues (in host memory) and the interrupt line. */
  public interface Host {
    void post(int port, PortEvent event, long at);

    void interrupt(Interrupt cause, long at);
  }

  public enum Interrupt {
    /** The spare interval timer ran out: L_timer stopped being called. */
    WATCHDOG,
    /** The firmware restarted itself and lost its state. */
    RESTARTED
  }

  private final String node;
  private final McpMode mode;
  private final McpTiming timing;
  private final Host host;
  private final IntervalTimers timers;
  private final PortQueues ports = new PortQueues();
  private final InjectedFault fault = new InjectedFault();
  private final Transmitter link;
  private final GoBackNSender sender;
  private final GoBackNReceiver receiver;
  private final ReceivePath receive;
  private final HostDma dma;
  private long now;
  private boolean loaded;
  private boolean hung;

  private long dropped;
  private long corruptDropped;

  public McpFirmware(String node, McpMode mode, McpTiming timing, ModelClock clock, Hardware hardware, Host host) {
    this.node = node;
    this.mode = mode;
    this.timing = timing;
    this.host = host;
    this.dma = new HostDma(hardware);
    this.timers = new IntervalTimers(clock, timing, at -> host.interrupt(Interrupt.WATCHDOG, at), this::lTimer);
    this.link = new Transmitter(node, hardware, fault);
    this.sender = new GoBackNSender(mode, packet -> link.data(packet, now),
        token -> host.post(token.port(), new PortEvent.SendCompleted(token), now));
    this.receiver = new GoBackNReceiver(mode, (kind, data, seq) -> link.control(kind, data, seq, now));
    this.receive = new ReceivePath(mode, ports, receiver, dma, host);
  }

  // ------------------------------------------------------------------ the driver and the FTD

  /** Card reset: the firmware stops, card memory is cleared, the watchdog's interrupt disabled. */
  public void reset(long at) {
    now = Math.max(now, at);
    loaded = false;
    hung = false;
    fault.disarm();
    timers.stop();
    clearState();
  }

  /** Loads the firmware and starts it: IT0 and IT1 run; no port is open, no table loaded. */
  public void reload(long at) {
    now = Math.max(now, at);
    loaded = true;
    sender.nextEpoch();
    timers.start(now);
  }

  /** The page hash table (which ports' buffers the card may DMA) and the routing table. */
  public void restoreTables(Set<Integer> pagePorts, Set<String> routedNodes, long at) {
    now = Math.max(now, at);
    ports.addPages(pagePorts);
    link.addRoutes(routedNodes);
  }

  /** The FTD's liveness check: a running loop clears the word at its next L_timer. */
  public void writeMagicWord(long at) {
    now = Math.max(now, at);
    timers.writeMagicWord();
  }

  public boolean magicWordCleared() {
    return timers.magicWordCleared();
  }

  /** Opens (or reopens after a recovery) a port; false when its pages are not in the page hash. */
  public boolean openPort(int port, long at) {
    if (!loaded || hung || !ports.open(port)) {
      return false;
    }
    now = Math.max(now, at);
    startSend();
    return true;
  }

  /** FTGM recovery: a send token from the host's copy back into its (still closed) port's queue. */
  public void restoreSend(SendToken token) {
    ports.addSend(token);
  }

  /** FTGM recovery: a receive token from the host's copy. */
  public void restoreReceive(ReceiveToken token) {
    ports.addReceive(token);
  }

  /** FTGM recovery: the last sequence number the host saw acknowledged on a stream it receives. */
  public void restoreStream(StreamKey stream, long lastAcked) {
    receiver.restore(stream, lastAcked);
  }

  // ------------------------------------------------------------------ the host library

  /** gm_send: a send token handed to the card. */
  public void postSend(SendToken token, long at) {
    if (takes(token.port(), at)) {
      ports.addSend(token);
      startSend();
    }
  }

  /** gm_provide_receive_buffer: a receive token handed to the card. */
  public void provideReceive(ReceiveToken token, long at) {
    if (takes(token.port(), at)) {
      ports.addReceive(token);
    }
  }

  /** Whether the card can take a host request at {@code at} for {@code port}; one it cannot is counted. */
  private boolean takes(int port, long at) {
    if (!begin(at, 0)) {
      return false;
    }
    if (!ports.isOpen(port)) {
      dropped++;
      return false;
    }
    return true;
  }

  // ------------------------------------------------------------------ hardware events

  public void dmaCompleted(long tag, long at) {
    if (!begin(at, 0)) {
      return;
    }
    Object job = dma.finish(tag);
    if (job instanceof SendToken s) {
      sendDmaDone(s);
    } else if (job instanceof HostDma.Receive r) {
      receive.delivered(r, now);
    }
  }

  public void packetArrived(McpPacket p, long at) {
    if (!begin(at, timing.packetNs(mode))) {
      return;
    }
    if (p.poison()) {
      hang(); // the fault travelled with the packet
      return;
    }
    if (p.corrupted()) {
      corruptDropped++; // CRC error: Go-Back-N will resend it
      return;
    }
    switch (p.kind()) {
      case DATA -> {
        if (!receive.data(p, now, this::pass)) {
          dropped++; // its port is closed
        }
      }
      case ACK -> {
        if (pass(FaultPoint.ACK_RECEIVED)) {
          sender.acked(p.streamAtReceiver(mode), p.seq(), now);
        }
      }
      case NACK -> sender.nacked(p.streamAtReceiver(mode), p.seq(), now);
    }
  }

  /** Arms a fault: it takes effect the next time the loop executes {@code point}. */
  public void inject(FaultCategory category, FaultPoint point) {
    fault.arm(category, point);
  }

  // ------------------------------------------------------------------ send

  private void startSend() {
    if (dma.sending() || !loaded || hung) {
      return;
    }
    SendToken token = ports.nextSend();
    if (token == null) {
      return;
    }
    dma.take(token);
    if (!pass(FaultPoint.TOKEN_TAKEN)) {
      return;
    }
    dma.startSend(now);
  }

  private void sendDmaDone(SendToken token) {
    now += timing.packetNs(mode);
    if (!pass(FaultPoint.SEND_DMA_DONE)) {
      return;
    }
    McpPacket packet = sender.number(token, node, now);
    link.data(packet, now);
    if (!pass(FaultPoint.PACKET_SENT)) {
      return;
    }
    sender.sent(packet, token);
    dma.sent();
    startSend();
  }

  // ------------------------------------------------------------------ the loop, L_timer, faults

  /** An event comes in at {@code at} and costs {@code serviceNs}; false when the loop cannot take it. */
  private boolean begin(long at, long serviceNs) {
    if (!loaded || hung) {
      dropped++;
      return false;
    }
    now = Math.max(now, at) + serviceNs;
    return true;
  }

  /** L_timer, due at {@code at}: when it ended, or -1 when the loop does not run it. */
  private long lTimer(long at) {
    if (!loaded || hung) {
      return -1; // a hung loop no longer dispatches the timer routine
    }
    now = Math.max(now, at) + timing.lTimerNs();
    sender.resendOverdue(now, timing.resendTimeoutNs());
    return now;
  }

  /** Executes a fault point; false when the loop stopped there. */
  private boolean pass(FaultPoint point) {
    FaultCategory c = fault.fire(point, now);
    if (c == null) {
      return true;
    }
    switch (c) {
      case INTERFACE_HANG -> hang();
      case MCP_RESTART -> restart();
      case MESSAGES_CORRUPTED, REMOTE_INTERFACE_HANG, NO_IMPACT -> { } // the packet carries it, or nothing
    }
    return loaded && !hung && c != FaultCategory.MCP_RESTART;
  }

  private void hang() {
    hung = true;
    fault.hung(now);
  }

  /** The firmware starts over by itself: its tables and state are gone, and it tells the host. */
  private void restart() {
    clearState();
    sender.nextEpoch();
    host.interrupt(Interrupt.RESTARTED, now);
  }

  private void clearState() {
    ports.clear();
    sender.clear();
    receiver.clear();
    link.clear();
    dma.clear();
  }

  // ------------------------------------------------------------------ observation

  public String node() {
    return node;
  }

  public McpMode mode() {
    return mode;
  }

  public long now() {
    return now;
  }

  public boolean hung() {
    return hung;
  }

  public boolean loaded() {
    return loaded;
  }

  public Watchdog watchdog() {
    return timers.watchdog();
  }

  public long lTimerCalls() {
    return timers.calls();
  }

  /** Model time of the last L_timer call, -1 before the first. */
  public long lastLTimerAt() {
    return timers.lastCallAt();
  }

  /** When the armed fault took effect (or a poisoned packet hung the card), -1 if none did. */
  public long faultActivatedAt() {
    return fault.activatedAt();
  }

  public boolean faultPending() {
    return fault.pending();
  }

  public Set<Integer> openPorts() {
    return ports.openPorts();
  }

  /** Sent and not yet acknowledged, over all streams. */
  public int unacknowledged() {
    return sender.unacknowledged();
  }

  public long resends() {
    return sender.resends();
  }

  public long corruptDropped() {
    return corruptDropped;
  }

  public long nacksSent() {
    return receiver.nacksSent();
  }

  /** Events the firmware could not take: it was hung or unloaded, or the port was closed. */
  public long dropped() {
    return dropped;
  }

  public long unroutable() {
    return link.unroutable();
  }
}
