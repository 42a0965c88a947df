package io.rackfabric.host.device.disk;

import io.rackfabric.fabric.address.AddressRange;
import io.rackfabric.fabric.address.Addresses;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * What a {@link DiskDriver} is told to do: READ commands run one after the other on one queue pair,
 * and the addresses it needs. As for the GPU's plan, only the topology knows how each side reaches
 * the other (straight, through an NTB window), so every address is given in the terms of the side
 * that uses it.
 *
 * @param registers the disk's BAR0 as the driver reaches it
 * @param queuesDisk the queue area (the SQ, then the CQ) as the disk reaches it, a multiple of 64
 * @param queuesHost the same area as the driver's own RAM address
 * @param bufferDisk the data buffer as the disk reaches it (every read lands at its start)
 * @param bufferHost the same buffer as the driver's own RAM address
 * @param msiDisk where the disk posts its MSI-X message, as the disk reaches it
 * @param msiHost the same 4 bytes as the driver's own RAM address (the driver watches them)
 * @param reads in the order they run
 * @param startAt model time of the set-up's write (0 and below: the endpoint's clock when the
 *     driver starts); the first doorbell follows {@link #SETTLE_NS} later
 * @param vector the MSI-X vector the completion queue raises, its table entry programmed with
 *     {@code msiDisk} (a loan's reverse MSI mapping); {@link #ALIAS} programs entry 0 through
 *     MSI_ADDR/MSI_DATA, the single word of drivers that predate the table
 */
public record DiskReadPlan(long registers, long queuesDisk, long queuesHost, long bufferDisk, long bufferHost,
    long msiDisk, long msiHost, List<Read> reads, long startAt, int vector) {

  /** {@code vector} of a plan that programs MSI_ADDR/MSI_DATA, not the table. */
  public static final int ALIAS = -1;

  /** Entries of each queue: one command runs at a time, so a small queue wraps (and flips its phase) often. */
  public static final int ENTRIES = 16;
  /** Bytes of the queue area: the SQ's entries, then the CQ's. */
  public static final int QUEUE_BYTES = ENTRIES * SubmissionEntry.SIZE + ENTRIES * CompletionEntry.SIZE;
  /** Where the CQ starts in the queue area. */
  public static final int CQ_OFFSET = ENTRIES * SubmissionEntry.SIZE;
  /**
   * Model time from the set-up's write to the first doorbell: the enable is ahead of it anyway
   * (posted writes keep their order), the gap only keeps the first doorbell from queuing behind the
   * set-up's larger write, so that every read's latency is measured alike.
   */
  public static final long SETTLE_NS = 1_000;

  /** One READ of {@code blocks} 512-byte blocks from {@code lba}. */
  public record Read(long lba, int blocks) {
    public Read {
      if (blocks < 1 || blocks > 0xFFFF) {
        throw new IllegalArgumentException("blocks=" + blocks + " not in [1, 65535] (a 16-bit field)");
      }
      if (lba < 0) {
        throw new IllegalArgumentException("lba=" + lba + " is negative");
      }
    }
  }

  /** A plan whose driver programs one word through MSI_ADDR/MSI_DATA. */
  public DiskReadPlan(long registers, long queuesDisk, long queuesHost, long bufferDisk, long bufferHost,
      long msiDisk, long msiHost, List<Read> reads, long startAt) {
    this(registers, queuesDisk, queuesHost, bufferDisk, bufferHost, msiDisk, msiHost, reads, startAt, ALIAS);
  }

  public DiskReadPlan {
    reads = List.copyOf(reads);
    if (vector < ALIAS) {
      throw new IllegalArgumentException("vector=" + vector + " is negative");
    }
    if (queuesDisk % SubmissionEntry.SIZE != 0) {
      throw new IllegalArgumentException("queuesDisk=" + Addresses.hex(queuesDisk) + " is not a multiple of "
          + SubmissionEntry.SIZE + " (SQ_BASE's alignment)");
    }
  }

  /**
   * {@code count} reads of {@code blocks} blocks each at random LBAs, aligned to {@code blocks} and
   * inside {@code capacityBlocks}, drawn from {@code seed}: the same seed gives the same LBAs.
   */
  public static List<Read> randomReads(long seed, int count, int blocks, long capacityBlocks) {
    long slots = capacityBlocks / blocks;
    if (slots < 1) {
      throw new IllegalArgumentException("blocks=" + blocks + " is more than the disk's " + capacityBlocks);
    }
    SplittableRandom random = new SplittableRandom(seed);
    List<Read> out = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      out.add(new Read(random.nextLong(slots) * blocks, blocks));
    }
    return out;
  }

  public long sqHost() {
    return queuesHost;
  }

  public long cqHost() {
    return queuesHost + CQ_OFFSET;
  }

  /** The CQ's entries in the driver's RAM: what it watches for completions. */
  public AddressRange cqWatch() {
    return AddressRange.ofSize(cqHost(), (long) ENTRIES * CompletionEntry.SIZE);
  }

  /** The 4 bytes of the MSI-X message in the driver's RAM. */
  public AddressRange msiWatch() {
    return AddressRange.ofSize(msiHost, 4);
  }

  /** The first block's first 8 bytes in the driver's RAM: where a read's data shows its LBA. */
  public AddressRange dataWatch() {
    return AddressRange.ofSize(bufferHost, 8);
  }
}
