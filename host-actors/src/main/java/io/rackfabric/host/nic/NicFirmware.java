package io.rackfabric.host.nic;

import io.rackfabric.fabric.time.EventQueue;
import java.util.ArrayList;
import java.util.List;

/**
 * The NIC's transmit firmware: an event-driven loop like Myrinet's MCP (FTGM section 4.2).
 * Register writes and DMA results are queued as events; each dispatch cycle handles one event, or,
 * when there is none and the DMA engine is idle, starts the next descriptor ({@link
 * DescriptorFetch}: the descriptor, its buffer, the MAC, the head's write-back).
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

    /** The watchdog ran out at model time {@code at}: raise the card's interrupt to the PF's owner. */
    default void interrupt(long at) {}
  }

  private sealed interface Event permits RegisterWritten, DmaCompleted {}

  private record RegisterWritten(long address, byte[] data, int requester, long arrivedAt) implements Event {}

  private record DmaCompleted(long address, boolean ok, byte[] data, long latencyNs) implements Event {}

  private final NicSettings settings;
  private final TxQueue[] queues;
  private final RegisterWrites registers;
  private final DescriptorFetch transmit;
  private final List<Event> events = new ArrayList<>(); // few: the loop drains them as they come
  private boolean running;
  private long now;
  private long cycles;
  private long lastCycleAt;

  // FTGM (section 4.2 of its paper): null timing = a card without the watchdog machinery
  private final EventQueue clock;
  private final IntervalTimers timers;
  private boolean loaded = true;
  /** The loop stops from this model time on (a hang fault), or -1. */
  private long hangAt = -1;
  /** A card without the timers: a word written is never cleared (no loop calls L_timer). */
  private boolean untimedWord;
  private long writesWhileDown;
  private long resets;

  /**
   * @param pfOwner the requester ID whose writes the PF registers accept (the MH, root of the
   *     NIC's domain)
   */
  public NicFirmware(RegisterMap map, int pfOwner, NicSettings settings, Hardware hardware) {
    this(map, pfOwner, settings, hardware, null, null);
  }

  /**
   * A card with FTGM's watchdog: the loop calls L_timer every {@code timing.lTimerIntervalNs()}
   * of model time on {@code clock} (the card's hardware clock, advanced by {@link #advanceClock}),
   * L_timer resets the spare {@link Watchdog}, and the watchdog's expiry raises {@link
   * Hardware#interrupt} ({@link IntervalTimers}, as the MCP's). Call {@link #boot} to start the
   * timers.
   */
  public NicFirmware(RegisterMap map, int pfOwner, NicSettings settings, Hardware hardware, McpTiming timing,
      EventQueue clock) {
    this.clock = clock;
    // L_timer's own time is not charged to the frames: at the rates modeled the loop is idle at
    // IT0's ticks. A hung or unloaded loop does not run it, so from the hang on the watchdog runs down.
    this.timers = timing == null ? null
        : new IntervalTimers(clock, timing, hardware::interrupt, at -> loaded && !stopped(at) ? at : -1);
    this.settings = settings;
    this.queues = new TxQueue[map.vfCount()];
    for (int i = 0; i < queues.length; i++) {
      queues[i] = new TxQueue(i);
    }
    this.registers = new RegisterWrites(map, pfOwner, settings, queues);
    this.transmit = new DescriptorFetch(settings, hardware, queues);
  }

  /** A posted write landed in one of the NIC's register BARs at model time {@code arrivedAt}. */
  public void registerWritten(long address, byte[] data, int requester, long arrivedAt) {
    advanceClock(arrivedAt);
    if (!loaded) {
      writesWhileDown++; // a card in reset or without firmware takes nothing
      return;
    }
    events.add(new RegisterWritten(address, data, requester, arrivedAt));
    run();
  }

  /**
   * A DMA read finished: {@code ok} with its data, {@code latencyNs} after it was issued (the
   * firmware knows when it issued it).
   */
  public void dmaCompleted(long address, boolean ok, byte[] data, long latencyNs) {
    if (!loaded) {
      transmit.stray(); // issued before the reset: nobody waits for it
      return;
    }
    events.add(new DmaCompleted(address, ok, data, latencyNs));
    run();
  }

  // ------------------------------------------------------------------ FTGM: L_timer, watchdog, recovery

  /** Starts the card's timers at model time {@code at} (the firmware was loaded at power-on). */
  public void boot(long at) {
    if (timers != null) {
      timers.start(at);
    }
  }

  /** The card's hardware clock reached {@code at}: timers due by then run (L_timer, the watchdog). */
  public void advanceClock(long at) {
    if (clock != null && at > clock.now()) {
      clock.runUntil(at);
    }
  }

  /** The model time of the card's next timer (L_timer, the watchdog), {@code Long.MAX_VALUE} if none. */
  public long nextTimerAt() {
    return clock == null ? Long.MAX_VALUE : clock.nextTime();
  }

  /** The hardware clock (model time the card's timers have reached). */
  public long clockNow() {
    return clock == null ? now : clock.now();
  }

  /**
   * Hang fault: the loop stops at model time {@code at} (or at once, if its clock has passed it):
   * no event is handled, no descriptor started and L_timer is no longer called; events pile up.
   * Returns the model time the loop stopped.
   */
  public long hang(long at) {
    if (hangAt < 0) {
      hangAt = Math.max(at, now);
    }
    return hangAt;
  }

  private boolean stopped(long at) {
    return hangAt >= 0 && at >= hangAt;
  }

  /**
   * Whether the hang has taken effect in model time: the loop's clock has reached it, or an event
   * due at or after it is waiting. Before that the loop still serves what is due earlier.
   */
  public boolean stalled() {
    if (hangAt < 0 || !loaded) {
      return false;
    }
    if (now >= hangAt) {
      return true;
    }
    for (Event e : events) {
      if (dueAt(e) >= hangAt) {
        return true;
      }
    }
    return false;
  }

  /** Whether the loop is hung (the fault took effect or will at its model time). */
  public boolean hung() {
    return hangAt >= 0;
  }

  /** When the loop stopped, or -1. */
  public long hungAt() {
    return hangAt;
  }

  public boolean loaded() {
    return loaded;
  }

  /**
   * Card reset: the firmware stops, card memory is cleared (every queue and its ownership, events
   * waiting, the descriptor in flight) and the watchdog's interrupt is disabled. Counters stay.
   */
  public void reset(long at) {
    now = Math.max(now, at);
    loaded = false;
    hangAt = -1;
    untimedWord = false;
    resets++;
    if (timers != null) {
      timers.stop();
    }
    events.clear();
    transmit.clear();
    for (TxQueue q : queues) {
      q.disable();
      q.owner0 = RequesterMatch.NONE;
      q.owner1 = RequesterMatch.NONE;
    }
  }

  /** Firmware loaded and started at {@code at}: the loop runs, IT0 and IT1 run again. */
  public void reload(long at) {
    now = Math.max(now, at);
    loaded = true;
    if (timers != null) {
      timers.start(now);
    }
  }

  /** The PF driver restores VF {@code vf}'s table entry from its copy: owners, enabled. */
  public void restoreVf(int vf, RequesterMatch owner0, RequesterMatch owner1, long at) {
    now = Math.max(now, at);
    TxQueue q = queues[vf];
    q.owner0 = owner0;
    q.owner1 = owner1;
    q.enabled = true;
  }

  /** The daemon's liveness check: a running loop clears the word at its next L_timer. */
  public void writeMagicWord(long at) {
    advanceClock(at);
    if (timers == null) {
      untimedWord = true;
    } else {
      timers.writeMagicWord();
    }
  }

  public boolean magicWordCleared() {
    return timers == null ? !untimedWord : timers.magicWordCleared();
  }

  public long lTimerCalls() {
    return timers == null ? 0 : timers.calls();
  }

  public long lastLTimerAt() {
    return timers == null ? -1 : timers.lastCallAt();
  }

  /** When the watchdog runs out unless reset, or -1 when it is not armed. */
  public long watchdogDeadline() {
    return timers == null || !timers.watchdog().armed() ? -1 : timers.watchdog().deadline();
  }

  /** Register writes that came while the card was in reset. */
  public long writesWhileDown() {
    return writesWhileDown;
  }

  public long resets() {
    return resets;
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
      if (stopped(now)) {
        return; // hung: events pile up
      }
      Event e = earliest();
      // With a DMA result queued, the earliest event is no later than it: due, whatever its stamp.
      boolean due = e != null && (dueAt(e) <= now || events.stream().anyMatch(DmaCompleted.class::isInstance));
      if (due) {
        if (stopped(dueAt(e))) {
          return;
        }
        handle(e);
      } else if (!transmit.start(now)) {
        if (e == null || transmit.busy() || stopped(dueAt(e))) {
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
    return transmit.dueAt(d.address(), d.latencyNs(), now);
  }

  private void handle(Event e) {
    events.remove(e);
    if (e instanceof RegisterWritten w) {
      onRegisterWritten(w);
    } else {
      DmaCompleted d = (DmaCompleted) e;
      now = transmit.completed(d.address(), d.ok(), d.data(), d.latencyNs(), now);
    }
  }

  // ------------------------------------------------------------------ registers

  private void onRegisterWritten(RegisterWritten w) {
    int doorbells = registers.apply(w.address(), w.data(), w.requester(), w.arrivedAt());
    if (doorbells > 0) {
      now = Math.max(now, w.arrivedAt()) + doorbells * settings.doorbellProcessingNs();
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
    EthernetLink wire = transmit.wire();
    return new NicStats(nic, now, cycles, lastCycleAt, wire.frames(), wire.wireBytesSent(), wire.busyUntil(),
        registers.foreignPfWrites(), registers.malformedWrites(), registers.otherRegisterWrites(), transmit.strayDma(),
        unconnected, events.size(), transmit.busy(), 0, vfs);
  }
}
