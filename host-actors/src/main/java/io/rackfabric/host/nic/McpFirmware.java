package io.rackfabric.host.nic;

import io.rackfabric.fabric.time.ModelClock;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A message interface's firmware, run like Myrinet's MCP (FTGM sections 3 and 4): send and
 * receive token queues per open port, one sequence-number stream per connection (GM) or per
 * (connection, port) pair (FTGM), Go-Back-N with ACK and NACK over the link, DMA of messages
 * between host memory and the card, and the interval-timer routine L_timer, which the loop calls
 * every {@link McpTiming#lTimerIntervalNs()} and which resets the spare {@link Watchdog}.
 *
 * <p>Model time: every entry point carries the model time of its event; the firmware's clock
 * {@code now} advances to it and by its own service time, and everything it issues carries
 * {@code now}. A hung firmware handles nothing (events are dropped, as the card's SRAM is cleared
 * on reset anyway) and stops calling L_timer; the watchdog, being hardware, still runs.
 *
 * <p>Faults: {@link #inject} arms one fault at a {@link FaultPoint}; it takes effect the next time
 * the loop executes that point.
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

  /** GM numbers a reloaded card's connections from a new base, so old and new numbers differ. */
  public static final long GM_EPOCH_STRIDE = 1_000_000;

  private static final class Port {
    boolean open;
    final ArrayDeque<SendToken> sends = new ArrayDeque<>();
    final ArrayDeque<ReceiveToken> receives = new ArrayDeque<>();
  }

  private record Pending(McpPacket packet, SendToken token) {}

  private static final class OutStream {
    final ArrayDeque<Pending> pending = new ArrayDeque<>();
    long nextSeq;
    /** GM: no ACK yet since the card was loaded; a NACK then tells where the receiver stands. */
    boolean fresh = true;
    long lastSentAt;
  }

  private static final class InStream {
    long expected;
    long committed;
    /** The expected number a NACK was sent for: one NACK per gap, or each resend burst would NACK again. */
    long nacked = Long.MIN_VALUE;

    InStream(long expected) {
      this.expected = expected;
      this.committed = expected - 1;
    }
  }

  private record SendJob(SendToken token) {}

  private record ReceiveJob(McpPacket packet, ReceiveToken token, StreamKey stream) {}

  private record Armed(FaultCategory category, FaultPoint point) {}

  private final String node;
  private final McpMode mode;
  private final McpTiming timing;
  private final ModelClock clock;
  private final Hardware hardware;
  private final Host host;
  private final Watchdog watchdog;

  private final Map<Integer, Port> ports = new TreeMap<>();
  private final Map<StreamKey, OutStream> out = new LinkedHashMap<>();
  private final Map<StreamKey, InStream> in = new HashMap<>();
  private final Map<Long, Object> dmas = new HashMap<>();
  private final Set<String> routes = new TreeSet<>();
  private final Set<Integer> pageHash = new TreeSet<>();
  private SendJob sendJob;
  private int nextPort;
  private long nextTag;
  private long now;
  private boolean loaded;
  private boolean hung;
  private boolean magicWord;
  private long epoch = -1;
  private long loadGeneration;
  private Armed armed;
  private FaultCategory packetFault;
  private long faultActivatedAt = -1;
  private FaultCategory activated;

  private long lTimerCalls;
  private long lastLTimerAt = -1;
  private long dropped;
  private long corruptDropped;
  private long duplicates;
  private long nacksSent;
  private long resends;
  private long noBuffer;
  private long unroutable;

  public McpFirmware(String node, McpMode mode, McpTiming timing, ModelClock clock, Hardware hardware, Host host) {
    this.node = node;
    this.mode = mode;
    this.timing = timing;
    this.clock = clock;
    this.hardware = hardware;
    this.host = host;
    this.watchdog = new Watchdog(clock, timing.watchdogNs(), at -> host.interrupt(Interrupt.WATCHDOG, at));
  }

  // ------------------------------------------------------------------ the driver and the FTD

  /** Card reset: the firmware stops, card memory is cleared, the watchdog's interrupt disabled. */
  public void reset(long at) {
    now = Math.max(now, at);
    loaded = false;
    hung = false;
    magicWord = false;
    armed = null;
    packetFault = null;
    loadGeneration++;
    watchdog.stop();
    clearState();
  }

  /** Loads the firmware and starts it: IT0 and IT1 run; no port is open, no table loaded. */
  public void reload(long at) {
    now = Math.max(now, at);
    loaded = true;
    epoch++;
    loadGeneration++;
    watchdog.start(now);
    scheduleLTimer(loadGeneration, now + timing.lTimerIntervalNs());
  }

  /** The page hash table (which ports' buffers the card may DMA) and the routing table. */
  public void restoreTables(Set<Integer> pagePorts, Set<String> routedNodes, long at) {
    now = Math.max(now, at);
    pageHash.addAll(pagePorts);
    routes.addAll(routedNodes);
  }

  /** The FTD's liveness check: a running loop clears the word at its next L_timer. */
  public void writeMagicWord(long at) {
    now = Math.max(now, at);
    magicWord = true;
  }

  public boolean magicWordCleared() {
    return !magicWord;
  }

  /** Opens (or reopens after a recovery) a port; false when its pages are not in the page hash. */
  public boolean openPort(int port, long at) {
    if (!loaded || hung || !pageHash.contains(port)) {
      return false;
    }
    now = Math.max(now, at);
    ports.computeIfAbsent(port, p -> new Port()).open = true;
    startSend();
    return true;
  }

  /** FTGM recovery: a send token from the host's copy back into its (still closed) port's queue. */
  public void restoreSend(SendToken token) {
    ports.computeIfAbsent(token.port(), p -> new Port()).sends.add(token);
  }

  /** FTGM recovery: a receive token from the host's copy. */
  public void restoreReceive(ReceiveToken token) {
    ports.computeIfAbsent(token.port(), p -> new Port()).receives.add(token);
  }

  /** FTGM recovery: the last sequence number the host saw acknowledged on a stream it receives. */
  public void restoreStream(StreamKey stream, long lastAcked) {
    in.put(stream, new InStream(lastAcked + 1));
  }

  // ------------------------------------------------------------------ the host library

  /** gm_send: a send token handed to the card. */
  public void postSend(SendToken token, long at) {
    Port p = openPortAt(token.port(), at);
    if (p != null) {
      p.sends.add(token);
      startSend();
    }
  }

  /** gm_provide_receive_buffer: a receive token handed to the card. */
  public void provideReceive(ReceiveToken token, long at) {
    Port p = openPortAt(token.port(), at);
    if (p != null) {
      p.receives.add(token);
    }
  }

  /** The open port a host request at {@code at} is for, or null (counted) when the card cannot take it. */
  private Port openPortAt(int port, long at) {
    if (!begin(at, 0)) {
      return null;
    }
    Port p = ports.get(port);
    if (p == null || !p.open) {
      dropped++;
      return null;
    }
    return p;
  }

  // ------------------------------------------------------------------ hardware events

  public void dmaCompleted(long tag, long at) {
    if (!begin(at, 0)) {
      return;
    }
    Object job = dmas.remove(tag);
    if (job instanceof SendJob s) {
      sendDmaDone(s.token());
    } else if (job instanceof ReceiveJob r) {
      receiveDmaDone(r);
    }
  }

  public void packetArrived(McpPacket p, long at) {
    if (!begin(at, timing.packetNs() + (mode == McpMode.FTGM ? timing.ftgmExtraNs() : 0))) {
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
      case DATA -> onData(p);
      case ACK -> {
        if (pass(FaultPoint.ACK_RECEIVED)) {
          onAck(p);
        }
      }
      case NACK -> onNack(p);
    }
  }

  /** Arms a fault: it takes effect the next time the loop executes {@code point}. */
  public void inject(FaultCategory category, FaultPoint point) {
    armed = new Armed(category, point);
  }

  // ------------------------------------------------------------------ send

  private void startSend() {
    if (sendJob != null || !loaded || hung) {
      return;
    }
    List<Integer> ids = List.copyOf(ports.keySet());
    for (int i = 0; i < ids.size(); i++) {
      int id = ids.get((nextPort + i) % ids.size());
      Port p = ports.get(id);
      if (p.open && !p.sends.isEmpty()) {
        nextPort = (ids.indexOf(id) + 1) % ids.size();
        SendToken token = p.sends.poll();
        sendJob = new SendJob(token);
        if (!pass(FaultPoint.TOKEN_TAKEN)) {
          return;
        }
        long tag = nextTag++;
        dmas.put(tag, sendJob);
        hardware.dma(tag, false, token.buffer(), token.length(), now);
        return;
      }
    }
  }

  private void sendDmaDone(SendToken token) {
    now += timing.packetNs() + (mode == McpMode.FTGM ? timing.ftgmExtraNs() : 0);
    if (!pass(FaultPoint.SEND_DMA_DONE)) {
      return;
    }
    StreamKey key = token.stream(mode);
    OutStream s = out.computeIfAbsent(key, k -> newOutStream());
    long seq = mode == McpMode.FTGM ? token.seq() : s.nextSeq++;
    McpPacket packet = new McpPacket(McpPacket.Kind.DATA, node, token.port(), token.remoteNode(),
        token.remotePort(), seq, token.payload(), token.length(), false, false);
    if (s.pending.isEmpty()) {
      s.lastSentAt = now;
    }
    transmitData(packet);
    if (!pass(FaultPoint.PACKET_SENT)) {
      return;
    }
    s.pending.add(new Pending(packet, token));
    sendJob = null;
    startSend();
  }

  private OutStream newOutStream() {
    OutStream s = new OutStream();
    s.nextSeq = epoch * GM_EPOCH_STRIDE;
    s.fresh = mode == McpMode.GM;
    return s;
  }

  private void transmitData(McpPacket packet) {
    McpPacket onWire = packet;
    if (packetFault == FaultCategory.MESSAGES_CORRUPTED) {
      onWire = packet.corrupt();
      packetFault = null;
    } else if (packetFault == FaultCategory.REMOTE_INTERFACE_HANG) {
      onWire = packet.poisoned();
      packetFault = null;
    }
    transmit(onWire);
  }

  private void transmit(McpPacket packet) {
    if (!routes.contains(packet.to())) {
      unroutable++;
      return;
    }
    hardware.transmit(packet, now);
  }

  private void onAck(McpPacket p) {
    OutStream s = out.get(p.streamAtReceiver(mode));
    if (s == null) {
      return;
    }
    s.fresh = false;
    s.lastSentAt = now;
    while (!s.pending.isEmpty() && s.pending.peek().packet().seq() <= p.seq()) {
      SendToken done = s.pending.poll().token();
      host.post(done.port(), new PortEvent.SendCompleted(done), now);
    }
  }

  private void onNack(McpPacket p) {
    OutStream s = out.get(p.streamAtReceiver(mode));
    if (s == null || s.pending.isEmpty()) {
      return;
    }
    long expected = p.seq();
    if (s.fresh) {
      // GM after a reload: the receiver says where the connection stands, and the card believes it
      ArrayDeque<Pending> renumbered = new ArrayDeque<>();
      long seq = expected;
      for (Pending q : s.pending) {
        renumbered.add(new Pending(q.packet().withSeq(seq++), q.token()));
      }
      s.pending.clear();
      s.pending.addAll(renumbered);
      s.nextSeq = seq;
      s.fresh = false;
    } else if (mode == McpMode.GM) {
      while (!s.pending.isEmpty() && s.pending.peek().packet().seq() < expected) {
        SendToken done = s.pending.poll().token(); // GM's receiver took them: they are delivered
        host.post(done.port(), new PortEvent.SendCompleted(done), now);
      }
    }
    resend(s, expected);
  }

  /** Go-Back-N: every unacknowledged packet from {@code from} on goes again, in order. */
  private void resend(OutStream s, long from) {
    for (Pending q : s.pending) {
      if (q.packet().seq() >= from) {
        resends++;
        transmitData(q.packet());
      }
    }
    s.lastSentAt = now;
  }

  // ------------------------------------------------------------------ receive

  private void onData(McpPacket p) {
    Port port = ports.get(p.toPort());
    if (port == null || !port.open) {
      dropped++;
      return;
    }
    StreamKey key = p.streamAtReceiver(mode);
    // GM learns a connection's numbers from its first packet; FTGM streams start at 0 or are restored
    InStream s = in.computeIfAbsent(key, k -> new InStream(mode == McpMode.GM ? p.seq() : 0));
    if (p.seq() < s.expected) {
      duplicates++;
      if (s.committed >= p.seq()) {
        sendControl(McpPacket.Kind.ACK, p, s.committed);
      }
      return;
    }
    if (p.seq() > s.expected) {
      if (s.nacked != s.expected) {
        s.nacked = s.expected;
        nacksSent++;
        sendControl(McpPacket.Kind.NACK, p, s.expected);
      }
      return;
    }
    ReceiveToken token = takeReceive(port, p.length());
    if (token == null) {
      noBuffer++; // no buffer: the sender's Go-Back-N resends later
      return;
    }
    s.expected++;
    if (mode == McpMode.GM) {
      s.committed = p.seq();
      sendControl(McpPacket.Kind.ACK, p, p.seq()); // GM ACKs on receipt
    }
    if (!pass(FaultPoint.RECEIVE_DMA_STARTED)) {
      return;
    }
    long tag = nextTag++;
    dmas.put(tag, new ReceiveJob(p, token, key));
    hardware.dma(tag, true, token.buffer(), p.length(), now);
  }

  private static ReceiveToken takeReceive(Port port, int length) {
    Iterator<ReceiveToken> it = port.receives.iterator();
    while (it.hasNext()) {
      ReceiveToken t = it.next();
      if (t.size() >= length) {
        it.remove();
        return t;
      }
    }
    return null;
  }

  private void receiveDmaDone(ReceiveJob r) {
    McpPacket p = r.packet();
    if (mode == McpMode.FTGM) {
      InStream s = in.get(r.stream());
      if (s != null) {
        s.committed = Math.max(s.committed, p.seq());
      }
      sendControl(McpPacket.Kind.ACK, p, p.seq()); // the commit point: the message is in its buffer
    }
    host.post(r.token().port(), new PortEvent.MessageReceived(r.token(), r.stream(), p.seq(), p.payload(),
        p.length()), now);
  }

  private void sendControl(McpPacket.Kind kind, McpPacket data, long seq) {
    transmit(new McpPacket(kind, node, data.toPort(), data.from(), data.fromPort(), seq, 0, 0, false, false));
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

  private void scheduleLTimer(long generation, long at) {
    clock.schedule(Math.max(0, at - clock.now()), () -> lTimer(generation, at));
  }

  private void lTimer(long generation, long at) {
    if (generation != loadGeneration || !loaded || hung) {
      return; // a hung loop no longer dispatches the timer routine
    }
    now = Math.max(now, at) + timing.lTimerNs();
    lTimerCalls++;
    lastLTimerAt = now;
    watchdog.reset(now);
    magicWord = false;
    for (OutStream s : out.values()) {
      if (!s.pending.isEmpty() && now - s.lastSentAt >= timing.resendTimeoutNs()) {
        resend(s, Long.MIN_VALUE);
      }
    }
    scheduleLTimer(generation, now + timing.lTimerIntervalNs());
  }

  /** Executes a fault point; false when the loop stopped there. */
  private boolean pass(FaultPoint point) {
    if (armed == null || armed.point() != point) {
      return true;
    }
    FaultCategory c = armed.category();
    armed = null;
    activated = c;
    faultActivatedAt = now;
    switch (c) {
      case INTERFACE_HANG -> hang();
      case MESSAGES_CORRUPTED, REMOTE_INTERFACE_HANG -> packetFault = c;
      case MCP_RESTART -> restart();
      case NO_IMPACT -> { }
    }
    return loaded && !hung && c != FaultCategory.MCP_RESTART;
  }

  private void hang() {
    hung = true;
    if (faultActivatedAt < 0 || activated == null) {
      faultActivatedAt = now;
    }
  }

  /** The firmware starts over by itself: its tables and state are gone, and it tells the host. */
  private void restart() {
    clearState();
    epoch++;
    host.interrupt(Interrupt.RESTARTED, now);
  }

  private void clearState() {
    ports.clear();
    out.clear();
    in.clear();
    dmas.clear();
    routes.clear();
    pageHash.clear();
    sendJob = null;
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
    return watchdog;
  }

  public long lTimerCalls() {
    return lTimerCalls;
  }

  /** Model time of the last L_timer call, -1 before the first. */
  public long lastLTimerAt() {
    return lastLTimerAt;
  }

  /** When the armed fault took effect (or a poisoned packet hung the card), -1 if none did. */
  public long faultActivatedAt() {
    return faultActivatedAt;
  }

  public boolean faultPending() {
    return armed != null;
  }

  public Set<Integer> openPorts() {
    Set<Integer> open = new TreeSet<>();
    ports.forEach((id, p) -> {
      if (p.open) {
        open.add(id);
      }
    });
    return open;
  }

  /** Sent and not yet acknowledged, over all streams. */
  public int unacknowledged() {
    return out.values().stream().mapToInt(s -> s.pending.size()).sum();
  }

  public long resends() {
    return resends;
  }

  public long corruptDropped() {
    return corruptDropped;
  }

  public long duplicatesIgnored() {
    return duplicates;
  }

  public long nacksSent() {
    return nacksSent;
  }

  /** Events the firmware could not take: it was hung or unloaded, or the port was closed. */
  public long dropped() {
    return dropped;
  }

  public long noBuffer() {
    return noBuffer;
  }

  public long unroutable() {
    return unroutable;
  }
}
