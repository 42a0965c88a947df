package io.rackfabric.host.nic;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The NIC's transmit firmware: an event-driven loop like Myrinet's MCP (seeds/002 section 4.2).
 * Register writes and DMA results are queued as events; each dispatch cycle handles one event, or,
 * when there is none and the DMA engine is idle, starts the next descriptor (VFs round robin).
 * A descriptor is two DMA reads (the descriptor, then the frame's buffer), then the frame goes to
 * the MAC and the head is written back to the host.
 *
 * <p>Model time: the firmware's clock {@code now} advances to each event's model time and by its
 * own service times; every DMA and frame carries the clock at which it was issued. {@link
 * #cycles()} and {@link #lastCycleAt()} are what a watchdog observes: the loop is alive while they
 * move.
 *
 * <p>Ownership: PF registers accept writes from the PF's owner only; a VF's registers from the
 * requesters its VF_OWNER registers match, while it is enabled. Everything else is ignored and
 * counted, never thrown.
 */
public final class NicFirmware {

  /** What the firmware drives: the NIC's DMA engine on its PCIe endpoint, and its MAC. */
  public interface Hardware {
    /** Starts a DMA read at model time {@code at}; the result comes back via {@link #dmaCompleted}. */
    void dmaRead(long address, int length, long at);

    /** A posted DMA write at model time {@code at}. */
    void dmaWrite(long address, byte[] data, long at);

    /** A frame from VF {@code vf} on the wire, as the link model scheduled it. */
    void transmit(int vf, byte[] frame, EthernetLink.Transmission tx);
  }

  private sealed interface Event permits RegisterWritten, DmaCompleted {}

  private record RegisterWritten(long address, byte[] data, int requester, long arrivedAt) implements Event {}

  private record DmaCompleted(long address, boolean ok, byte[] data, long latencyNs) implements Event {}

  private enum Phase { DESCRIPTOR, BUFFER }

  /** The descriptor in flight: which read it waits for, and when that read was issued. */
  private record Job(int vf, int generation, Phase phase, long address, int length, long issuedAt) {}

  private final RegisterMap map;
  private final int pfOwner;
  private final NicSettings settings;
  private final Hardware hardware;
  private final EthernetLink wire;
  private final TxQueue[] queues;
  private final List<Event> events = new ArrayList<>(); // few: the loop drains them as they come
  private Job job;
  private boolean running;
  private int nextVf;
  private long now;
  private long cycles;
  private long lastCycleAt;
  private long foreignPfWrites;
  private long malformedWrites;
  private long otherRegisterWrites;
  private long strayDma;

  /**
   * @param pfOwner the requester ID whose writes the PF registers accept (the MH, root of the
   *     NIC's domain)
   */
  public NicFirmware(RegisterMap map, int pfOwner, NicSettings settings, Hardware hardware) {
    this.map = map;
    this.pfOwner = pfOwner;
    this.settings = settings;
    this.hardware = hardware;
    this.wire = new EthernetLink(settings.linkRateBitsPerSecond(), settings.propagationNs());
    this.queues = new TxQueue[map.vfCount()];
    for (int i = 0; i < queues.length; i++) {
      queues[i] = new TxQueue(i);
    }
  }

  /** A posted write landed in one of the NIC's register BARs at model time {@code arrivedAt}. */
  public void registerWritten(long address, byte[] data, int requester, long arrivedAt) {
    events.add(new RegisterWritten(address, data, requester, arrivedAt));
    run();
  }

  /**
   * A DMA read finished: {@code ok} with its data, {@code latencyNs} after it was issued (the
   * firmware knows when it issued it).
   */
  public void dmaCompleted(long address, boolean ok, byte[] data, long latencyNs) {
    events.add(new DmaCompleted(address, ok, data, latencyNs));
    run();
  }

  private void run() {
    if (running) {
      return; // hardware that answers synchronously calls back in here: the loop picks it up
    }
    running = true;
    try {
      dispatch();
    } finally {
      running = false;
    }
  }

  /**
   * One cycle at a time, in model-time order: the earliest event if it is due by the firmware's
   * clock (a DMA result always is: it belongs to the job in flight), else the next descriptor, and
   * only when idle a register write from the model future. A write stamped after the clock waits while a DMA is
   * out, since the DMA's result may be due before it; otherwise another VF's later doorbell would
   * pull the clock past this VF's packet.
   */
  private void dispatch() {
    while (true) {
      Event e = earliest();
      // With a DMA result queued, the earliest event is no later than it: due, whatever its stamp.
      boolean due = e != null && (dueAt(e) <= now || events.stream().anyMatch(DmaCompleted.class::isInstance));
      if (due) {
        handle(e);
      } else if (!startDescriptor()) {
        if (e == null || job != null) {
          return;
        }
        handle(e); // idle: the clock moves on to the write
      }
      cycles++;
      lastCycleAt = now;
    }
  }

  /** The queued event due first by model time (FIFO on ties); a stray DMA result is due at once. */
  private Event earliest() {
    Event best = null;
    long bestAt = Long.MAX_VALUE;
    for (Event e : events) {
      long at = dueAt(e);
      if (at < bestAt) {
        best = e;
        bestAt = at;
      }
    }
    return best;
  }

  private long dueAt(Event e) {
    if (e instanceof RegisterWritten w) {
      return w.arrivedAt();
    }
    DmaCompleted d = (DmaCompleted) e;
    return job != null && d.address() == job.address() ? job.issuedAt() + d.latencyNs() : now;
  }

  private void handle(Event e) {
    events.remove(e);
    if (e instanceof RegisterWritten w) {
      onRegisterWritten(w);
    } else {
      onDmaCompleted((DmaCompleted) e);
    }
  }

  // ------------------------------------------------------------------ registers

  private void onRegisterWritten(RegisterWritten w) {
    List<RegisterMap.Access> accesses;
    try {
      accesses = map.decode(w.address(), w.data());
    } catch (IllegalArgumentException e) {
      malformedWrites++;
      return;
    }
    if (accesses.get(0).register().pf()) {
      if (w.requester() != pfOwner) {
        foreignPfWrites++;
        return;
      }
      accesses.forEach(a -> applyPf(a, w.arrivedAt()));
      return;
    }
    TxQueue q = queues[accesses.get(0).vf()];
    boolean doorbell = accesses.stream().anyMatch(a -> a.register() == RegisterMap.Register.TDT);
    if (!q.enabled) {
      q.disabledWrites++;
    } else if (!q.ownedBy(w.requester())) {
      if (doorbell) {
        q.foreignDoorbells++;
      } else {
        q.foreignWrites++;
      }
    } else {
      accesses.forEach(a -> applyVf(q, a, w.arrivedAt()));
    }
  }

  private void applyPf(RegisterMap.Access a, long arrivedAt) {
    switch (a.register()) {
      case VF_OWNER0 -> queues[a.vf()].owner0 = RequesterMatch.decode(a.value());
      case VF_OWNER1 -> queues[a.vf()].owner1 = RequesterMatch.decode(a.value());
      case VF_CTRL -> {
        TxQueue q = queues[a.vf()];
        boolean enable = (a.value() & RegisterMap.VF_CTRL_ENABLE) != 0;
        if (enable && !q.enabled) {
          q.enabled = true;
          q.assignedAt = arrivedAt;
        } else if (!enable && q.enabled) {
          q.disable();
        }
      }
      default -> otherRegisterWrites++;
    }
  }

  private void applyVf(TxQueue q, RegisterMap.Access a, long arrivedAt) {
    int v = a.value();
    switch (a.register()) {
      case TDBAL -> q.baseLow = v;
      case TDBAH -> q.baseHigh = v;
      case TDLEN -> {
        if (v < 1 || v > settings.maxRing()) {
          q.badRings++;
          q.restart(0);
        } else {
          q.restart(v);
        }
      }
      case TDWBAL -> q.writeBackLow = v;
      case TDWBAH -> q.writeBackHigh = v;
      case TDT -> {
        now = Math.max(now, arrivedAt) + settings.doorbellProcessingNs();
        if (q.length == 0 || v < 0 || v >= q.length) {
          q.badDoorbells++;
        } else {
          q.tail = v;
          q.doorbells++;
        }
      }
      default -> otherRegisterWrites++;
    }
  }

  // ------------------------------------------------------------------ transmit

  /** Starts the next descriptor when the DMA engine is idle; false when there is nothing to do. */
  private boolean startDescriptor() {
    if (job != null) {
      return false;
    }
    for (int i = 0; i < queues.length; i++) {
      TxQueue q = queues[(nextVf + i) % queues.length];
      if (q.enabled && q.pending() > 0) {
        nextVf = (q.vf + 1) % queues.length;
        long address = q.ringBase() + (long) q.head * settings.descriptorSize();
        job = new Job(q.vf, q.generation, Phase.DESCRIPTOR, address, settings.descriptorSize(), now);
        hardware.dmaRead(address, settings.descriptorSize(), now);
        return true;
      }
    }
    return false;
  }

  private void onDmaCompleted(DmaCompleted d) {
    if (job == null || d.address() != job.address()) {
      strayDma++;
      return;
    }
    Job done = job;
    now = Math.max(now, done.issuedAt() + d.latencyNs());
    TxQueue q = queues[done.vf()];
    if (done.generation() != q.generation) {
      job = null; // the ring restarted while the read was out: nothing to finish
      strayDma++;
      return;
    }
    if (!d.ok() || d.data() == null || d.data().length < done.length()) {
      q.dmaErrors++;
      finishDescriptor(q);
      return;
    }
    if (done.phase() == Phase.DESCRIPTOR) {
      now += settings.descriptorProcessingNs();
      ByteBuffer desc = ByteBuffer.wrap(d.data()).order(ByteOrder.LITTLE_ENDIAN);
      long buffer = desc.getLong(RegisterMap.DESC_ADDRESS);
      int length = desc.getShort(RegisterMap.DESC_LENGTH) & 0xFFFF;
      int command = desc.getShort(RegisterMap.DESC_COMMAND) & 0xFFFF;
      if (length < 1 || length > settings.maxFrame() || (command & RegisterMap.CMD_EOP) == 0) {
        q.badDescriptors++;
        finishDescriptor(q);
        return;
      }
      job = new Job(done.vf(), done.generation(), Phase.BUFFER, buffer, length, now);
      hardware.dmaRead(buffer, length, now);
      return;
    }
    byte[] frame = d.data().length == done.length() ? d.data() : Arrays.copyOf(d.data(), done.length());
    EthernetLink.Transmission tx = wire.transmit(frame.length, now + settings.txLatencyNs());
    q.frames++;
    q.bytes += frame.length;
    hardware.transmit(q.vf, frame, tx);
    finishDescriptor(q);
  }

  /** The head moves past the descriptor, and the host learns it through the write-back. */
  private void finishDescriptor(TxQueue q) {
    job = null;
    q.head = (q.head + 1) % q.length;
    long writeBack = q.writeBack();
    if (writeBack != 0) {
      hardware.dmaWrite(writeBack, RegisterMap.dwords(q.head), now);
    }
  }

  // ------------------------------------------------------------------ observation

  public long now() {
    return now;
  }

  /** Dispatch cycles so far. */
  public long cycles() {
    return cycles;
  }

  /** Model time of the last dispatch cycle. */
  public long lastCycleAt() {
    return lastCycleAt;
  }

  /** Events waiting for the loop (0 while it runs normally: it drains them as they come). */
  public int queuedEvents() {
    return events.size();
  }

  public NicStats stats(String nic, long unconnected) {
    List<NicStats.VfStats> vfs = new ArrayList<>(queues.length);
    for (TxQueue q : queues) {
      vfs.add(q.stats());
    }
    return new NicStats(nic, now, cycles, lastCycleAt, wire.frames(), wire.wireBytesSent(), wire.busyUntil(),
        foreignPfWrites, malformedWrites, otherRegisterWrites, strayDma, unconnected, vfs);
  }
}
