package io.rackfabric.host.device.disk;

import io.rackfabric.fabric.tlp.CompletionStatus;
import io.rackfabric.host.device.DeviceWatchdog;
import io.rackfabric.host.device.RemovableSequence;
import io.rackfabric.host.device.WindowShift;
import io.rackfabric.host.device.Pcie;
import io.rackfabric.host.device.disk.DiskReadPlan.Read;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@link DiskDriver}'s sequencing, stepped with explicit model times. The set-up: the queue
 * pair, the MSI-X target (MSI_ADDR's single word, or the plan's vector's table entry) and ENABLE. Then for each read of the plan in turn: the
 * entry stored into the next SQ slot in the driver's own RAM and one 8-byte doorbell write (the new
 * SQ tail, then the CQ head of everything consumed so far: applied in address order, so every
 * doorbell is one TLP of one size). The completion entry, told apart by its slot, phase and command
 * id, is kept; the MSI-X message that follows it (posted ordering) ends the read, recorded with the
 * model time from the doorbell's issue to the message's arrival, and lets the next read go at that
 * arrival. After the last: the CQ head, then ENABLE=0, so another driver may set the disk up. A
 * plain class: the actor turns endpoint calls into these steps.
 *
 * <p>With a watchdog ({@link DeviceWatchdog}) an MSI-X message that does not come in time makes the
 * driver read the disk's STATUS through the fabric; a disk found gone (its lender died, its cables
 * went down) is a surprise removal at that model time: the read in flight is lost, the rest are
 * not started, and the sequence issues nothing more.
 */
public final class DiskReadSequence implements RemovableSequence {

  /** The MSI-X message's payload: one vector. */
  static final int MSI_DATA = 0xD15C;

  /** One write of the driver: {@code data} at bus address {@code address}, issued at {@code at}. */
  public record RegisterWrite(long address, byte[] data, long at) {}

  /** A read of a register of the disk: {@code length} bytes at bus address {@code address}, at {@code at}. */
  public record RegisterRead(long address, int length, long at) {}

  /**
   * The disk found gone at model {@code at}: {@code reason} says how; {@code lost} is the read in
   * flight (its doorbell rung, no MSI-X message), or null when none was (a hot-remove before the
   * first doorbell), {@code notStarted} the reads after it.
   */
  public record SurpriseRemoval(long at, String reason, LostRead lost, int notStarted) {}

  /** A read whose doorbell was rung at {@code doorbellAt} and whose completion never came. */
  public record LostRead(int commandId, long lba, int blocks, long doorbellAt) {}

  /**
   * One move of the disk's windows at model {@code at} (its loan followed the borrower's link
   * fail-over): its registers {@code registersShift} and its DMA addresses {@code dmaShift} from the
   * plan's from then on; {@code resent} the read in flight submitted again, or null.
   */
  public record WindowMove(long at, long registersShift, long dmaShift, ResentRead resent) implements WindowShift {}

  /** Read number {@code index} (from 0) submitted again at {@code resentAt}; its doorbell first rung at {@code doorbellAt}. */
  public record ResentRead(int index, long lba, int blocks, long doorbellAt, long resentAt) {}

  /**
   * What a move sends through the new windows, in order: the disk's reset, its set-up on the
   * moved addresses, then the read in flight's submission ({@code resubmission} null when none was).
   */
  public record Reset(List<RegisterWrite> writes, Submission resubmission) {
    public Reset {
      writes = List.copyOf(writes);
    }
  }

  /** A command's 64 bytes stored into the driver's own RAM at {@code address}, then the doorbell. */
  public record Submission(long address, byte[] entry, RegisterWrite doorbell) {}

  /** What one step sends: the stores (into its own RAM) first, then the writes through the fabric, in order. */
  public record Step(List<Submission> submissions, List<RegisterWrite> writes) {
    public Step {
      submissions = List.copyOf(submissions);
      writes = List.copyOf(writes);
    }

    static final Step NONE = new Step(List.of(), List.of());

    public boolean isEmpty() {
      return submissions.isEmpty() && writes.isEmpty();
    }
  }

  /**
   * One read done: command {@code commandId} of {@code blocks} from {@code lba}, its doorbell issued
   * at {@code doorbellAt}, its MSI-X message arrived at {@code msiAt} (model ns); {@code dataOk}
   * when the buffer's first 8 bytes showed the LBA (a never-written block's pattern) before it.
   */
  public record DiskReadRecord(int commandId, long lba, int blocks, long doorbellAt, long msiAt,
      CompletionEntry.Status status, boolean dataOk) {
    public long latencyNs() {
      return msiAt - doorbellAt;
    }
  }

  private final DiskReadPlan plan;
  /** Null: no watchdog (free-running, where a wake is due at once, or a test of the sequence alone). */
  private final DeviceWatchdog watchdog;
  private SurpriseRemoval removal;
  private final List<DiskReadRecord> done = new ArrayList<>();
  private boolean setUp;
  /** The read whose completion is awaited, or -1 before the first doorbell and after the last MSI. */
  private int running = -1;
  private long doorbellAt;
  private int sqTail;
  private int cqHead;
  private boolean phase = true;
  private CompletionEntry completion;
  private boolean dataOk;
  /** Submissions so far: the next one's command id (a read submitted again gets a new one). */
  private int submitted;
  private int runningId;
  private long registersShift;
  private long dmaShift;
  private final List<WindowMove> moves = new ArrayList<>();

  /** A sequence without a watchdog: it waits for each MSI-X message for ever. */
  public DiskReadSequence(DiskReadPlan plan) {
    this.plan = plan;
    this.watchdog = null;
  }

  /** A sequence that probes its disk when a message is {@code watchdogNs} late, and declares it removed if gone. */
  public DiskReadSequence(DiskReadPlan plan, long watchdogNs) {
    this.plan = plan;
    this.watchdog = new DeviceWatchdog(watchdogNs);
  }

  /**
   * The model time at which {@link #watchdogExpired} is due: the awaited message's (or the probe's)
   * deadline; {@code Long.MAX_VALUE} when nothing is awaited or there is no watchdog.
   */
  @Override
  public long watchdogDeadline() {
    return watchdog == null ? DeviceWatchdog.NONE : watchdog.deadline();
  }

  /**
   * The driver's watchdog wake at model {@code at}: the read of the disk's STATUS to issue when the
   * awaited message is late, null otherwise (a stale wake, or a removal declared here).
   */
  public RegisterRead watchdogExpired(long at) {
    if (watchdog == null || running < 0 || removal != null) {
      return null;
    }
    DeviceWatchdog.Verdict v = watchdog.expired(at);
    if (v == DeviceWatchdog.Verdict.PROBE) {
      return new RegisterRead(registers() + DiskRegisters.STATUS, 4, at);
    }
    if (v == DeviceWatchdog.Verdict.REMOVED) {
      removed(at);
    }
    return null;
  }

  /**
   * The STATUS read's answer, issued at {@code issuedAt} (negative: not known) and answered
   * {@code latencyNs} later (0 for a read refused at once): the disk is declared removed at the
   * answer's model time if the answer shows it gone, or its wait starts over. An older probe's
   * answer is ignored.
   */
  public void probeAnswered(CompletionStatus status, byte[] data, long issuedAt, long latencyNs) {
    if (watchdog == null || !watchdog.answers(issuedAt)) {
      return; // an older probe's answer
    }
    long at = watchdog.answeredAt(latencyNs);
    if (running >= 0 && removal == null
        && watchdog.probeAnswered(status, data, at) == DeviceWatchdog.Verdict.REMOVED) {
      removed(at);
    }
  }

  private void removed(long at) {
    remove(at, "disk at 0x" + Long.toHexString(registers()) + " gone: " + watchdog.reason());
  }

  /**
   * The disk was hot-removed at model {@code at} for {@code reason} (the controller ended its loan:
   * the lender left the rack): a surprise removal then, the read in flight lost, the rest not
   * started, nothing more issued. Nothing happens once the plan is over.
   */
  @Override
  public void hotRemoved(long at, String reason) {
    if (over()) {
      return;
    }
    remove(at, reason);
    if (watchdog != null) {
      watchdog.stop();
    }
  }

  private void remove(long at, String reason) {
    LostRead lost = null;
    if (running >= 0) {
      Read r = plan.reads().get(running);
      lost = new LostRead(runningId, r.lba(), r.blocks(), doorbellAt);
    }
    removal = new SurpriseRemoval(at, reason, lost, plan.reads().size() - done.size() - (lost == null ? 0 : 1));
    running = -1;
  }

  /** The surprise removal the watchdog declared, or null. */
  public SurpriseRemoval removal() {
    return removal;
  }

  /** Nothing more will happen: every read has its message, or the disk was found removed. */
  @Override
  public boolean over() {
    return finished() || removal != null;
  }

  /**
   * The set-up's writes at {@code at}, in order ({@link DiskSetUp}); none once given, or when the
   * plan has no read.
   */
  public List<RegisterWrite> setUp(long at) {
    if (setUp || plan.reads().isEmpty()) {
      return List.of();
    }
    setUp = true;
    return DiskSetUp.writes(plan, registers(), dmaShift, at);
  }

  /** The first read's submission at {@code at}; null before the set-up, once it has begun, or after a removal. */
  public Submission begin(long at) {
    if (!setUp || running >= 0 || !done.isEmpty() || removal != null) {
      return null;
    }
    return submit(0, at);
  }

  /** A write into the driver's RAM arrived (a watched range): the completion entry or the data's first bytes. */
  public void written(long address, byte[] data) {
    if (running < 0 || data == null) {
      return;
    }
    if (address == plan.bufferHost() && data.length >= 8) {
      long lba = ByteBuffer.wrap(data, 0, 8).order(ByteOrder.LITTLE_ENDIAN).getLong();
      dataOk = lba == plan.reads().get(running).lba();
    } else if (address == plan.cqHost() + (long) cqHead * CompletionEntry.SIZE && data.length == CompletionEntry.SIZE) {
      CompletionEntry e;
      try {
        e = CompletionEntry.decode(data);
      } catch (IllegalArgumentException unknownStatus) {
        return; // no entry of this disk's: the MSI finds none and the read waits
      }
      if (e.phase() == phase && e.commandId() == runningId) {
        completion = e;
      }
    }
  }

  /**
   * A write into the MSI's address arrived at {@code at}: once the running read's completion entry
   * is in, the read is recorded and the next step returned (the next submission, or after the last
   * read the CQ head and ENABLE=0); any other write changes nothing.
   */
  public Step msiArrived(long address, byte[] data, long at) {
    if (running < 0 || completion == null || address != plan.msiHost() || data == null || data.length != 4
        || ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN).getInt() != MSI_DATA) {
      return Step.NONE;
    }
    Read r = plan.reads().get(running);
    done.add(new DiskReadRecord(runningId, r.lba(), r.blocks(), doorbellAt, at, completion.status(), dataOk));
    cqHead = (cqHead + 1) % DiskReadPlan.ENTRIES;
    if (cqHead == 0) {
      phase = !phase;
    }
    int next = running + 1;
    running = -1;
    completion = null;
    if (watchdog != null) {
      watchdog.stop();
    }
    if (next < plan.reads().size()) {
      return new Step(List.of(submit(next, at)), List.of());
    }
    return new Step(List.of(), List.of(
        new RegisterWrite(registers() + DiskRegisters.CQ_HEAD, Pcie.dword(cqHead), at),
        new RegisterWrite(registers() + DiskRegisters.ENABLE, Pcie.dword(0), at)));
  }

  private Submission submit(int index, long at) {
    Read r = plan.reads().get(index);
    long slot = plan.sqHost() + (long) sqTail * SubmissionEntry.SIZE;
    runningId = commandId(submitted++);
    byte[] entry = SubmissionEntry.read(runningId, plan.bufferDisk() + dmaShift, r.lba(), r.blocks()).encode();
    sqTail = (sqTail + 1) % DiskReadPlan.ENTRIES;
    byte[] doorbell = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putInt(sqTail).putInt(cqHead).array();
    running = index;
    doorbellAt = at;
    dataOk = false;
    if (watchdog != null) {
      watchdog.expect(at);
    }
    return new Submission(slot, entry, new RegisterWrite(registers() + DiskRegisters.SQ_TAIL, doorbell, at));
  }

  /** BAR0 as the driver reaches it now: the plan's, moved with the loan's windows. */
  private long registers() {
    return plan.registers() + registersShift;
  }

  /**
   * The loan's windows moved at model {@code at}: the disk's registers are {@code registersShift}
   * and its DMA addresses {@code dmaShift} from the plan's from then on. The disk holds its queue
   * pair's and its MSI-X message's addresses from its set-up, so once it is set up the driver
   * resets it through the moved registers (ENABLE=0 aborts whatever it had under way), sets it up
   * again on the moved addresses (both queues empty again), and submits the read in flight again
   * under a new command id: its data and completion died on the old path, and a read writes the
   * same blocks to the same buffer, so it is counted once, from its first doorbell. Null when
   * nothing is to be sent: the disk was removed, the shifts are the ones in force, the plan is
   * finished (its last writes took the disk down), or the disk is not set up yet (the set-up will
   * use the moved addresses); the last two still record the move.
   */
  public Reset windowsMoved(long registersShift, long dmaShift, long at) {
    if (removal != null || (registersShift == this.registersShift && dmaShift == this.dmaShift)) {
      return null;
    }
    this.registersShift = registersShift;
    this.dmaShift = dmaShift;
    if (!setUp || finished()) { // nothing to reset: the set-up will use the moved addresses, or none is left
      moves.add(new WindowMove(at, registersShift, dmaShift, null));
      return null;
    }
    List<RegisterWrite> writes = new ArrayList<>();
    writes.add(new RegisterWrite(registers() + DiskRegisters.ENABLE, Pcie.dword(0), at));
    writes.addAll(DiskSetUp.writes(plan, registers(), dmaShift, at));
    sqTail = 0;
    cqHead = 0;
    phase = true;
    completion = null;
    if (running < 0) { // set up, the first doorbell not rung yet
      moves.add(new WindowMove(at, registersShift, dmaShift, null));
      return new Reset(writes, null);
    }
    Read r = plan.reads().get(running);
    long first = doorbellAt;
    Submission again = submit(running, at);
    doorbellAt = first;
    moves.add(new WindowMove(at, registersShift, dmaShift, new ResentRead(running, r.lba(), r.blocks(), first, at)));
    return new Reset(writes, again);
  }

  /** The window moves so far, in order. */
  public List<WindowMove> moves() {
    return List.copyOf(moves);
  }

  /** Submission {@code index}'s command id: 16 bits, wrapping. */
  static int commandId(int index) {
    return index & 0xFFFF;
  }

  /** Every read of the plan has its completion. */
  public boolean finished() {
    return done.size() == plan.reads().size();
  }

  public List<DiskReadRecord> records() {
    return List.copyOf(done);
  }

  public int planned() {
    return plan.reads().size();
  }
}
