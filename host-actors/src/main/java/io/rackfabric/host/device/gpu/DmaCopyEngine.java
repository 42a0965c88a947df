package io.rackfabric.host.device.gpu;

import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.host.device.Pcie;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The GPU-like device's DMA copy engine, one copy at a time, stepped with explicit model times.
 * A copy has exactly one side in the device's own memory (BAR1); the other is any bus address:
 * host RAM (through an NTB or not) or another device's BAR (peer to peer).
 *
 * <ul>
 *   <li>Out (device memory to the bus): {@link #setupDone} asks for the source bytes ({@link
 *       Bus#load}: a snapshot of device memory at that model time); {@link #sourceLoaded} hands
 *       them to the endpoint as posted writes of at most max-payload bytes, none crossing a 4 KiB
 *       boundary, all at that time (the link paces them). The copy is done once the last one was
 *       handed over: posted ordering keeps the MSI that follows behind the data.</li>
 *   <li>In (the bus to device memory): read requests of at most max-read-request bytes, none
 *       crossing a 4 KiB boundary, at most max-outstanding-reads in flight; each completion is
 *       stored into device memory and lets the next request go at its arrival. Done when the last
 *       completed; a completion with an error status ends the copy with an error.</li>
 * </ul>
 *
 * A plain class: the device actor turns its endpoint's calls into these steps and the {@link Bus}
 * calls into endpoint commands.
 */
public final class DmaCopyEngine {

  /** PCIe: no request may cross a 4 KiB boundary. */
  public static final int PAGE = Pcie.PAGE;

  /** What the engine asks of its endpoint. */
  public interface Bus {
    /** One posted write, at model time {@code at}. */
    void write(long address, byte[] data, long at);

    /** One read request at model time {@code at}; its result comes back to {@link #readDone}. */
    void read(long address, int length, long at);

    /** Into device memory, now (the endpoint's clock is the step's time). */
    void store(long deviceAddress, byte[] data);

    /** Asks for device memory's bytes now; they come back to {@link #sourceLoaded}. */
    void load(long deviceAddress, int length);
  }

  public enum Direction { OUT, IN }

  /** What a doorbell came to. */
  public sealed interface Start permits Started, Refused {}

  /** Copy {@code copy} runs; its first TLP is due at {@code firstTlpAt} (the setup's end). */
  public record Started(long copy, Direction direction, long firstTlpAt) implements Start {}

  public record Refused(GpuRegisters.Error why) implements Start {}

  /** A copy ended at model time {@code at}, done or failed, with {@code bytes} moved. */
  public record Finished(long copy, boolean ok, long bytes, long at) {}

  /** One read in flight: which copy it is for, when it left, where its data goes. */
  private record Outstanding(long copy, long issuedAt, long deviceAddress, int length) {}

  private final AddressRange deviceMemory;
  private final int maxPayload;
  private final GpuSettings settings;
  private final Bus bus;
  /** Reads in flight by bus address, oldest first: a failed copy's stragglers are told apart by copy. */
  private final Map<Long, ArrayDeque<Outstanding>> inFlight = new HashMap<>();
  private int reads;
  private long copies;
  private long current = -1;
  private Direction direction;
  private long busAddress;
  private long deviceAddress;
  private long length;
  /** When an out copy's source was asked for: its writes' time. */
  private long loadAt;
  /** Bytes requested (in) so far. */
  private long issued;
  private long done;
  private long completedCopies;
  private long failedCopies;
  private long tlps;

  public DmaCopyEngine(AddressRange deviceMemory, int maxPayload, GpuSettings settings, Bus bus) {
    if (maxPayload < 1 || maxPayload > PAGE) {
      throw new IllegalArgumentException("maxPayload=" + maxPayload + " not in [1," + PAGE + "]");
    }
    this.deviceMemory = deviceMemory;
    this.maxPayload = maxPayload;
    this.settings = settings;
    this.bus = bus;
  }

  /** Whether the current copy's setup time is over (its TLPs may go). */
  private boolean setupEnded;

  /** The doorbell, at model time {@code at}: refused, or started with its setup running. */
  public Start start(GpuRegisters.Doorbell d, long at) {
    if (busy()) {
      return new Refused(GpuRegisters.Error.BUSY);
    }
    if (d.length() <= 0 || d.length() > settings.maxCopyBytes()
        || Pcie.wraps(d.src(), d.length()) || Pcie.wraps(d.dst(), d.length())) {
      return new Refused(GpuRegisters.Error.BAD_LENGTH);
    }
    int len = (int) d.length();
    boolean srcHere = deviceMemory.containsAll(d.src(), len);
    boolean dstHere = deviceMemory.containsAll(d.dst(), len);
    if (srcHere == dstHere) { // neither side is the device's, or both (local copies are not built)
      return new Refused(GpuRegisters.Error.OUTSIDE_DEVICE_MEMORY);
    }
    current = ++copies;
    direction = srcHere ? Direction.OUT : Direction.IN;
    busAddress = srcHere ? d.dst() : d.src();
    deviceAddress = srcHere ? d.src() : d.dst();
    length = len;
    issued = 0;
    done = 0;
    setupEnded = false;
    return new Started(current, direction, at + settings.setupNs());
  }

  /** Copy {@code copy}'s setup ended at {@code at}: its first TLPs go (in), or its source is loaded (out). */
  public void setupDone(long copy, long at) {
    if (copy != current || !busy()) {
      return;
    }
    setupEnded = true;
    if (direction == Direction.OUT) {
      loadAt = at;
      bus.load(deviceAddress, (int) length);
    } else {
      issueReads(at);
    }
  }

  /**
   * The out copy's source, as device memory held it when its setup ended: every write goes then.
   * Null when no out copy waits for its source.
   */
  public Finished sourceLoaded(byte[] data) {
    if (!busy() || direction != Direction.OUT) {
      return null;
    }
    long at = loadAt;
    if (data == null || data.length != length) {
      return finish(false, at); // device memory could not be read: fail rather than hang
    }
    int offset = 0;
    while (offset < length) {
      int size = Pcie.chunk(busAddress + offset, length - offset, maxPayload);
      bus.write(busAddress + offset, Arrays.copyOfRange(data, offset, offset + size), at);
      tlps++;
      offset += size;
    }
    done = length;
    return finish(true, at);
  }

  /**
   * The result of the read of {@code address}: completed {@code latencyNs} after it was issued
   * (its arrival is the step's time). Null while the copy goes on.
   */
  public Finished readDone(long address, boolean ok, byte[] data, long latencyNs) {
    ArrayDeque<Outstanding> q = inFlight.get(address);
    if (q == null || q.isEmpty()) {
      return null; // not the engine's
    }
    Outstanding o = q.poll();
    if (q.isEmpty()) {
      inFlight.remove(address);
    }
    reads--;
    long arrival = o.issuedAt() + latencyNs;
    if (o.copy() != current || !busy()) {
      issueReads(arrival); // a failed copy's straggler: its tag is free again
      return null;
    }
    if (!ok || data == null || data.length != o.length()) {
      return finish(false, arrival);
    }
    bus.store(o.deviceAddress(), data);
    done += data.length;
    if (done == length) {
      return finish(true, arrival);
    }
    issueReads(arrival);
    return null;
  }

  private void issueReads(long at) {
    // A failed copy's late completion frees a tag while the next copy is still setting up: its
    // reads wait for the setup's end.
    if (!busy() || direction != Direction.IN || !setupEnded) {
      return;
    }
    while (issued < length && reads < settings.maxOutstandingReads()) {
      long address = busAddress + issued;
      int size = Pcie.chunk(address, length - issued, settings.maxReadRequest());
      inFlight.computeIfAbsent(address, a -> new ArrayDeque<>())
          .add(new Outstanding(current, at, deviceAddress + issued, size));
      reads++;
      tlps++;
      issued += size;
      bus.read(address, size, at);
    }
  }

  private Finished finish(boolean ok, long at) {
    Finished f = new Finished(current, ok, done, at);
    if (ok) {
      completedCopies++;
    } else {
      failedCopies++;
    }
    current = -1;
    return f;
  }

  public boolean busy() {
    return current >= 0;
  }

  /** Bytes moved by the running copy, or by the last one. */
  public long bytesDone() {
    return done;
  }

  /** Reads in flight, the current copy's and a failed one's stragglers. */
  public int readsInFlight() {
    return reads;
  }

  public long completedCopies() {
    return completedCopies;
  }

  public long failedCopies() {
    return failedCopies;
  }

  /** Read requests and writes issued so far. */
  public long tlps() {
    return tlps;
  }
}
