package io.rackfabric.host.device.disk;

import io.rackfabric.host.device.Pcie;
import io.rackfabric.host.device.disk.CompletionEntry.Status;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The disk's command engine, stepped with explicit model times. On a tail doorbell it fetches the
 * new submission entries from host memory (a 64-byte read each) and runs every command it fetched,
 * several at once:
 *
 * <ul>
 *   <li>READ: the media's {@code read-latency} after the entry arrived, the blocks go to the host
 *       buffer as posted writes of at most max-payload bytes, none crossing a 4 KiB boundary,
 *       then the completion entry, then the MSI-X message, all stamped then: posted ordering
 *       keeps the entry behind the data and the message behind the entry.</li>
 *   <li>WRITE: read requests for the host buffer of at most max-read-request bytes, none crossing a
 *       4 KiB boundary; once all data arrived, {@code write-latency} later the blocks are stored and
 *       the completion and MSI-X message go.</li>
 * </ul>
 *
 * Fetches and buffer reads share {@code max-outstanding-reads} tags. A command that names an
 * unknown opcode, no blocks, too many, or blocks past the disk's end completes at once with an
 * error status; a buffer read that comes back with an error completes its WRITE with
 * DATA_TRANSFER_ERROR. A completion that finds the completion queue full waits for the driver's
 * head doorbell. A plain class: the disk actor turns its endpoint's calls into these steps and the
 * {@link Bus} calls into endpoint commands.
 */
public final class DiskEngine {

  /** What the engine asks of its endpoint. */
  public interface Bus {
    /** One posted write at model time {@code at}. */
    void write(long address, byte[] data, long at);

    /** One read request at model time {@code at}; its result comes back to {@link #readDone}. */
    void read(long address, int length, long at);

    /** A wake at model time {@code at}, coming back to {@link #wake} with {@code token}. */
    void wake(long token, long at);

    /** The MSI-X message of a completion posted at {@code at} (behind it on the link). */
    void interrupt(long at);
  }

  /** One read in flight: a command fetch ({@code command} 0) or part of a WRITE's buffer. */
  private record Outstanding(long command, long issuedAt, int offset, int length) {}

  /** A command between its fetch and its completion. */
  private static final class Running {
    final SubmissionEntry entry;
    final byte[] data;
    int issued;
    int received;

    Running(SubmissionEntry entry) {
      this.entry = entry;
      this.data = entry.opcode() == SubmissionEntry.WRITE ? new byte[entry.bytes()] : null;
    }
  }

  private record Waiting(int commandId, Status status) {}

  private final DiskSettings settings;
  private final int maxPayload;
  private final DiskBlocks blocks;
  private final Bus bus;
  private DiskQueues queues;
  private final Map<Long, ArrayDeque<Outstanding>> inFlight = new HashMap<>();
  private final LinkedHashMap<Long, Running> running = new LinkedHashMap<>();
  private final ArrayDeque<Waiting> waiting = new ArrayDeque<>();
  private int reads;
  private int fetching;
  private long commands;
  private long completed;
  private long failed;
  private long fetchFailures;
  private long aborted;
  private long tlps;

  public DiskEngine(DiskSettings settings, int maxPayload, DiskBlocks blocks, Bus bus) {
    if (maxPayload < 1 || maxPayload > Pcie.PAGE) {
      throw new IllegalArgumentException("maxPayload=" + maxPayload + " not in [1," + Pcie.PAGE + "]");
    }
    this.settings = settings;
    this.maxPayload = maxPayload;
    this.blocks = blocks;
    this.bus = bus;
  }

  /** ENABLE=1: NONE when the queue pair is up, else why not. */
  public DiskRegisters.Error enable(DiskRegisters.Enable e) {
    if (queues != null) {
      return DiskRegisters.Error.BUSY;
    }
    queues = DiskQueues.of(e);
    return queues == null ? DiskRegisters.Error.BAD_QUEUE : DiskRegisters.Error.NONE;
  }

  /**
   * ENABLE=0: a reset, as NVMe's CC.EN 1 to 0. The queue pair is taken down and every command under
   * way is aborted without a completion (a READ waiting for its media writes nothing, a WRITE stores
   * nothing, a completion waiting for room is not posted); answers to reads issued before it are
   * ignored when they come, whenever that is, or never (see {@link #readDone}). A driver that
   * resets with commands outstanding submits them again.
   */
  public DiskRegisters.Error disable() {
    aborted += running.size() + fetching + waiting.size();
    for (Waiting w : waiting) { // counted when they completed, but never posted
      if (w.status() == Status.SUCCESS) {
        completed--;
      } else {
        failed--;
      }
    }
    running.clear();
    waiting.clear();
    inFlight.clear();
    reads = 0;
    fetching = 0;
    queues = null;
    return DiskRegisters.Error.NONE;
  }

  /** The tail doorbell at model time {@code at}: the new entries' fetches leave then. */
  public DiskRegisters.Error sqTailRung(long value, long at) {
    if (queues == null) {
      return DiskRegisters.Error.NOT_ENABLED;
    }
    DiskRegisters.Error e = queues.sqTailRung(value);
    if (e == DiskRegisters.Error.NONE) {
      issueReads(at);
    }
    return e;
  }

  /** The head doorbell at model time {@code at}: completions waiting for room are posted then. */
  public DiskRegisters.Error cqHeadRung(long value, long at) {
    if (queues == null) {
      return DiskRegisters.Error.NOT_ENABLED;
    }
    DiskRegisters.Error e = queues.cqHeadRung(value);
    while (e == DiskRegisters.Error.NONE && !waiting.isEmpty() && queues.cqHasRoom()) {
      Waiting w = waiting.poll();
      post(w.commandId(), w.status(), at);
    }
    return e;
  }

  /**
   * The result of the read of {@code address} issued at model time {@code issuedAt} (negative: not
   * known, taken for the oldest of that address), completed {@code latencyNs} after it was issued
   * (its arrival is the step's time). FETCH_FAILED when it was a command fetch that failed (the
   * entry is lost: no command id to complete), else NONE.
   *
   * <p>An answer is matched to its read by address and issue time, so one to a read issued before
   * a reset finds nothing and is dropped: every read after the reset leaves later than the reset
   * (ENABLE=1 and the doorbell are posted writes behind ENABLE=0 on the same link, each arriving a
   * TLP's serialization later). Nothing is kept of the reads a reset abandoned, so one that is
   * never answered cannot take the place of a later read of its address.
   */
  public DiskRegisters.Error readDone(long address, long issuedAt, boolean ok, byte[] data, long latencyNs) {
    ArrayDeque<Outstanding> q = inFlight.get(address);
    Outstanding o = q == null ? null : issuedAt < 0 ? q.peek() : issuedAt(q, issuedAt);
    if (o == null) {
      return DiskRegisters.Error.NONE; // abandoned at a reset, or not the engine's
    }
    q.remove(o);
    if (q.isEmpty()) {
      inFlight.remove(address);
    }
    reads--;
    long arrival = o.issuedAt() + latencyNs;
    DiskRegisters.Error result = DiskRegisters.Error.NONE;
    if (o.command() == 0) {
      fetching--;
      queues.fetched();
      if (ok && data != null && data.length == SubmissionEntry.SIZE) {
        started(SubmissionEntry.decode(data), arrival);
      } else {
        fetchFailures++;
        result = DiskRegisters.Error.FETCH_FAILED;
      }
    } else {
      bufferRead(o, ok, data, arrival);
    }
    issueReads(arrival);
    return result;
  }

  private static Outstanding issuedAt(ArrayDeque<Outstanding> q, long at) {
    for (Outstanding o : q) {
      if (o.issuedAt() == at) {
        return o;
      }
    }
    return null;
  }

  /** The media latency of command {@code token} ended at {@code at}. */
  public void wake(long token, long at) {
    Running r = running.remove(token);
    if (r == null) {
      return;
    }
    SubmissionEntry e = r.entry;
    if (e.opcode() == SubmissionEntry.READ) {
      byte[] data = blocks.read(e.lba(), e.blocks());
      int offset = 0;
      while (offset < data.length) {
        int size = Pcie.chunk(e.buffer() + offset, data.length - offset, maxPayload);
        byte[] part = new byte[size];
        System.arraycopy(data, offset, part, 0, size);
        bus.write(e.buffer() + offset, part, at);
        tlps++;
        offset += size;
      }
    } else {
      blocks.write(e.lba(), r.data);
    }
    complete(e.commandId(), Status.SUCCESS, at);
    issueReads(at); // a command slot is free: fetch on
  }

  /** A fetched command at its arrival: refused with an error completion, or under way. */
  private void started(SubmissionEntry e, long at) {
    Status s = judge(e);
    if (s != Status.SUCCESS) {
      complete(e.commandId(), s, at);
      return;
    }
    long seq = ++commands;
    running.put(seq, new Running(e));
    if (e.opcode() == SubmissionEntry.READ) {
      bus.wake(seq, at + settings.readLatencyNs());
    }
  }

  private Status judge(SubmissionEntry e) {
    if (e.opcode() != SubmissionEntry.READ && e.opcode() != SubmissionEntry.WRITE) {
      return Status.INVALID_OPCODE;
    }
    if (e.blocks() < 1 || e.blocks() > settings.maxBlocksPerCommand() || Pcie.wraps(e.buffer(), e.bytes())) {
      return Status.INVALID_FIELD;
    }
    if (!blocks.holds(e.lba(), e.blocks())) {
      return Status.LBA_OUT_OF_RANGE;
    }
    return Status.SUCCESS;
  }

  private void bufferRead(Outstanding o, boolean ok, byte[] data, long arrival) {
    Running r = running.get(o.command());
    if (r == null) {
      return; // its WRITE already failed: a straggler, its tag is free again
    }
    if (!ok || data == null || data.length != o.length()) {
      running.remove(o.command());
      complete(r.entry.commandId(), Status.DATA_TRANSFER_ERROR, arrival);
      return;
    }
    System.arraycopy(data, 0, r.data, o.offset(), data.length);
    r.received += data.length;
    if (r.received == r.data.length) {
      bus.wake(o.command(), arrival + settings.writeLatencyNs());
    }
  }

  /** Fetches first (while command slots are free), then the WRITEs' buffer reads, oldest first. */
  private void issueReads(long at) {
    if (queues == null) {
      return;
    }
    while (reads < settings.maxOutstandingReads() && running.size() + fetching < settings.maxCommands()) {
      long address = queues.nextFetch();
      if (address < 0) {
        break;
      }
      fetching++;
      issue(address, new Outstanding(0, at, 0, SubmissionEntry.SIZE));
    }
    for (Map.Entry<Long, Running> c : running.entrySet()) {
      Running r = c.getValue();
      while (r.data != null && r.issued < r.data.length && reads < settings.maxOutstandingReads()) {
        long address = r.entry.buffer() + r.issued;
        int size = Pcie.chunk(address, r.data.length - r.issued, settings.maxReadRequest());
        issue(address, new Outstanding(c.getKey(), at, r.issued, size));
        r.issued += size;
      }
    }
  }

  private void issue(long address, Outstanding o) {
    inFlight.computeIfAbsent(address, a -> new ArrayDeque<>()).add(o);
    reads++;
    tlps++;
    bus.read(address, o.length(), o.issuedAt());
  }

  private void complete(int commandId, Status status, long at) {
    if (status == Status.SUCCESS) {
      completed++;
    } else {
      failed++;
    }
    if (!waiting.isEmpty() || !queues.cqHasRoom()) {
      waiting.add(new Waiting(commandId, status));
      return;
    }
    post(commandId, status, at);
  }

  private void post(int commandId, Status status, long at) {
    DiskQueues.Slot slot = queues.post();
    bus.write(slot.address(), new CompletionEntry(queues.sqHead(), commandId, status, slot.phase()).encode(), at);
    tlps++;
    bus.interrupt(at);
  }

  /** Commands completed with success. */
  public long completed() {
    return completed;
  }

  /** Commands completed with an error status. */
  public long failed() {
    return failed;
  }

  public long fetchFailures() {
    return fetchFailures;
  }

  /** Commands (being fetched, running, or completed and waiting for room) a reset took down before their completion was posted. */
  public long aborted() {
    return aborted;
  }

  /** Fetches, buffer reads, data writes and completion entries issued so far (MSI-X messages not counted). */
  public long tlps() {
    return tlps;
  }

  public int readsInFlight() {
    return reads;
  }

  /** Commands between fetch and completion. */
  public int commandsRunning() {
    return running.size();
  }

  /** Completions waiting for room in the completion queue. */
  public int completionsWaiting() {
    return waiting.size();
  }

  public boolean enabled() {
    return queues != null;
  }
}
