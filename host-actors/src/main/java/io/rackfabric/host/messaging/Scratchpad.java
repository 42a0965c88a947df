package io.rackfabric.host.messaging;

import io.rackfabric.fabric.address.Addresses;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Scratchpad registers and a doorbell for small messages (Multi-peer: "the RC processor writes the
 * data to the scratchpad registers. It then writes to the Doorbell register to interrupt the EP
 * processor"). {@code registers} 32-bit registers at {@code base}, then a 32-bit doorbell register
 * at {@code base + 64}, in the receiving host's memory.
 *
 * <p>Not reliable: a lost register or doorbell write loses the message (bulk traffic uses the
 * datagram service). One sender per scratchpad; with several the paper needs a semaphore. The
 * doorbell has hardware semantics: the sender sets bits, the receiver clears them when it has read
 * the registers, and the sender reads the doorbell to learn the scratchpad is free again.
 */
public record Scratchpad(long base, int registers) {

  public static final int MAX_REGISTERS = 16;
  static final int DOORBELL_OFFSET = 4 * MAX_REGISTERS;

  public Scratchpad {
    if (base % 8 != 0) {
      throw new IllegalArgumentException("scratchpad base " + Addresses.hex(base)
          + " is not 8-byte aligned");
    }
    if (registers < 1 || registers > MAX_REGISTERS) {
      throw new IllegalArgumentException("registers " + registers + " is not in [1, "
          + MAX_REGISTERS + "]");
    }
  }

  public long registerAddress(int index) {
    if (index < 0 || index >= registers) {
      throw new IllegalArgumentException("register " + index + " is not in [0, " + registers + ")");
    }
    return base + 4L * index;
  }

  public long doorbellAddress() {
    return base + DOORBELL_OFFSET;
  }

  /** What the receiver hands on: which doorbell bit rang and the registers' contents. */
  public interface Listener {
    void message(int doorbellBit, int[] words);
  }

  /** The writing side, through the fabric. */
  public static final class Sender {
    private final Scratchpad pad;
    private final MemoryPort port;

    public Sender(Scratchpad pad, MemoryPort port) {
      this.pad = Objects.requireNonNull(pad, "pad");
      this.port = Objects.requireNonNull(port, "port");
    }

    /** Registers first, doorbell second: writes are not reordered, so the bell rings after the data. */
    public void send(int doorbellBit, int... words) {
      if (words.length > pad.registers()) {
        throw new IllegalArgumentException(words.length + " words do not fit in "
            + pad.registers() + " scratchpad registers");
      }
      checkBit(doorbellBit);
      byte[] data = new byte[4 * words.length];
      for (int i = 0; i < words.length; i++) {
        System.arraycopy(Words.ofInt(words[i]), 0, data, 4 * i, 4);
      }
      port.write(pad.base(), data);
      port.write(pad.doorbellAddress(), Words.ofInt(1 << doorbellBit));
    }

    /** Reads the doorbell: free once the receiver has cleared it (false if the read failed). */
    public void whenChecked(Consumer<Boolean> free) {
      port.read(pad.doorbellAddress(), 4, new MemoryPort.ReadCallback() {
        @Override
        public void completed(byte[] data) {
          free.accept(Words.getInt(data, 0) == 0);
        }

        @Override
        public void failed(String reason) {
          free.accept(false);
        }
      });
    }
  }

  /** The receiving side, in its own memory. */
  public static final class Receiver {
    private final Scratchpad pad;
    private final LocalMemory own;
    private final Listener listener;

    public Receiver(Scratchpad pad, LocalMemory own, Listener listener) {
      this.pad = Objects.requireNonNull(pad, "pad");
      this.own = Objects.requireNonNull(own, "own");
      this.listener = Objects.requireNonNull(listener, "listener");
    }

    /** The doorbell interrupt (or a poll): hand on the registers for each bit rung, then clear. */
    public int onDoorbell() {
      int bell = own.readInt(pad.doorbellAddress());
      if (bell == 0) {
        return 0;
      }
      int[] words = new int[pad.registers()];
      for (int i = 0; i < words.length; i++) {
        words[i] = own.readInt(pad.registerAddress(i));
      }
      // Clear before handing on, so the sender may reuse the registers as soon as it sees 0.
      own.writeInt(pad.doorbellAddress(), 0);
      int rung = 0;
      for (int bit = 0; bit < 32; bit++) {
        if ((bell & (1 << bit)) != 0) {
          listener.message(bit, words.clone());
          rung++;
        }
      }
      return rung;
    }
  }

  private static void checkBit(int bit) {
    if (bit < 0 || bit >= 32) {
      throw new IllegalArgumentException("doorbell bit " + bit + " is not in [0, 32)");
    }
  }
}
