package io.rackfabric.host.device.gpu;

import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.host.device.Pcie;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * The GPU-like device's ping-pong "kernel", as Device Lending's latency program runs on a GPU
 * (Markussen et al., "Flexible device compositions and dynamic resource sharing in PCIe
 * interconnected clusters using Device Lending", section 7.2): device-initiated, no driver in the
 * loop, stepped with explicit model times.
 *
 * <ul>
 *   <li>Ping: writes counter n (4 bytes, little-endian) to its remote address and waits until the
 *       word it waits on reads n (the pong), then goes on with n+1, {@code count} rounds; each
 *       round's model time runs from its write's issue to the pong's arrival.</li>
 *   <li>Pong: waits until the word it waits on holds a counter above the last it saw and writes
 *       that counter back to its remote address, {@code count} times.</li>
 * </ul>
 *
 * A word in the device's own memory (BAR1) is waited on as an event of its endpoint: the write
 * that lands in it ({@link #written}). Any other word (host RAM, the via-RAM cases) is polled:
 * one 4-byte read, the next issued at the previous one's completion ({@link #readDone}), so the
 * path's read latency shows as in the paper. The kernel reacts at the arrival itself: the GPU's
 * own polling time is not modelled, the same in every scenario. A plain class: the device actor
 * turns its endpoint's calls into these steps and the {@link Bus} calls into endpoint commands.
 */
public final class PingPongKernel {

  /** What the kernel asks of its endpoint. */
  public interface Bus {
    /** One posted write at model time {@code at}. */
    void write(long address, byte[] data, long at);

    /** One 4-byte read at model time {@code at}; its result comes back to {@link #readDone}. */
    void read(long address, int length, long at);

    /** Report writes landing in the 4 bytes at {@code address} of device memory. */
    void watch(long address);
  }

  public enum Role { PING, PONG }

  public enum State { IDLE, RUNNING, DONE, ERROR }

  /** What the driver programmed: PP_MODE, PP_COUNT, PP_REMOTE, PP_WAIT at the doorbell. */
  public record Setup(Role role, long count, long remote, long waitOn) {}

  /**
   * Polls in a row that see no progress after which a polling run ends with an error: its partner
   * stopped (its own poll failed, or it was never started), and a run that cannot end would keep
   * the rack busy for ever. A round needs a handful of polls; a million is far above any.
   */
  static final long POLLS_WITHOUT_PROGRESS = 1_000_000;

  private final AddressRange deviceMemory;
  private final Bus bus;
  private final List<Long> rounds = new ArrayList<>();
  private final List<Long> watched = new ArrayList<>();
  private Setup setup;
  private State state = State.IDLE;
  private boolean polled;
  /** Ping: the counter of the round under way; pong: the last counter echoed. */
  private long counter;
  private long roundStart;
  private long echoed;
  /** The poll read in flight: its issue time, or -1 for none. */
  private long pollIssuedAt = -1;
  /** Polls in a row that saw no progress of the run (see {@link #POLLS_WITHOUT_PROGRESS}). */
  private long idlePolls;
  /** The run moved on since the last poll's result (a new round began, a counter was echoed). */
  private boolean counterMoved;
  private long reads;
  private long writes;
  private long endedAt = -1;

  public PingPongKernel(AddressRange deviceMemory, Bus bus) {
    this.deviceMemory = deviceMemory;
    this.bus = bus;
  }

  /**
   * The ping-pong doorbell at model time {@code at}: why it is refused ({@link
   * GpuRegisters.Error#BUSY} while a run is under way), or {@link GpuRegisters.Error#NONE} with
   * the run started: ping's first write at {@code at}, a polling GPU's first read at {@code at}.
   */
  public GpuRegisters.Error start(Setup s, long at) {
    if (state == State.RUNNING) {
      return GpuRegisters.Error.BUSY;
    }
    setup = s;
    state = State.RUNNING;
    rounds.clear();
    echoed = 0;
    counter = 0;
    pollIssuedAt = -1;
    idlePolls = 0;
    counterMoved = false;
    endedAt = -1;
    polled = !deviceMemory.containsAll(s.waitOn(), 4);
    if (!polled && !watched.contains(s.waitOn())) {
      watched.add(s.waitOn()); // the endpoint has no way to stop a watch: one per word is enough
      bus.watch(s.waitOn());
    }
    if (s.role() == Role.PING) {
      ping(1, at);
    }
    poll(at);
    return GpuRegisters.Error.NONE;
  }

  /**
   * A write that landed in a watched word of device memory at {@code at}; whether it was the
   * kernel's (else it is not about the ping-pong).
   */
  public boolean written(long address, byte[] data, long at) {
    if (setup == null || polled || data == null || address > setup.waitOn()
        || address + data.length < setup.waitOn() + 4) {
      return false;
    }
    if (state == State.RUNNING) {
      seen(value(data, (int) (setup.waitOn() - address)), at);
    }
    return true;
  }

  /**
   * The result of a read of {@code address}, completed {@code latencyNs} after its issue; whether it
   * was the kernel's poll (else it belongs to the copy engine).
   */
  public boolean readDone(long address, boolean ok, byte[] data, long latencyNs) {
    if (pollIssuedAt < 0 || setup == null || address != setup.waitOn()) {
      return false;
    }
    long arrival = pollIssuedAt + latencyNs;
    pollIssuedAt = -1;
    if (state != State.RUNNING) {
      return true;
    }
    if (!ok || data == null || data.length != 4) {
      end(State.ERROR, arrival); // an error completion ends the run rather than polling for ever
      return true;
    }
    long before = roundsDone();
    seen(value(data, 0), arrival);
    idlePolls = roundsDone() > before || counterMoved ? 0 : idlePolls + 1;
    counterMoved = false;
    if (state == State.RUNNING && idlePolls >= POLLS_WITHOUT_PROGRESS) {
      end(State.ERROR, arrival);
      return true;
    }
    poll(arrival);
    return true;
  }

  private void seen(long value, long at) {
    if (setup.role() == Role.PING) {
      if (value != counter) {
        return; // still the last round's word, or a stale one
      }
      rounds.add(at - roundStart);
      if (rounds.size() == setup.count()) {
        end(State.DONE, at);
      } else {
        ping(counter + 1, at);
      }
    } else if (value > counter) {
      counter = value;
      counterMoved = true;
      writes++;
      bus.write(setup.remote(), Pcie.dword((int) value), at);
      if (++echoed == setup.count()) {
        end(State.DONE, at);
      }
    }
  }

  private void end(State s, long at) {
    state = s;
    endedAt = at;
  }

  private void ping(long n, long at) {
    counter = n;
    counterMoved = true;
    roundStart = at;
    writes++;
    bus.write(setup.remote(), Pcie.dword((int) n), at);
  }

  /** The next poll read, at {@code at}, when the GPU polls and its run goes on. */
  private void poll(long at) {
    if (polled && state == State.RUNNING && pollIssuedAt < 0) {
      pollIssuedAt = at;
      reads++;
      bus.read(setup.waitOn(), 4, at);
    }
  }

  private static long value(byte[] data, int offset) {
    return ByteBuffer.wrap(data, offset, 4).order(ByteOrder.LITTLE_ENDIAN).getInt() & 0xFFFF_FFFFL;
  }

  public State state() {
    return state;
  }

  /** Rounds done: pongs received (ping), counters echoed (pong). */
  public long roundsDone() {
    return setup == null ? 0 : setup.role() == Role.PING ? rounds.size() : echoed;
  }

  /** Ping: each round's model time, ns, in order; empty for pong. */
  public List<Long> roundTimes() {
    return List.copyOf(rounds);
  }

  /** The model time the last run ended (its last round's pong, its last write back, its error); -1 while none did. */
  public long endedAt() {
    return endedAt;
  }

  public Setup setup() {
    return setup;
  }

  /** Whether the word waited on is polled with reads (outside device memory). */
  public boolean polled() {
    return polled;
  }

  /** Poll reads and counter writes issued so far. */
  public long reads() {
    return reads;
  }

  public long writes() {
    return writes;
  }
}
