package io.rackfabric.host.messaging;

import io.rackfabric.fabric.address.Addresses;
import io.rackfabric.fabric.time.EventQueue;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.LongPredicate;

/**
 * Two hosts' memories in one global address space, joined by a link that delivers each write
 * {@code delayNs} after it is issued, in issue order, and can lose writes: a chosen one, every k-th,
 * a random fraction, or all of them while a "link failure" window overlaps their flight. Reads are
 * answered after a round trip and fail if the window overlaps it (or at the random rate).
 */
final class LossyMemory {

  private final EventQueue clock;
  private final long delayNs;
  private final long[] bases;
  private final byte[][] memories;

  private final List<LongPredicate> dropOnce = new ArrayList<>();
  private final List<LongPredicate> corruptOnce = new ArrayList<>();
  private final List<LongPredicate> dropAll = new ArrayList<>();
  private int dropEvery;
  private Random random;
  private double lossRate;
  private long failFrom = Long.MAX_VALUE;
  private long failTo = Long.MIN_VALUE;
  private final List<long[]> watchRanges = new ArrayList<>();
  private final List<Runnable> watchers = new ArrayList<>();

  private long writesIssued;
  private long writesLost;
  private long writesCorrupted;
  private long readsFailed;

  /** Host 0 at {@code base0}, host 1 at {@code base1}, each {@code size} bytes. */
  LossyMemory(EventQueue clock, long delayNs, long base0, long base1, int size) {
    this.clock = clock;
    this.delayNs = delayNs;
    this.bases = new long[] {base0, base1};
    this.memories = new byte[][] {new byte[size], new byte[size]};
  }

  // ---- faults

  /** Loses the next write whose address matches. */
  void dropOnce(LongPredicate address) {
    dropOnce.add(address);
  }

  /** Loses every write whose address matches, from now on (a path that never works). */
  void dropAll(LongPredicate address) {
    dropAll.add(address);
  }

  /** Flips a payload byte of the next write whose address matches (a torn/corrupted write). */
  void corruptOnce(LongPredicate address) {
    corruptOnce.add(address);
  }

  /** Loses every k-th write issued (k = 0: none). */
  void dropEvery(int k) {
    dropEvery = k;
  }

  /** Loses writes, and fails reads, at {@code rate}, from a seeded generator. */
  void randomLoss(long seed, double rate) {
    random = new Random(seed);
    lossRate = rate;
  }

  /** The link is down during [from, to): everything in flight then, or issued then, is lost. */
  void failBetween(long from, long to) {
    failFrom = from;
    failTo = to;
  }

  /** Runs {@code interrupt} after each write that lands on {@code address} (a doorbell, an ack word). */
  void watch(long address, Runnable interrupt) {
    watchRanges.add(new long[] {address});
    watchers.add(interrupt);
  }

  private boolean overlapsFailure(long from, long to) {
    return from < failTo && to >= failFrom;
  }

  // ---- views

  MemoryPort port() {
    return new MemoryPort() {
      @Override
      public void write(long address, byte[] data) {
        issueWrite(address, data.clone());
      }

      @Override
      public void read(long address, int length, ReadCallback callback) {
        issueRead(address, length, callback);
      }
    };
  }

  /** Host {@code host}'s direct view of its own memory. */
  LocalMemory local(int host) {
    return new LocalMemory() {
      @Override
      public byte[] read(long address, int length) {
        int at = offset(host, address, length);
        return Arrays.copyOfRange(memories[host], at, at + length);
      }

      @Override
      public void write(long address, byte[] data) {
        System.arraycopy(data, 0, memories[host], offset(host, address, data.length), data.length);
      }
    };
  }

  private int hostOf(long address) {
    for (int h = 0; h < 2; h++) {
      if (address >= bases[h] && address < bases[h] + memories[h].length) {
        return h;
      }
    }
    throw new IllegalArgumentException("address " + Addresses.hex(address) + " is in neither host");
  }

  private int offset(int host, long address, int length) {
    long at = address - bases[host];
    if (at < 0 || at + length > memories[host].length) {
      throw new IllegalArgumentException("[" + Addresses.hex(address) + ", +" + length
          + ") is outside host " + host);
    }
    return (int) at;
  }

  private void issueWrite(long address, byte[] data) {
    writesIssued++;
    int host = hostOf(address);
    offset(host, address, data.length);
    if (takeOnce(dropOnce, address)
        || dropAll.stream().anyMatch(rule -> rule.test(address))
        || (dropEvery > 0 && writesIssued % dropEvery == 0)
        || (random != null && random.nextDouble() < lossRate)) {
      writesLost++;
      return;
    }
    if (takeOnce(corruptOnce, address)) {
      data[data.length - 1] ^= 0x5A; // the last byte: past any header, inside the payload
      writesCorrupted++;
    }
    long issued = clock.now();
    clock.schedule(delayNs, () -> {
      if (overlapsFailure(issued, clock.now())) {
        writesLost++;
        return;
      }
      local(host).write(address, data);
      for (int i = 0; i < watchers.size(); i++) {
        long watched = watchRanges.get(i)[0];
        if (watched >= address && watched < address + data.length) {
          watchers.get(i).run();
        }
      }
    });
  }

  private void issueRead(long address, int length, MemoryPort.ReadCallback callback) {
    int host = hostOf(address);
    offset(host, address, length);
    long issued = clock.now();
    boolean randomlyFailed = random != null && random.nextDouble() < lossRate;
    clock.schedule(delayNs, () -> {
      byte[] snapshot = local(host).read(address, length); // at the target, after earlier writes
      clock.schedule(delayNs, () -> {
        if (randomlyFailed || overlapsFailure(issued, clock.now())) {
          readsFailed++;
          callback.failed("completion lost for read of " + Addresses.hex(address));
        } else {
          callback.completed(snapshot);
        }
      });
    });
  }

  private static boolean takeOnce(List<LongPredicate> rules, long address) {
    for (int i = 0; i < rules.size(); i++) {
      if (rules.get(i).test(address)) {
        rules.remove(i);
        return true;
      }
    }
    return false;
  }

  long writesIssued() {
    return writesIssued;
  }

  long writesLost() {
    return writesLost;
  }

  long writesCorrupted() {
    return writesCorrupted;
  }

  long readsFailed() {
    return readsFailed;
  }
}
