package io.rackfabric.loadtests.scenario.language;

import io.rackfabric.host.device.disk.DiskReadPlan;

/**
 * One workload of a scenario's {@code disk-reads}: a disk driver on a host's root endpoint that
 * sets up a queue pair in its RAM and reads {@code count} times {@code blocks} blocks from random
 * LBAs of a disk ({@code device = disk}), one read after the other (host-actors {@code
 * DiskDriver}), every address checked against the topology by the route explainer. A scenario's
 * workloads run one after the other, in the order written: two may drive one disk.
 *
 * @param name names the workload in figures
 * @param driver the root endpoint the driver is a guest of
 * @param disk the disk's endpoint
 * @param registers the disk's BAR0 as the driver reaches it
 * @param queuesDisk the queue area (SQ, then CQ) as the disk reaches it
 * @param queuesHost the queue area in the driver's RAM
 * @param bufferDisk the data buffer as the disk reaches it
 * @param bufferHost the data buffer in the driver's RAM
 * @param msiDisk the MSI-X message's address as the disk reaches it
 * @param msiHost the MSI-X message's address in the driver's RAM
 * @param blocks 512-byte blocks per read
 * @param count reads
 * @param capacityBlocks the disk's size (its settings): where the random LBAs are drawn
 * @param forward the disk's MSI-X taken by a handler on its lender and forwarded to the driver (a
 *     VM borrower's interrupt path, Device Lending section 5), or null when it goes straight to
 *     the driver's RAM
 * @param where {@code file:line} of the workload
 * @param vector the MSI-X vector the driver programs into the disk's table and CQ_VECTOR, or
 *     {@link DiskReadPlan#ALIAS}: entry 0 through MSI_ADDR/MSI_DATA
 * @param atNs model time after the run's start of the driver's set-up, or {@link #AT_QUIET}: once
 *     the rack is quiet (after the workload before it); a workload through a loan starts at a time
 *     after the borrow, since the borrower reaches the disk's BAR only while it holds it
 */
public record DiskReads(String name, String driver, String disk, long registers, long queuesDisk, long queuesHost,
    long bufferDisk, long bufferHost, long msiDisk, long msiHost, int blocks, int count, long capacityBlocks,
    GpuCopies.MsiForward forward, String where, int vector, long atNs) {

  /** {@code atNs} of a workload that starts once the rack is quiet. */
  public static final long AT_QUIET = -1;

  /** The most reads one workload runs: each is a round of the fabric and the media's latency. */
  public static final int MAX_COUNT = 100_000;

  /**
   * The driver's plan, its set-up at model time {@code startAt}, its LBAs drawn from {@code seed}
   * (the scenario's: workloads with the same blocks read the same LBAs, in the same order).
   */
  public DiskReadPlan plan(long startAt, long seed) {
    return new DiskReadPlan(registers, queuesDisk, queuesHost, bufferDisk, bufferHost, msiDisk, msiHost,
        DiskReadPlan.randomReads(seed, count, blocks, capacityBlocks), startAt, vector);
  }

  /** Bytes of one read's data. */
  public long bufferBytes() {
    return (long) blocks * io.rackfabric.host.device.disk.DiskBlocks.BLOCK;
  }
}
