package io.rackfabric.host.device.disk;

import com.typesafe.config.Config;
import java.util.ArrayList;
import java.util.List;

/**
 * Everything under {@code rackfabric.host.disk}, read once and validated. The size of the disk's
 * posted writes is the fabric's {@code max-payload}, not a setting of the disk.
 *
 * @param readLatencyNs model time from a READ command's arrival at the disk to its first data TLP
 *     (the media)
 * @param writeLatencyNs model time from a WRITE command's last buffer byte arriving to its completion
 * @param maxReadRequest largest read request the disk issues, bytes (PCIe's Max_Read_Request_Size)
 * @param maxOutstandingReads read requests (command fetches and buffer reads) in flight at most
 * @param capacityBlocks the disk's size in 512-byte blocks
 * @param maxBlocksPerCommand most blocks one command may move (NVMe's MDTS)
 * @param maxCommands commands the disk works on at once (fetched and not yet completed)
 */
public record DiskSettings(long readLatencyNs, long writeLatencyNs, int maxReadRequest, int maxOutstandingReads,
    long capacityBlocks, int maxBlocksPerCommand, int maxCommands) {

  /** A requester's tags (the endpoint's 8-bit tag field): no more reads can be in flight. */
  public static final int MAX_TAGS = 256;
  /** Most blocks a command may name: the 16 bits of a command's block count. */
  public static final int MAX_BLOCKS_LIMIT = 65_535;

  public DiskSettings {
    List<String> errors = new ArrayList<>();
    if (readLatencyNs < 0) {
      errors.add("read-latency=" + readLatencyNs + "ns is negative");
    }
    if (writeLatencyNs < 0) {
      errors.add("write-latency=" + writeLatencyNs + "ns is negative");
    }
    if (maxReadRequest < 128 || maxReadRequest > 4096 || Integer.bitCount(maxReadRequest) != 1) {
      errors.add("max-read-request=" + maxReadRequest + " not in {128,256,512,1024,2048,4096}");
    }
    if (maxOutstandingReads < 1 || maxOutstandingReads > MAX_TAGS) {
      errors.add("max-outstanding-reads=" + maxOutstandingReads + " not in [1," + MAX_TAGS + "]");
    }
    if (capacityBlocks < 1) {
      errors.add("capacity=" + capacityBlocks + " blocks, not at least one " + DiskBlocks.BLOCK + "-byte block");
    }
    if (maxBlocksPerCommand < 1 || maxBlocksPerCommand > MAX_BLOCKS_LIMIT) {
      errors.add("max-blocks-per-command=" + maxBlocksPerCommand + " not in [1," + MAX_BLOCKS_LIMIT + "]");
    }
    if (maxCommands < 1 || maxCommands > DiskQueues.MAX_ENTRIES) {
      errors.add("max-commands=" + maxCommands + " not in [1," + DiskQueues.MAX_ENTRIES + "]");
    }
    if (!errors.isEmpty()) {
      throw new IllegalArgumentException("rackfabric.host.disk: " + String.join("; ", errors));
    }
  }

  public static DiskSettings create(Config root) {
    Config c = root.getConfig("rackfabric.host.disk");
    long capacity = c.getBytes("capacity");
    if (capacity % DiskBlocks.BLOCK != 0) {
      throw new IllegalArgumentException("rackfabric.host.disk: capacity=" + capacity + " bytes is not a multiple of "
          + DiskBlocks.BLOCK + " (the block size)");
    }
    return new DiskSettings(
        c.getDuration("read-latency").toNanos(),
        c.getDuration("write-latency").toNanos(),
        c.getInt("max-read-request"),
        c.getInt("max-outstanding-reads"),
        capacity / DiskBlocks.BLOCK,
        c.getInt("max-blocks-per-command"),
        c.getInt("max-commands"));
  }
}
