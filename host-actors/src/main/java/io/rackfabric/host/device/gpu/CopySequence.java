package io.rackfabric.host.device.gpu;

import io.rackfabric.fabric.tlp.CompletionStatus;
import io.rackfabric.host.device.DeviceWatchdog;
import io.rackfabric.host.device.RemovableSequence;
import io.rackfabric.host.device.WindowShift;
import io.rackfabric.host.device.gpu.GpuCopyPlan.Copy;
import io.rackfabric.host.device.gpu.GpuCopyPlan.Direction;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@link GpuDriver}'s sequencing, stepped with explicit model times: for each copy of the plan
 * in turn, the one register write that programs SRC, DST, LENGTH, the DOORBELL and the MSI
 * (applied in address order: the MSI registers are set long before the copy can end); then the
 * MSI, told apart from a late or stray one by its data (the copy's number), ends the copy, is
 * recorded with the model time from the doorbell's issue to the MSI's arrival, and lets the next
 * copy go at that arrival. With a {@link GpuCopyPlan.Bounce} a copy has two legs: the plan's GPU
 * writes the buffer, and its MSI rings the second GPU, which reads the buffer into its memory; the
 * copy is recorded at the second MSI, from the first doorbell.
 *
 * <p>With a watchdog ({@link DeviceWatchdog}) an MSI that does not come in time makes the driver
 * read the awaited GPU's STATUS; a GPU found gone is a surprise removal at that model time: no
 * further register write is issued, the copy in flight is lost (its data's fate is unknown to the
 * driver), the copies after it are never started, and every later MSI is ignored. A plain class:
 * the actor turns endpoint calls into these steps.
 */
public final class CopySequence implements RemovableSequence {

  /** One register write of the driver: {@code data} at bus address {@code address}, issued at {@code at}. */
  public record RegisterWrite(long address, byte[] data, long at) {}

  /**
   * One copy done: {@code bytes} one way, its doorbell issued at {@code doorbellAt}, its MSI
   * arrived at {@code msiAt} (model ns).
   */
  public record CopyRecord(long bytes, Direction direction, long doorbellAt, long msiAt) {
    public long durationNs() {
      return msiAt - doorbellAt;
    }
  }

  /** One register read of the driver: {@code length} bytes at bus address {@code address}, issued at {@code at}. */
  public record RegisterRead(long address, int length, long at) {}

  /** A copy whose doorbell was rung and whose MSI never came: lost with its device. */
  public record LostCopy(long bytes, Direction direction, long doorbellAt) {}

  /**
   * The device stopped answering: declared at model time {@code at} for {@code reason}; {@code
   * lost} the copies in flight then, {@code notStarted} the planned copies never rung.
   */
  public record SurpriseRemoval(long at, String reason, List<LostCopy> lost, int notStarted) {
    public SurpriseRemoval {
      lost = List.copyOf(lost);
    }
  }

  /**
   * The loan's windows moved at model {@code at} (its host's link fail-over): from then on the
   * GPU's registers are {@code registersShift} from the plan's and its DMA addresses (buffer and
   * MSI) {@code dmaShift}; {@code resent} the copy rung again through the new windows, or null.
   */
  public record WindowMove(long at, long registersShift, long dmaShift, ResentCopy resent) implements WindowShift {}

  /** Copy number {@code index} (from 0) rung again at {@code resentAt}; first rung at {@code doorbellAt}. */
  public record ResentCopy(int index, long bytes, Direction direction, long doorbellAt, long resentAt) {}

  /** Bytes from SRC to MSI_DATA: the block one write programs. */
  static final int PROGRAM_BYTES = GpuRegisters.MSI_DATA + 4;

  private final GpuCopyPlan plan;
  private final List<CopyRecord> done = new ArrayList<>();
  /** The copy whose MSI is awaited, or -1 before the first doorbell and after the last MSI. */
  private int running = -1;
  /** Whether the awaited MSI is the bounce's (the second leg's). */
  private boolean secondLeg;
  /** Doorbells rung so far: the awaited MSI's data is this number. */
  private int rung;
  private long doorbellAt;
  /** Null: no watchdog (free-running, where a wake is due at once, or a test of the sequence alone). */
  private final DeviceWatchdog watchdog;
  private SurpriseRemoval removal;
  /** Where the loan's windows are now against the plan's addresses (0: as planned). */
  private long registersShift;
  private long dmaShift;
  private final List<WindowMove> moves = new ArrayList<>();
  /** MSIs of an earlier doorbell that came after the copy was rung again: ignored, counted. */
  private int staleMsis;

  /** A sequence without a watchdog: it waits for each MSI for ever. */
  public CopySequence(GpuCopyPlan plan) {
    this.plan = plan;
    this.watchdog = null;
  }

  /** A sequence that probes its GPU when an MSI is {@code watchdogNs} late, and declares it removed if gone. */
  public CopySequence(GpuCopyPlan plan, long watchdogNs) {
    this.plan = plan;
    this.watchdog = new DeviceWatchdog(watchdogNs);
  }

  /** The first doorbell, at model time {@code at}; null when the plan has no copy or it has begun. */
  public RegisterWrite begin(long at) {
    if (running >= 0 || removal != null || !done.isEmpty() || plan.copies().isEmpty()) {
      return null;
    }
    return ring(0, at);
  }

  /**
   * A write into the MSI's address arrived at {@code at}: when it is the running copy's MSI, the
   * copy is recorded and the next one's register write returned (null after the last copy, and
   * for any other write, which changes nothing).
   */
  public RegisterWrite msiArrived(long address, byte[] data, long at) {
    if (running < 0 || removal != null || address != plan.msiHost() || data == null || data.length != 4) {
      return null;
    }
    int number = ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN).getInt();
    if (number != rung) {
      if (number > 0 && number < rung) {
        staleMsis++;
      }
      return null;
    }
    Copy c = plan.copies().get(running);
    if (plan.bounce() != null && !secondLeg) {
      return bounce(c, at);
    }
    done.add(new CopyRecord(c.bytes(), c.direction(), doorbellAt, at));
    int next = running + 1;
    running = -1;
    if (watchdog != null) {
      watchdog.stop();
    }
    return next < plan.copies().size() ? ring(next, at) : null;
  }

  /**
   * The model time at which {@link #watchdogExpired} is due: the awaited MSI's (or the probe's)
   * deadline; {@code Long.MAX_VALUE} when nothing is awaited or there is no watchdog.
   */
  @Override
  public long watchdogDeadline() {
    return watchdog == null ? DeviceWatchdog.NONE : watchdog.deadline();
  }

  /**
   * The driver's watchdog wake at model {@code at}: the read of the awaited GPU's STATUS to issue
   * when its MSI is late, else null (a stale wake, or the probe itself went unanswered: then the
   * GPU is declared removed, see {@link #removal}).
   */
  public RegisterRead watchdogExpired(long at) {
    if (watchdog == null || running < 0 || removal != null) {
      return null;
    }
    DeviceWatchdog.Verdict v = watchdog.expired(at);
    if (v == DeviceWatchdog.Verdict.PROBE) {
      return new RegisterRead(awaitedRegisters() + GpuRegisters.STATUS, 4, at);
    }
    if (v == DeviceWatchdog.Verdict.REMOVED) {
      removed(at);
    }
    return null;
  }

  /**
   * The STATUS read's answer, issued at {@code issuedAt} (negative: not known) and answered
   * {@code latencyNs} later (0 for a read refused at once): the GPU is declared removed at the
   * answer's model time if the answer shows it gone. An older probe's answer is ignored.
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

  /** BAR0 of the GPU whose MSI is awaited: the bounce's second GPU on a copy's second leg. */
  private long awaitedRegisters() {
    return secondLeg ? plan.bounce().registers() : plan.registers() + registersShift;
  }

  /**
   * The loan's windows moved at model {@code at}: the borrower's link on one plane failed and its
   * fail-over (Ladon section 5.3) moved the loan to the other plane's NTB mapping, so the GPU's
   * registers are now {@code registersShift} from the plan's addresses and the GPU reaches the
   * buffer and the MSI's word {@code dmaShift} from them (both as planned before, 0 and 0: shifts
   * are from the plan, so a repeated notice changes nothing). The copy whose MSI is awaited is rung
   * again at once through the new windows: its doorbell, its data or its MSI may have been lost on
   * the failed link, and a copy writes the same bytes to the same place, so ringing it again loses
   * nothing and duplicates nothing the stream counts; its own MSI, should it still come, carries
   * the old doorbell's number and is ignored ({@link #staleMsis}). Returns that doorbell's write,
   * or null when nothing is awaited (the next copy is programmed through the new windows anyway),
   * the shifts did not change, or the GPU was removed.
   *
   * @throws IllegalArgumentException for a plan via RAM (a second GPU, whose loan is another's)
   */
  public RegisterWrite windowsMoved(long registersShift, long dmaShift, long at) {
    if (plan.bounce() != null) {
      throw new IllegalArgumentException("a plan via RAM (second GPU at 0x" + Long.toHexString(plan.bounce().registers())
          + ") does not follow a window move");
    }
    if (removal != null || (registersShift == this.registersShift && dmaShift == this.dmaShift)) {
      return null;
    }
    this.registersShift = registersShift;
    this.dmaShift = dmaShift;
    if (running < 0) {
      moves.add(new WindowMove(at, registersShift, dmaShift, null));
      return null;
    }
    Copy c = plan.copies().get(running);
    moves.add(new WindowMove(at, registersShift, dmaShift,
        new ResentCopy(running, c.bytes(), c.direction(), doorbellAt, at)));
    if (watchdog != null) {
      watchdog.expect(at);
    }
    return programCopy(c, at);
  }

  /** The window moves so far, in order. */
  public List<WindowMove> moves() {
    return List.copyOf(moves);
  }

  /** MSIs of an earlier doorbell that arrived after their copy was rung again, each ignored. */
  public int staleMsis() {
    return staleMsis;
  }

  private void removed(long at) {
    removed(at, "GPU at 0x" + Long.toHexString(awaitedRegisters()) + " gone: " + watchdog.reason());
  }

  /**
   * The GPU was hot-removed at model {@code at} for {@code reason} without the driver finding it
   * gone (the controller ended its loan: its lender left the rack): a surprise removal as the
   * watchdog's, the copy in flight lost and the copies never rung not started; nothing happens
   * when the sequence is over already.
   */
  @Override
  public void hotRemoved(long at, String reason) {
    if (over()) {
      return;
    }
    removed(at, reason);
    if (watchdog != null) {
      watchdog.stop();
    }
  }

  private void removed(long at, String reason) {
    List<LostCopy> lost = running < 0 ? List.of()
        : List.of(new LostCopy(plan.copies().get(running).bytes(), plan.copies().get(running).direction(), doorbellAt));
    removal = new SurpriseRemoval(at, reason, lost, plan.copies().size() - done.size() - lost.size());
    running = -1;
  }

  /** The surprise removal the watchdog declared, or null. */
  public SurpriseRemoval removal() {
    return removal;
  }

  /** Nothing more will happen: every copy has its MSI, or the GPU was found removed. */
  @Override
  public boolean over() {
    return finished() || removal != null;
  }

  private RegisterWrite ring(int index, long at) {
    Copy c = plan.copies().get(index);
    running = index;
    secondLeg = false;
    doorbellAt = at;
    if (watchdog != null) {
      watchdog.expect(at);
    }
    return programCopy(c, at);
  }

  /** The write programming copy {@code c} on the plan's GPU through the loan's windows as they are now. */
  private RegisterWrite programCopy(Copy c, long at) {
    boolean write = c.direction() == Direction.WRITE;
    long buffer = plan.bufferGpu() + dmaShift;
    return program(plan.registers() + registersShift, write ? plan.deviceMemory() : buffer,
        write ? buffer : plan.deviceMemory(), c.bytes(), plan.msiGpu() + dmaShift, at);
  }

  /** The second leg of a copy via RAM: the other GPU reads the buffer into its memory, at {@code at}. */
  private RegisterWrite bounce(Copy c, long at) {
    GpuCopyPlan.Bounce o = plan.bounce();
    secondLeg = true;
    if (watchdog != null) {
      watchdog.expect(at);
    }
    return program(o.registers(), o.bufferGpu(), o.deviceMemory(), c.bytes(), o.msiGpu(), at);
  }

  /**
   * One write programming a copy into the GPU whose BAR0 is at {@code registers}; its MSI's data is
   * the doorbell's number from 1, so a stale MSI is not taken for the awaited one.
   */
  private RegisterWrite program(long registers, long src, long dst, long bytes, long msiGpu, long at) {
    ByteBuffer b = ByteBuffer.allocate(PROGRAM_BYTES).order(ByteOrder.LITTLE_ENDIAN);
    b.putLong(GpuRegisters.SRC, src);
    b.putLong(GpuRegisters.DST, dst);
    b.putInt(GpuRegisters.LENGTH, (int) bytes);
    b.putInt(GpuRegisters.DOORBELL, 1);
    b.putLong(GpuRegisters.MSI_ADDR, msiGpu);
    b.putInt(GpuRegisters.MSI_DATA, ++rung);
    return new RegisterWrite(registers, b.array(), at);
  }

  /** Every copy of the plan has its MSI. */
  public boolean finished() {
    return done.size() == plan.copies().size();
  }

  public List<CopyRecord> records() {
    return List.copyOf(done);
  }

  public int planned() {
    return plan.copies().size();
  }
}
